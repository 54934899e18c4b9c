import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { VirtualItems } from '../../components/virtual-items';
import { memo, useCallback, useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import type { PodCheck } from '@/contract/billing-api';
import { Link } from 'wouter';
import { DocumentCard, type ReviewAction } from './document-card';
import type { DocumentGroup, InboxDocument, ReviewFilter } from './inbox-model';
import { plural, REVIEW_WORDS } from './inbox-text';

export interface DocumentListProps {
  /** The documents in the order shown; `groups` when they are grouped by load. */
  ordered: readonly InboxDocument[];
  groups: readonly DocumentGroup[] | null;
  current: InboxDocument | undefined;
  /** The current document's place in `ordered`, 0-based. */
  currentIndex: number;
  /** The PODs' and BOLs' checks against their stops, by URL. */
  checks: ReadonlyMap<string, PodCheck>;
  /** The URLs of the documents that came since the page opened. */
  arrivals: ReadonlySet<string>;
  review: ReviewFilter;
  filtered: boolean;
  /** The id of the text that tells the list's keys. */
  helpId: string;
  me: string | undefined;
  onOpen: (url: string) => void;
  onDecide: (url: string, action: ReviewAction) => void;
  onFocusItem: (url: string) => void;
}

/** A row's height before it is measured: one line of text, one of stop and time, no flags. */
const ROW_ESTIMATE = 53;

/**
 * The inbox's documents as dense rows, newest first or grouped by load, named for screen readers.
 * Memoized: a key that changes only the preview leaves the rows alone.
 */
export const DocumentList = memo(function DocumentList({
  ordered,
  groups,
  current,
  currentIndex,
  checks,
  arrivals,
  review,
  filtered,
  helpId,
  me,
  onOpen,
  onDecide,
  onFocusItem,
}: DocumentListProps) {
  const listName = `Documents, ${REVIEW_WORDS[review]}${filtered ? ', filtered' : ''}`;
  // Only the current row is told its place and the list's length: an approval that takes a document
  // out of the list then re-renders that row alone, not every row after it.
  const card = (d: InboxDocument) => {
    const isCurrent = d === current;
    return (
      <DocumentCard
        item={d}
        check={checks.get(d.url)}
        position={isCurrent ? currentIndex + 1 : undefined}
        total={isCurrent ? ordered.length : undefined}
        current={isCurrent}
        isNew={arrivals.has(d.url)}
        me={me}
        onOpen={onOpen}
        onDecide={onDecide}
        onFocusItem={onFocusItem}
      />
    );
  };
  if (groups)
    return (
      <ul
        aria-label={`${listName}, by load: ${plural(ordered.length, 'document')} of ${plural(groups.length, 'load')}`}
        aria-describedby={helpId}
        className="space-y-3 py-2"
      >
        {groups.map((g) => (
          <LoadGroup
            key={g.load.key}
            label={g.load.label}
            mapHref={g.load.mapHref}
            count={g.documents.length}
          >
            {g.documents.map((d) => (
              // Rows off screen skip style, layout and paint (still in the DOM and the accessibility tree).
              <li key={d.url} className="[contain-intrinsic-size:auto_3rem] [content-visibility:auto]">
                {card(d)}
              </li>
            ))}
          </LoadGroup>
        ))}
      </ul>
    );
  return (
    <VirtualRows
      label={`${listName}, newest first: ${plural(ordered.length, 'document')}`}
      helpId={helpId}
      ordered={ordered}
      currentIndex={current ? currentIndex : -1}
      card={card}
    />
  );
});

/**
 * The flat list, virtualized: a key re-renders the few rows on screen, not a thousand. The current
 * row is always rendered, wherever the list is scrolled, so focus resting on it is never lost; each
 * row tells its place (`aria-posinset` of `aria-setsize`), as the rows off screen are not there.
 */
function VirtualRows({
  label,
  helpId,
  ordered,
  currentIndex,
  card,
}: {
  label: string;
  helpId: string;
  ordered: readonly InboxDocument[];
  currentIndex: number;
  card: (d: InboxDocument) => ReactNode;
}) {
  const listRef = useRef<HTMLUListElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler here; the virtualizer is used as documented
  const virtualizer = useVirtualizer({
    count: ordered.length,
    // The box that scrolls the list (marked `data-inbox-scroll`), found from the list itself: a ref
    // from the page is set only after this list's first layout effects when both mount together.
    getScrollElement: () => listRef.current?.closest<HTMLElement>('[data-inbox-scroll]') ?? null,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 6,
    // Measured sizes are kept by document, so a document leaving the list moves the others' sizes along.
    getItemKey: useCallback((i: number) => ordered[i]?.url ?? i, [ordered]),
    rangeExtractor: useCallback(
      (range: Range) => {
        const shown = defaultRangeExtractor(range);
        if (currentIndex < 0 || shown.includes(currentIndex)) return shown;
        return [...shown, currentIndex].sort((a, b) => a - b);
      },
      [currentIndex],
    ),
  });
  // The current document is scrolled into view when a key, a toolbar button or the viewer moves it.
  useLayoutEffect(() => {
    if (currentIndex >= 0) virtualizer.scrollToIndex(currentIndex, { align: 'auto' });
  }, [currentIndex, virtualizer]);

  return (
    <ul
      ref={listRef}
      aria-label={label}
      aria-describedby={helpId}
      className="relative w-full"
      style={{ height: virtualizer.getTotalSize() }}
    >
      <VirtualItems
        virtualizer={virtualizer}
        items={ordered}
        className="border-b border-panel-line"
        row={(d) => card(d)}
      />
    </ul>
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
      <div className="mb-1 flex items-baseline gap-2 px-2">
        <h3 id={headingId} className="text-base font-semibold">
          Load {label}{' '}
          <span className="text-sm font-normal text-ink-muted">({plural(count, 'document')})</span>
        </h3>
        <Link href={mapHref} className="text-sm text-status-selected underline">
          Show load {label} on the map
        </Link>
      </div>
      <ul aria-labelledby={headingId} className="divide-y divide-panel-line border-y border-panel-line">
        {children}
      </ul>
    </li>
  );
}
