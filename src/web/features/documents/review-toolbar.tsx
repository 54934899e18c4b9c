import type { InboxDocument } from './inbox-model';
import { documentName } from './document-card';
import { INBOX_BUTTON } from './inbox-text';

export interface ReviewToolbarProps {
  /** The current document, its place in the list shown and the list's length. */
  current: InboxDocument | undefined;
  index: number;
  total: number;
  /** Whether `u` has a review to undo beyond the current document. */
  canUndo: boolean;
  /** What the last action did, said to screen readers. */
  message: string;
  /** The id of the text that tells the list's keys. */
  helpId: string;
  onGo: (index: number) => void;
  onView: () => void;
  onReview: (url: string) => void;
  onUndo: () => void;
}

/** The buttons that step through the inbox and review its documents, each with its key. */
export function ReviewToolbar({
  current,
  index,
  total,
  canUndo,
  message,
  helpId,
  onGo,
  onView,
  onReview,
  onUndo,
}: ReviewToolbarProps) {
  const hasList = total > 0;
  return (
    <div
      role="group"
      aria-label="Review"
      className="flex flex-wrap items-center gap-2 border-b border-panel-line bg-panel px-4 py-2 text-sm"
    >
      <button
        type="button"
        className={INBOX_BUTTON}
        onClick={() => onGo(index - 1)}
        disabled={!hasList || index === 0}
        aria-keyshortcuts="k ArrowUp"
      >
        ‹ Previous
      </button>
      <button
        type="button"
        className={INBOX_BUTTON}
        onClick={() => onGo(index + 1)}
        disabled={!hasList || index >= total - 1}
        aria-keyshortcuts="j ArrowDown"
      >
        Next ›
      </button>
      <button
        type="button"
        className={INBOX_BUTTON}
        onClick={() => onView()}
        disabled={!hasList}
        aria-keyshortcuts="Enter"
      >
        View
      </button>
      <button
        type="button"
        className={INBOX_BUTTON}
        onClick={() => current && onReview(current.url)}
        disabled={!current || current.reviewed}
        aria-keyshortcuts="r"
      >
        Mark reviewed
      </button>
      <button
        type="button"
        className={INBOX_BUTTON}
        onClick={() => onUndo()}
        disabled={!current?.reviewed && !canUndo}
        aria-keyshortcuts="u"
      >
        Undo
      </button>
      <span className="text-ink-muted">
        {current ? `${index + 1} of ${total}: ${documentName(current)}` : 'Nothing selected'}
      </span>
      <span role="status" className="basis-full text-ink-muted sm:ml-auto sm:basis-auto">
        {message}
      </span>
      <p id={helpId} className="basis-full text-xs text-ink-muted">
        Keys in the list: j or ↓ next, k or ↑ previous, r mark reviewed, u undo, Enter view.
      </p>
    </div>
  );
}
