import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
} from 'react';
import { Link } from 'wouter';
import type { ClientConfig } from '@/contract/proxy-api';
import type { Document } from '@/domain/model';
import { DocumentViewer } from '../../components/document-viewer';
import { DISABLED_LOOK } from '../../components/disabled-look';
import { ErrorBanner } from '../../components/error-banner';
import { UpdatedAge } from '../../components/updated-age';
import { useDemoFleetOnFirstVisit, useWatchList, useWatchListInUrl } from '../../lib/watch-list';
import { DocumentCard, documentName } from './document-card';
import { InboxFiltersBar } from './inbox-filters-bar';
import {
  DEFAULT_FILTERS,
  filterDocuments,
  filterOptions,
  groupByLoad,
  type InboxDocument,
  type InboxFilters,
  type ReviewFilter,
} from './inbox-model';
import { reviewedStore } from './reviewed-store';
import { useArrivals } from './use-arrivals';
import { useDocumentsInbox } from './use-documents-inbox';

export interface DocumentsPageProps {
  config: ClientConfig;
}

const REVIEW_WORDS: Record<ReviewFilter, string> = {
  unreviewed: 'not reviewed',
  reviewed: 'reviewed',
  all: 'all',
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const button = `rounded border border-panel-line bg-panel px-2 py-0.5 text-sm hover:bg-panel-sunk ${DISABLED_LOOK}`;

/**
 * `/documents`: the brokers' inbox. Every document and picture drivers uploaded to the watched loads,
 * newest first, in one queue: filter it, step through it with j / k or the arrows, mark each reviewed
 * (r) or undo (u), open it in the viewer (Enter). Reviews are kept in this browser by document URL, so
 * a document that arrives later comes in at the top, not reviewed.
 */
export function DocumentsPage({ config }: DocumentsPageProps) {
  useDemoFleetOnFirstVisit(config.demo);
  useWatchListInUrl(useWatchList());
  const inbox = useDocumentsInbox(config);
  const [filters, setFilters] = useState<InboxFilters>(DEFAULT_FILTERS);
  const [grouped, setGrouped] = useState(false);
  const [currentUrl, setCurrentUrl] = useState<string | null>(null);
  const [viewerOpen, setViewerOpen] = useState(false);
  const [message, setMessage] = useState('');
  /** What was marked reviewed on this page, the latest last: what `u` undoes. */
  const [undoStack, setUndoStack] = useState<readonly string[]>([]);
  const listBox = useRef<HTMLDivElement>(null);
  const emptyBox = useRef<HTMLDivElement>(null);
  // Set by a key or action that moves the current document while focus is in the list: the next
  // render puts focus on the new current document.
  const focusPending = useRef(false);
  const viewerFromList = useRef(false);
  const helpId = useId();

  const { documents } = inbox;
  const ready = !inbox.isPending && inbox.updatedAt > 0;
  const urls = useMemo(() => documents.map((d) => d.url), [documents]);
  const arrivals = useArrivals(ready ? urls : undefined);

  const visible = useMemo(() => filterDocuments(documents, filters), [documents, filters]);
  const groups = useMemo(() => (grouped ? groupByLoad(visible) : null), [grouped, visible]);
  // The order shown, which j / k and the viewer follow.
  const ordered = useMemo(() => (groups ? groups.flatMap((g) => g.documents) : visible), [groups, visible]);
  const orderedDocs = useMemo(() => ordered.map((d) => d.doc), [ordered]);
  const positions = useMemo(() => new Map(ordered.map((d, i) => [d.url, i])), [ordered]);
  const byDoc = useMemo(() => new Map<Document, InboxDocument>(ordered.map((d) => [d.doc, d])), [ordered]);
  const options = useMemo(() => filterOptions(documents, filters.load), [documents, filters.load]);
  const counts = {
    unreviewed: inbox.unreviewed,
    reviewed: documents.length - inbox.unreviewed,
    all: documents.length,
  };

  const undoable = useMemo(() => {
    const reviewedHere = new Map(documents.filter((d) => d.reviewed).map((d) => [d.url, d]));
    return undoStack.findLast((u) => reviewedHere.has(u)) ?? null;
  }, [documents, undoStack]);

  const found = currentUrl === null ? -1 : ordered.findIndex((d) => d.url === currentUrl);
  const index = found >= 0 ? found : 0;
  const current: InboxDocument | undefined = ordered[index];

  // The viewer closes when nothing is left to show (the last document reviewed, say).
  if (viewerOpen && ordered.length === 0) setViewerOpen(false);

  useEffect(() => {
    if (!focusPending.current || viewerOpen) return;
    focusPending.current = false;
    const items = listBox.current?.querySelectorAll<HTMLElement>('[data-document-item]');
    const target = items?.[index] ?? emptyBox.current;
    target?.focus();
  });

  const focusInList = () => listBox.current?.contains(document.activeElement) ?? false;

  /** Makes document `i` of the list shown current; `focus` moves keyboard focus to it too. */
  function go(i: number, focus: boolean) {
    const target = ordered[Math.max(0, Math.min(ordered.length - 1, i))];
    if (!target) return;
    setCurrentUrl(target.url);
    if (focus) focusPending.current = true;
  }

  /**
   * Marks a document reviewed. `advance` (the r key, the toolbar) goes on to the next document; a
   * document the filter now hides gives its place to the next one anyway.
   */
  function review(url: string, advance: boolean) {
    const i = ordered.findIndex((d) => d.url === url);
    const item = ordered[i];
    if (!item) return;
    const hides = filters.review === 'unreviewed';
    if (!item.reviewed) {
      reviewedStore.mark([url]);
      setUndoStack((s) => [...s.filter((u) => u !== url), url]);
      const left = inbox.unreviewed - 1;
      setMessage(
        `Marked reviewed: ${documentName(item)}. ${left === 0 ? 'Nothing left to review.' : `${left} not reviewed left.`}`,
      );
    }
    const next =
      hides && !item.reviewed ? (ordered[i + 1] ?? ordered[i - 1]) : advance ? ordered[i + 1] : item;
    if (next || hides) setCurrentUrl(next?.url ?? null);
    if (focusInList()) focusPending.current = true;
  }

  /** Makes a document not reviewed again. */
  function unreview(item: InboxDocument, announce: string) {
    reviewedStore.unmark([item.url]);
    setUndoStack((s) => s.filter((u) => u !== item.url));
    setMessage(announce);
  }

  /** `u`: the current document, if reviewed, is not any more; else the latest review here is undone. */
  function undo() {
    if (current?.reviewed) {
      const i = ordered.indexOf(current);
      unreview(current, `Marked not reviewed: ${documentName(current)}.`);
      if (filters.review === 'reviewed') {
        const next = ordered[i + 1] ?? ordered[i - 1];
        setCurrentUrl(next?.url ?? null);
      }
      if (focusInList()) focusPending.current = true;
      return;
    }
    const item = undoable === null ? undefined : documents.find((d) => d.url === undoable);
    if (!item) {
      setMessage('Nothing to undo.');
      return;
    }
    unreview(item, `Undone: ${documentName(item)} is not reviewed again.`);
    setCurrentUrl(item.url);
    if (focusInList() || ordered.length === 0) focusPending.current = true;
  }

  function toggle(url: string) {
    const item = ordered.find((d) => d.url === url);
    if (!item) return;
    if (!item.reviewed) review(url, false);
    else {
      const i = ordered.indexOf(item);
      unreview(item, `Marked not reviewed: ${documentName(item)}.`);
      if (filters.review === 'reviewed') {
        const next = ordered[i + 1] ?? ordered[i - 1];
        setCurrentUrl(next?.url ?? null);
        if (focusInList()) focusPending.current = true;
      }
    }
  }

  function openViewer(url?: string) {
    if (url !== undefined) setCurrentUrl(url);
    if (ordered.length === 0) return;
    viewerFromList.current = focusInList();
    setViewerOpen(true);
  }

  // The cards are memoized: they get stable callbacks that call the latest handlers.
  const latest = useRef({ openViewer, toggle });
  useLayoutEffect(() => {
    latest.current = { openViewer, toggle };
  });
  const onOpen = useCallback((url: string) => latest.current.openViewer(url), []);
  const onToggleReviewed = useCallback((url: string) => latest.current.toggle(url), []);

  function onListKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    const onItem = event.target instanceof HTMLElement && event.target.hasAttribute('data-document-item');
    switch (event.key) {
      case 'j':
      case 'ArrowDown':
        go(index + 1, true);
        break;
      case 'k':
      case 'ArrowUp':
        go(index - 1, true);
        break;
      case 'Home':
        go(0, true);
        break;
      case 'End':
        go(ordered.length - 1, true);
        break;
      case 'r':
        if (current) review(current.url, true);
        break;
      case 'u':
        undo();
        break;
      case 'Enter':
        // Enter on a button or link inside a document is that control's.
        if (!onItem) return;
        openViewer();
        break;
      default:
        return;
    }
    event.preventDefault();
  }

  const filtered =
    filters.type !== undefined ||
    filters.load !== undefined ||
    filters.stop !== undefined ||
    filters.from !== '' ||
    filters.to !== '';
  const loadsWithDocuments = new Set(documents.map((d) => d.load.key)).size;

  let body: ReactNode;
  if (inbox.watched === 0) {
    body = (
      <EmptyState boxRef={emptyBox} title="No loads watched">
        The inbox lists the documents of the loads you watch.{' '}
        <Link href="/" className="text-status-selected underline">
          Add loads on the map page
        </Link>{' '}
        and their bills of lading, proofs of delivery and pictures appear here.
      </EmptyState>
    );
  } else if (!ready && documents.length === 0) {
    body = inbox.error ? (
      <EmptyState boxRef={emptyBox} title="Documents could not be loaded">
        Haulview tries again by itself every {config.refreshSeconds} s, or use Try again above.
      </EmptyState>
    ) : (
      <p role="status" className="p-4 text-sm text-ink-muted">
        Loading the documents of {plural(inbox.watched, 'watched load')}…
      </p>
    );
  } else if (documents.length === 0) {
    body = (
      <EmptyState boxRef={emptyBox} title="No documents yet">
        None of the {plural(inbox.watched, 'watched load')} has a document or picture. What drivers upload
        appears here within {config.refreshSeconds} s.
      </EmptyState>
    );
  } else if (ordered.length === 0 && filters.review === 'unreviewed' && inbox.unreviewed === 0) {
    body = (
      <EmptyState boxRef={emptyBox} title="All caught up">
        All {plural(documents.length, 'document')} of the watched loads are reviewed. New uploads appear here
        as they arrive.{' '}
        <button type="button" className={button} onClick={() => setFilters({ ...filters, review: 'all' })}>
          Show all documents
        </button>
      </EmptyState>
    );
  } else if (ordered.length === 0 && filters.review === 'reviewed' && counts.reviewed === 0 && !filtered) {
    body = (
      <EmptyState boxRef={emptyBox} title="Nothing reviewed yet">
        Documents you mark reviewed (r) are listed here, and can be made not reviewed again (u).{' '}
        <button type="button" className={button} onClick={() => setFilters(DEFAULT_FILTERS)}>
          Show documents to review
        </button>
      </EmptyState>
    );
  } else if (ordered.length === 0) {
    body = (
      <EmptyState boxRef={emptyBox} title="No documents match these filters">
        {filtered ? 'Other filters may show some. ' : ''}
        <button type="button" className={button} onClick={() => setFilters(DEFAULT_FILTERS)}>
          Clear filters
        </button>
      </EmptyState>
    );
  } else {
    const listName = `Documents, ${REVIEW_WORDS[filters.review]}${filtered ? ', filtered' : ''}`;
    const card = (d: InboxDocument) => {
      return (
        <li key={d.url}>
          <DocumentCard
            item={d}
            position={(positions.get(d.url) ?? 0) + 1}
            total={ordered.length}
            current={d === current}
            isNew={arrivals.has(d.url)}
            onOpen={onOpen}
            onToggleReviewed={onToggleReviewed}
            onFocusItem={setCurrentUrl}
          />
        </li>
      );
    };
    body = groups ? (
      <ul
        aria-label={`${listName}, by load: ${plural(ordered.length, 'document')} of ${plural(groups.length, 'load')}`}
        aria-describedby={helpId}
        className="space-y-4 p-4"
      >
        {groups.map((g) => (
          <LoadGroup
            key={g.load.key}
            label={g.load.label}
            mapHref={g.load.mapHref}
            count={g.documents.length}
          >
            {g.documents.map(card)}
          </LoadGroup>
        ))}
      </ul>
    ) : (
      <ul
        aria-label={`${listName}, newest first: ${plural(ordered.length, 'document')}`}
        aria-describedby={helpId}
        className="space-y-2 p-4"
      >
        {ordered.map(card)}
      </ul>
    );
  }

  const hasList = ordered.length > 0;
  return (
    <div className="flex h-full flex-col bg-panel-sunk">
      <div className="flex flex-wrap items-baseline gap-x-4 gap-y-1 border-b border-panel-line bg-panel px-4 py-2 text-sm">
        <h2 className="text-xl font-semibold">Documents</h2>
        <span>
          <strong>{inbox.unreviewed}</strong> not reviewed of {plural(documents.length, 'document')} from{' '}
          {plural(loadsWithDocuments, 'load')}
        </span>
        {inbox.notFound.length > 0 && (
          <span className="text-status-stale">{plural(inbox.notFound.length, 'watched load')} not found</span>
        )}
        <span aria-live="polite" className="text-blue-900">
          {arrivals.size > 0 ? `${plural(arrivals.size, 'new document')} since you opened this page` : ''}
        </span>
        <UpdatedAge
          className="ml-auto text-ink-muted"
          updatedAt={inbox.updatedAt}
          fetching={inbox.isFetching}
          refreshSeconds={config.refreshSeconds}
        />
        <button
          type="button"
          className={button}
          onClick={inbox.refetch}
          disabled={inbox.isFetching || inbox.watched === 0}
        >
          {inbox.isFetching ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      {inbox.error !== null && <ErrorBanner error={inbox.error} onRetry={inbox.refetch} />}
      {documents.length > 0 && (
        <InboxFiltersBar
          filters={filters}
          onChange={setFilters}
          options={options}
          counts={counts}
          grouped={grouped}
          onGroupedChange={setGrouped}
        />
      )}
      {documents.length > 0 && (
        <div
          role="group"
          aria-label="Review"
          className="flex flex-wrap items-center gap-2 border-b border-panel-line bg-panel px-4 py-2 text-sm"
        >
          <button
            type="button"
            className={button}
            onClick={() => go(index - 1, false)}
            disabled={!hasList || index === 0}
            aria-keyshortcuts="k ArrowUp"
          >
            ‹ Previous
          </button>
          <button
            type="button"
            className={button}
            onClick={() => go(index + 1, false)}
            disabled={!hasList || index >= ordered.length - 1}
            aria-keyshortcuts="j ArrowDown"
          >
            Next ›
          </button>
          <button
            type="button"
            className={button}
            onClick={() => openViewer()}
            disabled={!hasList}
            aria-keyshortcuts="Enter"
          >
            View
          </button>
          <button
            type="button"
            className={button}
            onClick={() => current && review(current.url, true)}
            disabled={!current || current.reviewed}
            aria-keyshortcuts="r"
          >
            Mark reviewed
          </button>
          <button
            type="button"
            className={button}
            onClick={undo}
            disabled={!current?.reviewed && undoable === null}
            aria-keyshortcuts="u"
          >
            Undo
          </button>
          <span className="text-ink-muted">
            {current ? `${index + 1} of ${ordered.length}: ${documentName(current)}` : 'Nothing selected'}
          </span>
          <span role="status" className="basis-full text-ink-muted sm:ml-auto sm:basis-auto">
            {message}
          </span>
          <p id={helpId} className="basis-full text-xs text-ink-muted">
            Keys in the list: j or ↓ next, k or ↑ previous, r mark reviewed, u undo, Enter view.
          </p>
        </div>
      )}
      <div ref={listBox} onKeyDown={onListKeyDown} className="min-h-0 flex-1 overflow-auto">
        {body}
      </div>
      {viewerOpen && current && (
        <DocumentViewer
          documents={orderedDocs}
          index={index}
          onIndexChange={(i) => go(i, false)}
          onClose={() => {
            setViewerOpen(false);
            if (viewerFromList.current) focusPending.current = true;
          }}
          caption={(doc) => {
            const item = byDoc.get(doc);
            return item ? `Load ${item.load.label}` : undefined;
          }}
          actions={(doc) => {
            const item = byDoc.get(doc);
            if (!item) return null;
            return (
              <button
                type="button"
                className={button}
                aria-keyshortcuts={item.reviewed ? 'u' : 'r'}
                onClick={() => (item.reviewed ? toggle(item.url) : review(item.url, true))}
              >
                {item.reviewed ? 'Mark not reviewed' : 'Mark reviewed'}
              </button>
            );
          }}
          onShortcut={(key) => {
            if (key === 'r') {
              if (current) review(current.url, true);
            } else if (key === 'u') undo();
            else if (key === 'j') go(index + 1, false);
            else if (key === 'k') go(index - 1, false);
            else return false;
            return true;
          }}
        />
      )}
    </div>
  );
}

function EmptyState({
  boxRef,
  title,
  children,
}: {
  boxRef: Ref<HTMLDivElement>;
  title: string;
  children: ReactNode;
}) {
  return (
    <div
      ref={boxRef}
      tabIndex={-1}
      className="m-4 max-w-xl rounded border border-panel-line bg-panel p-4 focus:outline-none"
    >
      <h3 className="text-base font-semibold">{title}</h3>
      <p className="mt-1 text-sm">{children}</p>
    </div>
  );
}

function LoadGroup({
  label,
  mapHref,
  count,
  children,
}: {
  label: string;
  mapHref: string;
  count: number;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <li>
      <div className="mb-2 flex items-baseline gap-2">
        <h3 id={headingId} className="text-base font-semibold">
          Load {label}{' '}
          <span className="text-sm font-normal text-ink-muted">({plural(count, 'document')})</span>
        </h3>
        <Link href={mapHref} className="text-sm text-status-selected underline">
          Show load {label} on the map
        </Link>
      </div>
      <ul aria-labelledby={headingId} className="space-y-2">
        {children}
      </ul>
    </li>
  );
}
