import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Ping, Position } from '@/domain/model';
import { coordinatesText, formatAccuracy } from '../../lib/format';
import { useNearScreen } from '../../lib/use-near-screen';
import { ItemTimeText } from '../../components/item-time';

const ROW_HEIGHT = 48;
/**
 * A list longer than this is listed once it nears the screen: on a load page it is below the fold,
 * and measuring 20,000 rows for the virtualizer was part of the page's first render.
 */
export const LIST_WHEN_NEAR = 1000;

export interface PingsListProps {
  /** Oldest first, as the domain keeps them; shown newest first. */
  pings: readonly Ping[];
  fresh: ReadonlySet<string>;
  onPanTo?: (p: Position) => void;
}

/**
 * Every ping of the load, newest first: time, accuracy, place. Clicking one (or Enter on it) pans
 * the map there; the arrow keys move between pings. Virtualized.
 */
export function PingsList({ pings, fresh, onPanTo }: PingsListProps) {
  const newestFirst = useMemo(() => [...pings].reverse(), [pings]);
  const scroller = useRef<HTMLDivElement>(null);
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  const listed = useNearScreen(scroller, newestFirst.length > LIST_WHEN_NEAR);

  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler here; the virtualizer is used as documented
  const virtualizer = useVirtualizer({
    count: listed ? newestFirst.length : 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    // A new function would make the virtualizer measure every ping again on every render.
    getItemKey: useCallback((i: number) => newestFirst[i]?.key ?? i, [newestFirst]),
  });

  // After the arrow keys scrolled a ping into view, focus its row.
  useEffect(() => {
    if (focusIndex === null) return;
    scroller.current?.querySelector<HTMLElement>(`[data-index="${focusIndex}"] [data-ping-row]`)?.focus();
  });

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const row = (event.target as HTMLElement).closest<HTMLElement>('[data-index]');
    if (!row) return;
    const index = Number(row.dataset.index);
    const step: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10 };
    let next: number | undefined;
    if (event.key in step) next = index + (step[event.key] ?? 0);
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = newestFirst.length - 1;
    if (next === undefined) return;
    event.preventDefault();
    next = Math.max(0, Math.min(newestFirst.length - 1, next));
    virtualizer.scrollToIndex(next, { align: 'auto' });
    setFocusIndex(next);
  };

  if (pings.length === 0) return <p className="text-sm text-ink-muted">No pings yet.</p>;
  return (
    <div
      ref={scroller}
      role="region"
      aria-label={`Pings, newest first, ${pings.length} in all`}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      className="relative h-72 overflow-auto rounded border border-panel-line"
    >
      <ol
        style={{ height: listed ? virtualizer.getTotalSize() : newestFirst.length * ROW_HEIGHT }}
        className="relative w-full"
      >
        {virtualizer.getVirtualItems().map((v) => {
          const ping = newestFirst[v.index] as Ping;
          const isNew = fresh.has(`ping:${ping.key}`);
          const content = (
            <>
              <ItemTimeText time={ping.time} instant={ping.instant} />
              <span className="flex gap-3 text-xs text-ink-muted">
                <span>{formatAccuracy(ping.accuracy)}</span>
                <span>at {coordinatesText(ping)}</span>
                {isNew && <strong className="rounded bg-amber-200 px-1 text-amber-900">New</strong>}
              </span>
            </>
          );
          const rowClass = `flex h-full w-full flex-col items-start justify-center border-b border-panel-line px-2 text-left text-sm ${
            isNew ? 'border-l-4 border-l-amber-400 bg-amber-50' : ''
          }`;
          return (
            <li
              key={v.key}
              data-index={v.index}
              aria-setsize={newestFirst.length}
              aria-posinset={v.index + 1}
              className="absolute left-0 w-full"
              style={{ top: v.start, height: v.size }}
            >
              {onPanTo ? (
                <button
                  type="button"
                  data-ping-row
                  className={`${rowClass} hover:bg-panel-sunk focus:outline-2 focus:-outline-offset-2 focus:outline-status-selected`}
                  onClick={() => onPanTo({ lat: ping.lat, lon: ping.lon, accuracy: ping.accuracy })}
                  onFocus={() => setFocusIndex(null)}
                >
                  <span className="sr-only">Show on map: </span>
                  {content}
                </button>
              ) : (
                <div data-ping-row tabIndex={0} className={rowClass} onFocus={() => setFocusIndex(null)}>
                  {content}
                </div>
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
