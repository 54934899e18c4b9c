import type { ReactNode } from 'react';
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
  /** The reasons to pick from, while a rejection waits for one. */
  reasons: ReactNode;
  onGo: (index: number) => void;
  onView: () => void;
  onApprove: (url: string) => void;
  onReject: (url: string) => void;
  onUndo: () => void;
}

/** The keys of the list, shown as a legend. */
const KEYS: [string, string][] = [
  ['a', 'approve'],
  ['x', 'reject, then 1–7 the reason'],
  ['u', 'undo'],
  ['j / ↓', 'next'],
  ['k / ↑', 'previous'],
  ['Enter', 'view'],
];

/** The buttons that step through the inbox and decide its documents, each with its key. */
export function ReviewToolbar({
  current,
  index,
  total,
  canUndo,
  message,
  helpId,
  reasons,
  onGo,
  onView,
  onApprove,
  onReject,
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
        onClick={() => current && onApprove(current.url)}
        disabled={!current || current.review?.decision === 'approved'}
        aria-keyshortcuts="a"
      >
        Approve
      </button>
      <button
        type="button"
        className={INBOX_BUTTON}
        onClick={() => current && onReject(current.url)}
        disabled={!current}
        aria-keyshortcuts="x"
      >
        Reject…
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
      {reasons}
      <p id={helpId} className="flex basis-full flex-wrap gap-x-3 text-xs text-ink-muted">
        <span>Keys in the list:</span>
        {KEYS.map(([key, what]) => (
          <span key={key}>
            <kbd className="rounded border border-panel-line bg-panel-sunk px-1 font-mono">{key}</kbd> {what}
          </span>
        ))}
      </p>
    </div>
  );
}
