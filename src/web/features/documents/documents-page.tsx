import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react';
import { preload } from 'react-dom';
import type { ClientConfig } from '@/contract/proxy-api';
import type { DocumentReview, RejectReason, ReviewDecision } from '@/contract/review-api';
import type { Document } from '@/domain/model';
import { DocumentViewer, isPictureDocument, safeHttpUrl } from '../../components/document-viewer';
import { reasonInline, reasonOfKey } from '../../components/review-text';
import { ErrorBanner } from '../../components/error-banner';
import { ApiError } from '../../data/api-client';
import { may, useSessionUser } from '../../data/session-queries';
import { typing } from '../../lib/typing';
import { formatLoadParam, loadTitle } from '../../lib/load-ref';
import { useDemoFleetOnFirstVisit, useWatchList, useWatchListInUrl } from '../../lib/watch-list';
import { documentName, type ReviewAction } from './document-card';
import { DocumentList } from './document-list';
import { InboxEmptyState } from './inbox-empty-state';
import { InboxFiltersBar } from './inbox-filters-bar';
import { InboxHeader } from './inbox-header';
import { filterDocuments, filterOptions, flaggedFirst, groupByLoad, type InboxDocument } from './inbox-model';
import { INBOX_BUTTON } from './inbox-text';
import { ReviewToolbar } from './review-toolbar';
import { BrowserReviewsImport } from './browser-reviews-import';
import { saveFailure, useDecideReview } from '../../data/review-queries';
import { RejectReasons } from './reject-reasons';
import { useArrivals } from './use-arrivals';
import { useDocumentsInbox } from './use-documents-inbox';
import { useInboxFilters } from './use-inbox-filters';
import { usePodChecks } from './use-pod-checks';
import { DocumentPreview } from './document-preview';

export interface DocumentsPageProps {
  config: ClientConfig;
}

/**
 * `/documents`: the brokers' inbox. Every document and picture drivers uploaded to the watched loads,
 * newest first, in one queue: filter it, step through it with j / k or the arrows, approve (a) or
 * reject (x, then the reason's number) each, undo (u), open it in the viewer (Enter). Reviews are
 * the team's, kept on the server by document URL (pending again on undo), so a document that
 * arrives later comes in at the top, not reviewed, and a colleague's decisions show at the next
 * refresh, with a word on the documents where one replaced this user's.
 */
export function DocumentsPage({ config }: DocumentsPageProps) {
  useDemoFleetOnFirstVisit(config.demo);
  useWatchListInUrl(useWatchList());
  const inbox = useDocumentsInbox(config);
  const { filters, setFilters, grouped, setGrouped, flagged, setFlagged } = useInboxFilters();
  const [currentUrl, setCurrentUrl] = useState<string | null>(null);
  const [viewerOpen, setViewerOpen] = useState(false);
  const [message, setMessage] = useState('');
  /** Why the last decision could not be saved, or null. */
  const [saveError, setSaveError] = useState<string | null>(null);
  const me = useSessionUser()?.name;
  const decideReview = useDecideReview(me ?? 'you');
  /** The document whose rejection waits for its reason (the key after x), and its note. */
  const [rejecting, setRejecting] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const noteField = useRef<HTMLInputElement>(null);
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

  const podChecks = usePodChecks(config, ready);
  const { checks } = podChecks;
  const mayCheck = may(useSessionUser(), 'bill');
  const visible = useMemo(() => {
    const shown = filterDocuments(documents, filters);
    return flagged && mayCheck ? flaggedFirst(shown, checks) : shown;
  }, [documents, filters, flagged, mayCheck, checks]);
  const groups = useMemo(() => (grouped ? groupByLoad(visible) : null), [grouped, visible]);
  // The order shown, which j / k and the viewer follow.
  const ordered = useMemo(() => (groups ? groups.flatMap((g) => g.documents) : visible), [groups, visible]);
  const orderedDocs = useMemo(() => ordered.map((d) => d.doc), [ordered]);
  // Only the viewer looks documents up by their `Document`: not built at every key while it is closed.
  const byDoc = useMemo(
    () => (viewerOpen ? new Map<Document, InboxDocument>(ordered.map((d) => [d.doc, d])) : undefined),
    [ordered, viewerOpen],
  );
  // From the documents as collected, not as reviewed: a decision does not sort the options again.
  const { collected } = inbox;
  const options = useMemo(() => filterOptions(collected, filters.load), [collected, filters.load]);
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
  const rejected = rejecting === null ? undefined : ordered.find((d) => d.url === rejecting);

  // The next picture is fetched before it is needed: the key that moves on shows it at once.
  const upcoming = ordered[index + 1]?.doc;
  const upcomingUrl = upcoming && isPictureDocument(upcoming) ? safeHttpUrl(upcoming.url) : undefined;
  if (upcomingUrl) preload(upcomingUrl, { as: 'image', referrerPolicy: 'no-referrer' });

  // The viewer closes when nothing is left to show (the last document reviewed, say).
  if (viewerOpen && ordered.length === 0) setViewerOpen(false);

  useEffect(() => {
    if (!focusPending.current || viewerOpen) return;
    // By address, not by place: the flat list renders only the rows near the view (and the current one).
    const items = listBox.current?.querySelectorAll<HTMLElement>('[data-document-item]') ?? [];
    const row = current && [...items].find((item) => item.dataset.url === current.url);
    const target = row ?? (ordered.length === 0 ? emptyBox.current : null);
    if (!target) return;
    focusPending.current = false;
    target.focus();
  });

  const focusInList = () => listBox.current?.contains(document.activeElement) ?? false;

  /** Makes document `i` of the list shown current; `focus` moves keyboard focus to it too. */
  function go(i: number, focus: boolean) {
    const target = ordered[Math.max(0, Math.min(ordered.length - 1, i))];
    if (!target) return;
    setCurrentUrl(target.url);
    if (focus) focusPending.current = true;
  }

  /** Stores a decision; says so when it replaced another user's, or could not be saved. */
  function decide(item: InboxDocument, decision: ReviewDecision, reason?: RejectReason, withNote?: string) {
    decideReview({
      load: formatLoadParam(item.load),
      url: item.url,
      decision,
      ...(reason ? { reason } : {}),
      ...(withNote ? { note: withNote } : {}),
    }).then(
      ({ replaced }) => {
        setSaveError(null);
        if (replaced && replaced.decision !== 'pending')
          setMessage(`${documentName(item)}: you replaced ${replacedWords(replaced)}.`);
      },
      (error: unknown) => {
        const why = saveFailure(error);
        // Only a passing failure is worth a retry: a role taken away is not.
        const next =
          error instanceof ApiError && error.code === 'forbidden_role'
            ? 'Reload the page to see what your role may do.'
            : 'Try again in a moment.';
        setSaveError(`The review of ${documentName(item)} was not saved: ${why}. ${next}`);
        setMessage(`Not saved: ${documentName(item)} is as it was.`);
      },
    );
  }

  /**
   * Approves a document, or rejects it for a reason (with the note written, if any). `advance` (the
   * keys, the toolbar) goes on to the next document; a document the filter now hides gives its
   * place to the next one anyway.
   */
  function settle(url: string, decision: 'approved' | 'rejected', advance: boolean, reason?: RejectReason) {
    const i = ordered.findIndex((d) => d.url === url);
    const item = ordered[i];
    setRejecting(null);
    setNote('');
    if (!item) return;
    const hides = filters.review === 'unreviewed';
    const was = item.review;
    const same = was?.decision === decision && (was.reason ?? undefined) === reason && note.trim() === '';
    if (!same) {
      decide(item, decision, reason, note.trim() || undefined);
      setUndoStack((s) => [...s.filter((u) => u !== url), url]);
      const left = inbox.unreviewed - (item.reviewed ? 0 : 1);
      const what = decision === 'approved' ? 'Approved' : `Rejected (${reasonInline(reason ?? 'other')})`;
      setMessage(
        `${what}: ${documentName(item)}. ${left === 0 ? 'Nothing left to review.' : `${left} not reviewed left.`}`,
      );
    }
    const next =
      hides && !item.reviewed ? (ordered[i + 1] ?? ordered[i - 1]) : advance ? ordered[i + 1] : item;
    if (next || hides) setCurrentUrl(next?.url ?? null);
    // Back to the list after a reason picked there or from the reasons' buttons.
    if (focusInList() || (rejecting !== null && !viewerOpen)) focusPending.current = true;
  }

  /** The first step of a rejection: the reasons are offered, the next key (1–7) picks one. */
  function startReject(url: string) {
    setCurrentUrl(url);
    setRejecting(url);
    const item = ordered.find((d) => d.url === url);
    if (item) setMessage(`Reject ${documentName(item)}: press 1 to 7 for the reason, Escape to cancel.`);
  }

  function cancelReject() {
    setRejecting(null);
    setNote('');
    setMessage('Not rejected.');
    if (!viewerOpen) focusPending.current = true;
  }

  /** Makes a document not reviewed again. */
  function unreview(item: InboxDocument, announce: string) {
    decide(item, 'pending');
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

  function act(url: string, action: ReviewAction) {
    const item = ordered.find((d) => d.url === url);
    if (!item) return;
    if (action === 'approve') settle(url, 'approved', false);
    else if (action === 'reject') startReject(url);
    else if (item.reviewed) {
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
  const latest = useRef({ openViewer, act });
  useLayoutEffect(() => {
    latest.current = { openViewer, act };
  });
  const onOpen = useCallback((url: string) => latest.current.openViewer(url), []);
  const onDecide = useCallback((url: string, action: ReviewAction) => latest.current.act(url, action), []);

  /** The keys of a decision, in the list and in the viewer alike; false for another key. */
  function decisionKey(key: string): boolean {
    const reason = reasonOfKey(key);
    if (rejecting !== null && reason) settle(rejecting, 'rejected', true, reason);
    else if (rejecting !== null && key === 'Escape') cancelReject();
    else if (rejecting !== null && key === 'n') noteField.current?.focus();
    else if (key === 'a') {
      if (current) settle(current.url, 'approved', true);
    } else if (key === 'x') {
      if (current) startReject(current.url);
    } else if (key === 'u') undo();
    else return false;
    return true;
  }

  function onListKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented || typing(event.target))
      return;
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
      case 'Enter':
        // Enter on a button or link inside a document is that control's.
        if (!onItem) return;
        openViewer();
        break;
      default:
        if (!decisionKey(event.key)) return;
    }
    event.preventDefault();
  }

  const filtered =
    filters.type !== undefined ||
    filters.load !== undefined ||
    filters.stop !== undefined ||
    filters.from !== '' ||
    filters.to !== '';

  return (
    <div className="flex h-full flex-col bg-panel-sunk">
      <InboxHeader
        documents={documents}
        unreviewed={inbox.unreviewed}
        watched={inbox.watched}
        notFound={inbox.notFound.length}
        waiting={inbox.waiting}
        arrived={arrivals.size}
        updatedAt={inbox.updatedAt}
        fetching={inbox.isFetching}
        refreshSeconds={config.refreshSeconds}
        onRefresh={() => {
          inbox.refetch();
          podChecks.refetch();
        }}
      />
      {inbox.error !== null && <ErrorBanner error={inbox.error} onRetry={inbox.refetch} />}
      {(inbox.reviewsError !== null || saveError !== null) && (
        <div role="alert" className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-950">
          {inbox.reviewsError !== null && (
            <p>
              {reviewsErrorWords(inbox.reviewsError)} The documents are still listed; reviews show again once
              it answers.{' '}
              <button type="button" className="underline" onClick={inbox.refetch}>
                Try again
              </button>
            </p>
          )}
          {saveError !== null && <p>{saveError}</p>}
        </div>
      )}
      {ready && <BrowserReviewsImport documents={documents} decide={decideReview} />}
      {documents.length > 0 && (
        <InboxFiltersBar
          filters={filters}
          onChange={setFilters}
          options={options}
          counts={counts}
          grouped={grouped}
          onGroupedChange={setGrouped}
          flagged={mayCheck ? flagged : undefined}
          onFlaggedChange={setFlagged}
        />
      )}
      {documents.length > 0 && (
        <ReviewToolbar
          current={current}
          index={index}
          total={ordered.length}
          canUndo={undoable !== null}
          message={message}
          helpId={helpId}
          reasons={
            rejected &&
            !viewerOpen && (
              <RejectReasons
                name={documentName(rejected)}
                note={note}
                onNote={setNote}
                onReason={(reason) => settle(rejected.url, 'rejected', true, reason)}
                onCancel={cancelReject}
                noteRef={noteField}
              />
            )
          }
          onGo={(i) => go(i, false)}
          onView={() => openViewer()}
          onApprove={(url) => settle(url, 'approved', true)}
          onReject={startReject}
          onUndo={undo}
        />
      )}
      <div className="flex min-h-0 flex-1">
        <div
          ref={listBox}
          data-inbox-scroll
          onKeyDown={onListKeyDown}
          className="min-w-0 flex-1 overflow-auto"
        >
          <InboxEmptyState
            watched={inbox.watched}
            waiting={inbox.waiting}
            documents={documents.length}
            unreviewed={inbox.unreviewed}
            shown={ordered.length}
            ready={ready}
            failed={Boolean(inbox.error)}
            filters={filters}
            filtered={filtered}
            refreshSeconds={config.refreshSeconds}
            boxRef={emptyBox}
            onFiltersChange={setFilters}
          >
            <DocumentList
              ordered={ordered}
              groups={groups}
              current={current}
              currentIndex={index}
              checks={checks}
              arrivals={arrivals}
              review={filters.review}
              filtered={filtered}
              helpId={helpId}
              me={me}
              onOpen={onOpen}
              onDecide={onDecide}
              onFocusItem={setCurrentUrl}
            />
          </InboxEmptyState>
        </div>
        {ordered.length > 0 && (
          <DocumentPreview
            item={current}
            check={current && checks.get(current.url)}
            me={me}
            onOpen={onOpen}
            onDecide={onDecide}
          />
        )}
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
            const item = byDoc?.get(doc);
            return item ? loadTitle(item.load.label) : undefined;
          }}
          actions={(doc) => {
            const item = byDoc?.get(doc);
            if (!item) return null;
            if (rejected === item)
              return (
                <RejectReasons
                  name={documentName(item)}
                  note={note}
                  onNote={setNote}
                  onReason={(reason) => settle(item.url, 'rejected', true, reason)}
                  onCancel={cancelReject}
                  noteRef={noteField}
                />
              );
            return item.reviewed ? (
              <button
                type="button"
                className={INBOX_BUTTON}
                aria-keyshortcuts="u"
                onClick={() => act(item.url, 'undo')}
              >
                Undo: back to review
              </button>
            ) : (
              <>
                <button
                  type="button"
                  className={INBOX_BUTTON}
                  aria-keyshortcuts="a"
                  onClick={() => settle(item.url, 'approved', true)}
                >
                  Approve
                </button>
                <button
                  type="button"
                  className={INBOX_BUTTON}
                  aria-keyshortcuts="x"
                  onClick={() => startReject(item.url)}
                >
                  Reject…
                </button>
              </>
            );
          }}
          onShortcut={(key) => {
            if (key === 'j') go(index + 1, false);
            else if (key === 'k') go(index - 1, false);
            else return decisionKey(key);
            return true;
          }}
        />
      )}
    </div>
  );
}

/** "Ana's approval", "Bo's rejection (blurry)": the decision a new one replaced. */
function replacedWords(review: DocumentReview): string {
  const what = review.decision === 'approved' ? 'approval' : 'rejection';
  const why = review.reason ? ` (${review.reason.replaceAll('_', ' ')})` : '';
  return `${review.decidedBy}’s ${what}${why}`;
}

function reviewsErrorWords(error: unknown): string {
  if (error instanceof ApiError && error.code === 'store_unavailable')
    return 'Reviews cannot be read or saved now: Haulview’s store does not answer.';
  if (error instanceof ApiError && error.code === 'network')
    return 'Reviews cannot be read now: Haulview’s server cannot be reached.';
  return `Reviews cannot be read now${error instanceof Error ? ` (${error.message})` : ''}.`;
}
