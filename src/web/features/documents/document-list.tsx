import { memo, useId, type ReactNode } from 'react';
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
      // Rows off screen skip style, layout and paint (still in the DOM and the accessibility tree):
      // a row leaving the list moves every row after it, which must not cost all of them a repaint.
      <li key={d.url} className="[contain-intrinsic-size:auto_3rem] [content-visibility:auto]">
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
      </li>
    );
  };
  return groups ? (
    <ul
      aria-label={`${listName}, by load: ${plural(ordered.length, 'document')} of ${plural(groups.length, 'load')}`}
      aria-describedby={helpId}
      className="space-y-3 py-2"
    >
      {groups.map((g) => (
        <LoadGroup key={g.load.key} label={g.load.label} mapHref={g.load.mapHref} count={g.documents.length}>
          {g.documents.map(card)}
        </LoadGroup>
      ))}
    </ul>
  ) : (
    <ul
      aria-label={`${listName}, newest first: ${plural(ordered.length, 'document')}`}
      aria-describedby={helpId}
      className="divide-y divide-panel-line"
    >
      {ordered.map(card)}
    </ul>
  );
});

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
