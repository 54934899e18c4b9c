import type { RefObject } from 'react';
import { REJECT_REASONS, REVIEW_NOTE_MAX_LENGTH, type RejectReason } from '@/contract/review-api';
import { REASON_WORDS } from '../../components/review-text';
import { INBOX_BUTTON } from './inbox-text';

export interface RejectReasonsProps {
  /** The document being rejected, named: "POD of load 700100". */
  name: string;
  note: string;
  onNote: (note: string) => void;
  onReason: (reason: RejectReason) => void;
  onCancel: () => void;
  noteRef?: RefObject<HTMLInputElement | null>;
}

/**
 * The second step of a rejection: the reason, each with its number key (1–7), and an optional note.
 * The keys work from the list; the buttons and the note field for a pointer or Tab.
 */
export function RejectReasons({ name, note, onNote, onReason, onCancel, noteRef }: RejectReasonsProps) {
  return (
    <div
      role="group"
      aria-label={`Reject ${name}: why?`}
      className="flex basis-full flex-wrap items-center gap-1 rounded border border-red-300 bg-red-50 p-2 text-sm"
    >
      <span className="mr-1 font-semibold text-red-950">Reject {name}: why?</span>
      {REJECT_REASONS.map((reason, i) => (
        <button
          key={reason}
          type="button"
          className={INBOX_BUTTON}
          aria-keyshortcuts={String(i + 1)}
          onClick={() => onReason(reason)}
        >
          <kbd className="mr-1 font-mono text-xs text-ink-muted">{i + 1}</kbd>
          {REASON_WORDS[reason]}
        </button>
      ))}
      <label className="flex min-w-48 flex-1 items-center gap-1">
        <span className="text-xs text-ink-muted">Note (optional, n)</span>
        <input
          ref={noteRef}
          type="text"
          value={note}
          maxLength={REVIEW_NOTE_MAX_LENGTH}
          onChange={(e) => onNote(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') onCancel();
          }}
          className="min-w-0 flex-1 rounded border border-panel-line bg-panel px-1 py-0.5"
        />
      </label>
      <button type="button" className={INBOX_BUTTON} aria-keyshortcuts="Escape" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
