import type { Comment, Position } from '@/domain/model';
import { ItemTimeText } from '../../components/item-time';
import { commentAuthor, placeText } from './timeline-items';

/** The most comments drawn at once: the latest; all of them are in the timeline. */
const MAX_SHOWN = 500;

export interface CommentsProps {
  /** Oldest first, as the domain keeps them: a conversation reads downwards. */
  comments: readonly Comment[];
  fresh: ReadonlySet<string>;
  onPanTo?: (p: Position) => void;
}

/**
 * The conversation between driver and broker: the driver's messages on the left marked D, the
 * broker's on the right marked B, each also named in words. Text is shown as text, never as markup.
 */
export function CommentsThread({ comments, fresh, onPanTo }: CommentsProps) {
  if (comments.length === 0) return <p className="text-sm text-ink-muted">No comments yet.</p>;
  const shown = comments.slice(-MAX_SHOWN);
  return (
    <>
      {comments.length > shown.length && (
        <p className="text-xs text-ink-muted">
          The latest {shown.length} of {comments.length} comments; the timeline has all of them.
        </p>
      )}
      <ol aria-label="Conversation" className="max-h-96 space-y-2 overflow-auto p-1">
        {shown.map((c) => {
          const broker = c.by === 'broker';
          const isNew = fresh.has(`comment:${c.key}`);
          const place = placeText(c.place);
          const position = c.position;
          const letter = c.by === 'driver' ? 'D' : c.by === 'broker' ? 'B' : '?';
          return (
            <li
              key={c.key}
              data-new={isNew || undefined}
              className={`flex gap-2 ${broker ? 'flex-row-reverse text-right' : ''}`}
            >
              <span
                aria-hidden="true"
                className={`flex h-7 w-7 shrink-0 items-center justify-center rounded-full text-xs font-bold ${
                  broker
                    ? 'bg-status-selected text-white'
                    : c.by === 'driver'
                      ? 'bg-status-fresh text-white'
                      : 'bg-panel-sunk'
                }`}
              >
                {letter}
              </span>
              <div
                className={`max-w-[85%] rounded-lg border px-3 py-1.5 text-left text-sm ${
                  broker ? 'border-blue-200 bg-blue-50' : 'border-green-200 bg-green-50'
                } ${isNew ? 'ring-2 ring-amber-400' : ''}`}
              >
                <p className="text-xs font-semibold">
                  {commentAuthor(c.by)}
                  {c.by === 'driver' && c.driver?.name ? ` · ${c.driver.name}` : ''}
                  {isNew && <span className="ml-2 rounded bg-amber-200 px-1 text-amber-900">New</span>}
                </p>
                <p className="break-words whitespace-pre-wrap">
                  {c.text ?? <em className="text-ink-muted">empty comment</em>}
                </p>
                <p className="mt-0.5 text-xs text-ink-muted">
                  <ItemTimeText time={c.time} instant={c.instant} />
                  {place && ` · from ${place}`}
                  {position && onPanTo && (
                    <button
                      type="button"
                      className="ml-2 rounded border border-panel-line bg-panel px-1.5 text-xs hover:bg-panel-sunk"
                      onClick={() => onPanTo(position)}
                    >
                      Show on map
                    </button>
                  )}
                </p>
              </div>
            </li>
          );
        })}
      </ol>
    </>
  );
}
