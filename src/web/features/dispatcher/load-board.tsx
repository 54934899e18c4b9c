import { useVirtualizer } from '@tanstack/react-virtual';
import {
  memo,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ProfilerOnRenderCallback,
} from 'react';
import { Link } from 'wouter';
import { formatCount } from '../../lib/format';
import { MAX_REPLAY_LOADS, replayHref } from '../../lib/replay-link';
import { perfMarkAfterPaint } from '../../lib/perf-marks';
import { boardTally, filterRows, rowSorter, type BoardRow, type SortKey } from './board-rows';
import { BoardRowView } from './board-row-view';
import { useBoardFilter, useBoardSort } from './board-view';
import { StatusChips } from './status-chips';

export interface LoadBoardProps {
  rows: BoardRow[];
  /** The cursors of the answers the rows are of, space-separated: in the board-drawn mark. */
  cursors?: string;
  /** The instant the rows' ages are said at; without it, each row reads the board's clock. */
  now?: number;
  selectedKey: string | null;
  onSelect: (row: BoardRow) => void;
  /** Called for each row that renders (React's Profiler; a no-op in production builds). */
  onRowRender?: ProfilerOnRenderCallback;
}

/**
 * Three tight lines (the load and its place; its status and driver; its next stop and why it is
 * dark), so ten rows still fit beside the map on a 720 px tall screen.
 */
const ROW_HEIGHT = 48;

/** The board's text filter: where the page puts the keyboard's focus when it clears the filter. */
export const BOARD_FILTER_ID = 'board-filter';

/**
 * The load board: one row per watched load, most urgent first by default; filters by text, status,
 * needs attention, reefer only and hide finished; virtualized, so long lists scroll smoothly; arrows move, Enter selects.
 */
export const LoadBoard = memo(function LoadBoard({
  rows,
  cursors = '',
  now,
  selectedKey,
  onSelect,
  onRowRender,
}: LoadBoardProps) {
  const [sort, setSort] = useBoardSort();
  const [filter, setFilter] = useBoardFilter();
  const [activeIndex, setActiveIndex] = useState(0);
  const scroller = useRef<HTMLDivElement>(null);
  const baseId = useId();
  // Sorted, then filtered: a refresh sorts only the rows it replaced into the last order.
  const [sorter] = useState(rowSorter);
  const sorted = useMemo(() => sorter(rows, sort), [sorter, rows, sort]);
  const shown = useMemo(() => filterRows(sorted, filter), [sorted, filter]);
  // Counted again from the rows a refresh replaced, not from every row at each refresh.
  const [tally] = useState(boardTally);
  const { byStatus: counts, late, finished } = useMemo(() => tally(rows), [tally, rows]);
  // A chip sets the status the select shows; the pressed chip clears it.
  const toggleStatus = useCallback(
    (status: string) => setFilter({ status: filter.status === status ? null : status }),
    [filter.status, setFilter],
  );
  // Another filter or sort is another list: the keyboard's row goes back to its top (left where it
  // is, it can land on the last row of a shorter list, and Enter select a load not looked at).
  const [listedBy, setListedBy] = useState({ filter, sort });
  if (listedBy.filter !== filter || listedBy.sort !== sort) {
    setListedBy({ filter, sort });
    setActiveIndex(0);
  }
  const active = Math.min(activeIndex, Math.max(0, shown.length - 1));
  // The bench reads when the rows of an answer are on screen (the map's markers come first), and
  // when a change is (its cursor: an answer that changed no row still says the change was read).
  useEffect(() => {
    if (rows.length > 0) perfMarkAfterPaint('board-drawn', { rows: rows.length, cursors });
  }, [rows, cursors]);

  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    // Rows are not measured (all one height), and the virtualizer keys its sizes by index: a key
    // function of the rows would be new at each refresh, and make it lay out every row again.
    // React keys each row by its load below.
  });

  const onKeyDown = (event: KeyboardEvent) => {
    const step: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10 };
    if (event.key in step) {
      event.preventDefault();
      const next = Math.max(0, Math.min(shown.length - 1, active + (step[event.key] ?? 0)));
      setActiveIndex(next);
      virtualizer.scrollToIndex(next, { align: 'auto' });
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      const next = event.key === 'Home' ? 0 : shown.length - 1;
      setActiveIndex(next);
      virtualizer.scrollToIndex(next);
    } else if (event.key === 'Enter') {
      const row = shown[active];
      if (row) onSelect(row);
    }
  };

  return (
    <section aria-label="Load board" className="flex h-full min-h-0 flex-col bg-panel">
      <div className="space-y-2 border-b border-panel-line p-2 text-sm">
        {/* The sort beside the text filter: one line less above the rows. */}
        <div className="flex items-center gap-2">
          <input
            id={BOARD_FILTER_ID}
            type="search"
            value={filter.text}
            onChange={(e) => setFilter({ text: e.target.value })}
            placeholder="Filter by id, status, place, driver…"
            aria-label="Filter loads"
            className="min-w-0 flex-1 rounded border border-panel-line px-2 py-1"
          />
          <label className="flex shrink-0 items-center gap-1">
            Sort
            <select
              value={sort}
              onChange={(e) => setSort(e.target.value as SortKey)}
              className="rounded border border-panel-line px-1 py-0.5"
            >
              <option value="staleness">most urgent</option>
              <option value="status">status</option>
              <option value="id">id</option>
            </select>
          </label>
        </div>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <label className="flex items-center gap-1">
            Status
            <select
              value={filter.status ?? ''}
              onChange={(e) => setFilter({ status: e.target.value || null })}
              className="rounded border border-panel-line px-1 py-0.5"
            >
              <option value="">All ({formatCount(rows.length)})</option>
              {counts.map(([status, n]) => (
                <option key={status} value={status}>
                  {status} ({formatCount(n)})
                </option>
              ))}
              {/* The filter's status when no load has it (a shared link, or a refresh emptied it):
                  without its option the select would read "All" over an empty board. */}
              {filter.status !== null && !counts.some(([status]) => status === filter.status) && (
                <option value={filter.status}>{filter.status} (0)</option>
              )}
            </select>
          </label>
          <label
            className="flex items-center gap-1"
            title="Silent or stale phones, and reefers out of their set point; never a finished load"
          >
            <input
              type="checkbox"
              checked={filter.attentionOnly}
              onChange={(e) => setFilter({ attentionOnly: e.target.checked })}
            />
            Needs attention ({formatCount(late)})
          </label>
          <label className="flex items-center gap-1">
            <input
              type="checkbox"
              checked={filter.reeferOnly}
              onChange={(e) => setFilter({ reeferOnly: e.target.checked })}
            />
            Reefer only
          </label>
          <label className="flex items-center gap-1" title="Leave out delivered and cancelled loads">
            <input
              type="checkbox"
              checked={filter.hideFinished}
              onChange={(e) => setFilter({ hideFinished: e.target.checked })}
            />
            Hide finished ({formatCount(finished)})
          </label>
          {/* The board's filters pick the loads a replay shows together: the first ones listed. On
              the filters' row: a line of its own cost the board a row on a laptop. */}
          {shown.length > 0 && (
            <Link
              href={replayHref(shown.slice(0, MAX_REPLAY_LOADS).map((r) => r.load))}
              aria-label={replayLabel(shown.length)}
              title={replayLabel(shown.length)}
              className="text-status-selected underline"
            >
              Replay
            </Link>
          )}
        </div>
        <StatusChips counts={counts} status={filter.status} onToggle={toggleStatus} />
        {filter.only && (
          <p className="flex items-center gap-2 rounded bg-blue-50 px-2 py-1 text-xs">
            Showing the {formatCount(filter.only.size)} loads of a cluster’s red count on the map
            <button
              type="button"
              onClick={() => setFilter({ only: null })}
              className="ml-auto rounded border border-panel-line bg-panel px-2 py-0.5 hover:bg-panel-sunk"
            >
              Show every load
            </button>
          </p>
        )}
      </div>
      {/* Beside the grid, not in it: a grid may hold only rows. */}
      {shown.length === 0 && (
        <p className="p-4 text-sm text-ink-muted">
          {rows.length === 0 ? 'No loads to show yet.' : 'No load matches these filters.'}
        </p>
      )}
      <div
        ref={scroller}
        role="grid"
        aria-label={`Loads, ${shown.length} shown`}
        aria-rowcount={shown.length}
        aria-activedescendant={shown[active] ? `${baseId}-${active}` : undefined}
        tabIndex={0}
        onKeyDown={onKeyDown}
        className="group relative min-h-0 flex-1 overflow-auto focus:outline-none"
      >
        <div style={{ height: virtualizer.getTotalSize() }} className="relative w-full">
          {virtualizer.getVirtualItems().map((item) => {
            const row = shown[item.index] as BoardRow;
            return (
              <div
                key={row.key}
                className="absolute left-0 w-full"
                style={{ top: item.start, height: item.size }}
              >
                <BoardRowView
                  row={row}
                  now={now}
                  id={`${baseId}-${item.index}`}
                  rowIndex={item.index + 1}
                  selected={row.key === selectedKey}
                  active={item.index === active}
                  onSelect={onSelect}
                  onRender={onRowRender}
                />
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
});

function replayLabel(shown: number): string {
  if (shown <= MAX_REPLAY_LOADS) return `Replay ${shown === 1 ? 'this load' : `these ${shown} loads`}`;
  return `Replay the first ${MAX_REPLAY_LOADS} loads shown`;
}
