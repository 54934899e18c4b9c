import { useVirtualizer } from '@tanstack/react-virtual';
import {
  memo,
  Profiler,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ProfilerOnRenderCallback,
} from 'react';
import { formatAge } from '@/domain/staleness';
import { formatAccuracy, formatCount, telHref } from '../../lib/format';
import { perfMarkAfterPaint } from '../../lib/perf-marks';
import { STALENESS_CLASS, STALENESS_TEXT } from '../../components/staleness-text';
import { boardTally, filterRows, rowSorter, type BoardRow, type SortKey } from './board-rows';
import { useBoardFilter, useBoardSort } from './board-view';

export interface LoadBoardProps {
  rows: BoardRow[];
  now: number;
  selectedKey: string | null;
  onSelect: (row: BoardRow) => void;
  /** Called for each row that renders (React's Profiler; a no-op in production builds). */
  onRowRender?: ProfilerOnRenderCallback;
}

const ROW_HEIGHT = 52;

/** The board's text filter: where the page puts the keyboard's focus when it clears the filter. */
export const BOARD_FILTER_ID = 'board-filter';

/** Chips in the status strip: enough for the usual statuses, few enough to stay on one or two lines. */
const MAX_CHIPS = 6;

/**
 * How many loads are in each status, at a glance: the most frequent as chips that filter the board by
 * their status (the Status select lists them all). Built from the board's counts alone, never the rows.
 */
const StatusChips = memo(function StatusChips({
  counts,
  status,
  onToggle,
}: {
  counts: [string, number][];
  status: string | null;
  onToggle: (status: string) => void;
}) {
  // While the pointer is over the chips or the keyboard's focus is in them, they keep their order
  // and their set, and only their counts change: a refresh that re-ranks two statuses must not slide
  // another chip under a pointer about to click (one the refresh emptied reads 0 until it is let
  // go). The focus a click leaves on a chip does not hold them: the pointer's leaving lets go.
  const [held, setHeld] = useState<readonly string[] | null>(null);
  const inside = useRef({ pointer: false, focus: false, pressed: false });
  const ranked = counts.slice(0, MAX_CHIPS).map(([name]) => name);
  const names = held ?? ranked;
  const hold = (where: 'pointer' | 'focus', on: boolean) => {
    inside.current[where] = on;
    const { pointer, focus } = inside.current;
    if (!pointer && !focus) setHeld(null);
    else if (on) setHeld((h) => h ?? names);
  };
  const countOf = new Map(counts);
  const top = names.map((name): [string, number] => [name, countOf.get(name) ?? 0]);
  // The board's own filter stays in sight when it is a rarer status (or one a refresh emptied).
  const extra: [string, number] | undefined =
    status === null || names.includes(status) ? undefined : [status, countOf.get(status) ?? 0];
  const chips = extra ? [...top, extra] : top;
  // Statuses with loads but no chip; the select lists them all.
  const hidden = counts.filter(([name]) => !names.includes(name) && name !== status).length;
  if (chips.length === 0) return null;
  return (
    <div
      role="group"
      aria-label="Loads by status"
      className="flex flex-wrap items-center gap-1 text-xs"
      onPointerEnter={() => hold('pointer', true)}
      onPointerLeave={() => hold('pointer', false)}
      onPointerDown={() => (inside.current.pressed = true)}
      onFocus={() => {
        const { pressed } = inside.current;
        inside.current.pressed = false;
        if (!pressed) hold('focus', true);
      }}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) hold('focus', false);
      }}
    >
      {chips.map(([name, n]) => {
        const pressed = name === status;
        return (
          <button
            key={name}
            type="button"
            aria-pressed={pressed}
            onClick={(e) => {
              // The extra chip goes once it is let go: the keyboard's focus moves to the first chip,
              // not to the page's start.
              if (extra && name === extra[0])
                (e.currentTarget.parentElement?.querySelector('button') as HTMLButtonElement | null)?.focus();
              onToggle(name);
            }}
            className={`rounded-full border px-2 py-0.5 whitespace-nowrap ${
              // Pressed is told by its ring and weight too, not by its colour alone.
              pressed
                ? 'border-status-selected bg-blue-100 font-semibold text-status-selected ring-1 ring-status-selected'
                : 'border-panel-line bg-panel-sunk hover:border-ink-faint'
            }`}
          >
            {name} <span className="tabular-nums">{formatCount(n)}</span>
          </button>
        );
      })}
      {hidden > 0 && <span className="text-ink-muted">and {hidden} more in Status</span>}
    </div>
  );
});

const BoardRowView = memo(function BoardRowView({
  row,
  now,
  selected,
  active,
  id,
  rowIndex,
  onSelect,
  onRender,
}: {
  row: BoardRow;
  now: number;
  selected: boolean;
  active: boolean;
  id: string;
  rowIndex: number;
  onSelect: (row: BoardRow) => void;
  onRender: ProfilerOnRenderCallback | undefined;
}) {
  const tel = row.phone ? telHref(row.phone) : undefined;
  const border = {
    fresh: 'border-l-status-fresh',
    stale: 'border-l-status-stale',
    silent: 'border-l-status-silent',
    unknown: 'border-l-status-unknown',
  }[row.staleness];
  const content = (
    <div
      id={id}
      role="row"
      aria-rowindex={rowIndex}
      aria-selected={selected}
      data-load={row.key}
      onClick={() => onSelect(row)}
      className={`grid h-full cursor-pointer grid-cols-[6.5rem_minmax(0,1fr)_8.5rem] gap-x-2 border-b border-l-4 border-panel-line px-2 py-1 text-sm ${border} ${
        // The selected row stands out; the keyboard's row only while the board has the keyboard.
        selected
          ? 'bg-blue-100 text-status-selected'
          : active
            ? 'bg-panel hover:bg-panel-sunk group-focus-visible:bg-panel-sunk'
            : 'bg-panel hover:bg-panel-sunk'
      } ${
        // The keyboard's place in the list, outlined while the list has the keyboard's focus (not
        // after a mouse click on a row, where it looked like a second selection).
        active
          ? 'group-focus-visible:outline group-focus-visible:outline-2 group-focus-visible:-outline-offset-2 group-focus-visible:outline-status-selected'
          : ''
      }`}
    >
      <div role="gridcell" className="truncate font-medium" title={row.label}>
        {row.label}
        <div className="truncate text-xs font-normal text-ink-muted">{row.place ?? 'no position'}</div>
      </div>
      <div role="gridcell" className="min-w-0">
        <div className="truncate">
          {row.status ?? <span className="text-ink-muted">no status</span>}
          {row.code && <span className="ml-1 text-xs text-ink-muted">({row.code})</span>}
        </div>
        <div className="truncate text-xs text-ink-muted">
          {row.driver ?? 'driver unknown'}
          {row.phone && (
            <>
              {' · '}
              {/* Dialled as its digits ("+1 (402) 555-0100" as +14025550100); text when it holds no
                  number. A click calls without selecting the row. */}
              {tel ? (
                <a href={tel} className="text-status-selected underline" onClick={(e) => e.stopPropagation()}>
                  {row.phone}
                </a>
              ) : (
                row.phone
              )}
            </>
          )}
        </div>
      </div>
      <div role="gridcell" className="text-right whitespace-nowrap">
        <div className={STALENESS_CLASS[row.staleness]}>
          {row.lastPingAt === undefined ? STALENESS_TEXT.unknown : formatAge(now - row.lastPingAt)}
        </div>
        <div className="text-xs text-ink-muted">
          {row.staleness === 'stale' || row.staleness === 'silent'
            ? `${STALENESS_TEXT[row.staleness]} · `
            : ''}
          {formatAccuracy(row.accuracy)}
          {row.reefer && (
            <span title="Reefer" className="ml-1" aria-label="reefer">
              ❄
            </span>
          )}
          {row.excursion && <span className="ml-1 font-semibold text-status-silent">Excursion</span>}
        </div>
      </div>
    </div>
  );
  return onRender ? (
    <Profiler id={row.key} onRender={onRender}>
      {content}
    </Profiler>
  ) : (
    content
  );
});

/**
 * The load board: one row per watched load, most urgent first by default; filters by text, status,
 * stale only and reefer only; virtualized, so 10,000 rows scroll smoothly; arrows move, Enter selects.
 */
export const LoadBoard = memo(function LoadBoard({
  rows,
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
  // Counted again from the rows a refresh replaced: 10,000 rows are not walked at each refresh.
  const [tally] = useState(boardTally);
  const { byStatus: counts, late: stale } = useMemo(() => tally(rows), [tally, rows]);
  // A chip sets the status the select shows; the pressed chip clears it.
  const toggleStatus = useCallback(
    (status: string) => setFilter({ status: filter.status === status ? null : status }),
    [filter.status, setFilter],
  );
  // Another filter or sort is another list: the keyboard's row goes back to its top (left where it
  // was, it landed on the last row of a shorter list, and Enter selected a load not looked at).
  const [listedBy, setListedBy] = useState({ filter, sort });
  if (listedBy.filter !== filter || listedBy.sort !== sort) {
    setListedBy({ filter, sort });
    setActiveIndex(0);
  }
  const active = Math.min(activeIndex, Math.max(0, shown.length - 1));
  // The bench reads when the rows of an answer are on screen (the map's markers come first).
  useEffect(() => {
    if (rows.length > 0) perfMarkAfterPaint('board-drawn', { rows: rows.length });
  }, [rows]);

  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    // Rows are not measured (all one height), and the virtualizer keys its sizes by index: a key
    // function of the rows would be new at each refresh, and make it lay out 10,000 rows again.
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
        <input
          id={BOARD_FILTER_ID}
          type="search"
          value={filter.text}
          onChange={(e) => setFilter({ text: e.target.value })}
          placeholder="Filter by id, status, place, driver…"
          aria-label="Filter loads"
          className="w-full rounded border border-panel-line px-2 py-1"
        />
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
          <label className="flex items-center gap-1">
            <input
              type="checkbox"
              checked={filter.staleOnly}
              onChange={(e) => setFilter({ staleOnly: e.target.checked })}
            />
            Stale only ({formatCount(stale)})
          </label>
          <label className="flex items-center gap-1">
            <input
              type="checkbox"
              checked={filter.reeferOnly}
              onChange={(e) => setFilter({ reeferOnly: e.target.checked })}
            />
            Reefer only
          </label>
          <label className="ml-auto flex items-center gap-1">
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
        <StatusChips counts={counts} status={filter.status} onToggle={toggleStatus} />
      </div>
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
        {shown.length === 0 && (
          <p className="p-4 text-sm text-ink-muted">
            {rows.length === 0 ? 'No loads to show yet.' : 'No load matches these filters.'}
          </p>
        )}
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
