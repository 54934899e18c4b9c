import type { ReactNode, Ref } from 'react';
import { Link } from 'wouter';
import { DEFAULT_FILTERS, type InboxFilters } from './inbox-model';
import { INBOX_BUTTON, plural } from './inbox-text';

export interface InboxEmptyStateProps {
  /** How many loads are watched, and how many documents they have, read or not. */
  watched: number;
  /** How many watched loads the proxy has not had a first answer about yet. */
  waiting: number;
  documents: number;
  unreviewed: number;
  /** How many documents the filters leave. */
  shown: number;
  /** Whether the documents were read once; whether the last read failed. */
  ready: boolean;
  failed: boolean;
  filters: InboxFilters;
  /** Whether a filter other than the review filter is set. */
  filtered: boolean;
  refreshSeconds: number;
  /** The box that takes focus when the list empties under the keyboard. */
  boxRef: Ref<HTMLDivElement>;
  onFiltersChange: (filters: InboxFilters) => void;
  /** The list, shown when there is one. */
  children: ReactNode;
}

/** The inbox's list (`children`), or in its place why it is empty and what to do. */
export function InboxEmptyState(p: InboxEmptyStateProps) {
  const { filters, boxRef, onFiltersChange } = p;
  if (p.watched === 0)
    return (
      <EmptyState boxRef={boxRef} title="No loads watched">
        The inbox lists the documents of the loads you watch.{' '}
        <Link href="/" className="text-status-selected underline">
          Add loads on the map page
        </Link>{' '}
        and their bills of lading, proofs of delivery and pictures appear here.
      </EmptyState>
    );
  if (!p.ready && p.documents === 0)
    return p.failed ? (
      <EmptyState boxRef={boxRef} title="Documents could not be loaded">
        Haulview tries again by itself every {p.refreshSeconds} s, or use Try again above.
      </EmptyState>
    ) : (
      <p role="status" className="p-4 text-sm text-ink-muted">
        Loading the documents of {plural(p.watched, 'watched load')}…
      </p>
    );
  if (p.documents === 0 && p.waiting > 0)
    return (
      <EmptyState boxRef={boxRef} title="No documents yet">
        Waiting for the first answer about {plural(p.waiting, 'watched load')}: their documents and pictures
        appear here as soon as it comes.
      </EmptyState>
    );
  if (p.documents === 0)
    return (
      <EmptyState boxRef={boxRef} title="No documents yet">
        None of the {plural(p.watched, 'watched load')} has a document or picture. What drivers upload appears
        here within {p.refreshSeconds} s.
      </EmptyState>
    );
  if (p.shown > 0) return p.children;
  if (filters.review === 'unreviewed' && p.unreviewed === 0)
    return (
      <EmptyState boxRef={boxRef} title="All caught up">
        All {plural(p.documents, 'document')} of the watched loads are reviewed. New uploads appear here as
        they arrive.{' '}
        <button
          type="button"
          className={INBOX_BUTTON}
          onClick={() => onFiltersChange({ ...filters, review: 'all' })}
        >
          Show all documents
        </button>
      </EmptyState>
    );
  if (filters.review === 'reviewed' && p.documents - p.unreviewed === 0 && !p.filtered)
    return (
      <EmptyState boxRef={boxRef} title="Nothing reviewed yet">
        Documents you approve (a) or reject (x, then the reason) are listed here; u puts the last one back to
        review.{' '}
        <button type="button" className={INBOX_BUTTON} onClick={() => onFiltersChange(DEFAULT_FILTERS)}>
          Show documents to review
        </button>
      </EmptyState>
    );
  return (
    <EmptyState boxRef={boxRef} title="No documents match these filters">
      {p.filtered ? 'Other filters may show some. ' : ''}
      <button type="button" className={INBOX_BUTTON} onClick={() => onFiltersChange(DEFAULT_FILTERS)}>
        Clear filters
      </button>
    </EmptyState>
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
