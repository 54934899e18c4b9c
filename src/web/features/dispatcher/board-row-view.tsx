import { memo, Profiler, type ProfilerOnRenderCallback } from 'react';
import { formatAge } from '@/domain/staleness';
import { formatAccuracy, telHref } from '../../lib/format';
import { BOARD_TICK_MS, useNow } from '../../lib/use-now';
import { STALENESS_CLASS, STALENESS_TEXT } from '../../components/staleness-text';
import { outlookLine, STOP_STATUS_CLASS } from '../../components/outlook-text';
import type { BoardRow } from './board-rows';

/** A handset, drawn in the text's colour. */
function PhoneIcon() {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" fill="currentColor">
      <path d="M6.6 10.8a15.1 15.1 0 0 0 6.6 6.6l2.2-2.2a1 1 0 0 1 1-.25 11.4 11.4 0 0 0 3.6.57 1 1 0 0 1 1 1V20a1 1 0 0 1-1 1A17 17 0 0 1 3 4a1 1 0 0 1 1-1h3.5a1 1 0 0 1 1 1c0 1.25.2 2.45.57 3.57a1 1 0 0 1-.25 1z" />
    </svg>
  );
}

/** One load's row of the board: its id and place, status and driver, and how fresh its position is. */
export const BoardRowView = memo(function BoardRowView({
  row,
  now: at,
  selected,
  active,
  id,
  rowIndex,
  onSelect,
  onRender,
}: {
  row: BoardRow;
  /** The instant its ages are said at; without it, the board's clock (each tick renders the rows alone). */
  now: number | undefined;
  selected: boolean;
  active: boolean;
  id: string;
  rowIndex: number;
  onSelect: (row: BoardRow) => void;
  onRender: ProfilerOnRenderCallback | undefined;
}) {
  const clock = useNow(BOARD_TICK_MS);
  const now = at ?? clock;
  const tel = row.phone ? telHref(row.phone) : undefined;
  // A finished load's ping age is said, not coloured: it is no alarm (domain/attention.ts).
  const { finished, reasons } = row.attention;
  // Said at this clock: a stop whose appointment passed turns late without a new answer.
  const outlook = outlookLine(row.load, row.staleness, finished, now);
  const dark = outlook.dark && (
    <span className={STALENESS_CLASS[row.staleness]} data-dark-reason="">
      {outlook.dark}
    </span>
  );
  const next = outlook.next && (
    <span
      className={STOP_STATUS_CLASS[outlook.next.detention ? 'late' : outlook.next.status]}
      data-stop-status={outlook.next.status}
      data-detention={outlook.next.detention ? '' : undefined}
    >
      {outlook.next.text}
    </span>
  );
  const border = finished
    ? 'border-l-panel-line'
    : {
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
      className={`grid h-full cursor-pointer grid-cols-[6.5rem_minmax(0,1fr)_8.5rem_1.5rem] gap-x-2 border-b border-l-4 border-panel-line px-2 py-px text-sm leading-[18px] [&_.text-xs]:leading-[14px] ${border} ${
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
          {/* A phone that holds no number to dial is only text; one that does is the call button at
              the row's end. */}
          {row.phone && !tel && ` · ${row.phone}`}
        </div>
      </div>
      <div role="gridcell" className="text-right whitespace-nowrap">
        <div className={finished ? 'text-ink-muted' : STALENESS_CLASS[row.staleness]}>
          {row.lastPingAt === undefined ? STALENESS_TEXT.unknown : formatAge(now - row.lastPingAt)}
        </div>
        <div className="text-xs text-ink-muted">
          {row.staleness !== 'fresh' && row.staleness !== 'unknown' && reasons.includes(row.staleness)
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
      <div role="gridcell" className="flex items-center justify-center">
        {/* Calling is one deliberate action at the row's edge, a small icon named by the full number
            (dialled as its digits: "+1 (402) 555-0100" as +14025550100); the rest of the row selects.
            It calls without selecting the row. */}
        {tel && (
          <a
            href={tel}
            aria-label={`Call ${row.driver ?? 'the driver'} at ${row.phone}`}
            title={`Call ${row.driver ?? 'the driver'} at ${row.phone}`}
            className="flex h-6 w-6 items-center justify-center rounded text-status-selected hover:bg-panel-line"
            onClick={(e) => e.stopPropagation()}
          >
            <PhoneIcon />
          </a>
        )}
      </div>
      {/* Across the row: why its phone is dark, and how its next stop stands. A stay left open by
          a phone dark at the stop says so first: "open" and its clock must survive a phone's cut,
          and the reason after it mostly repeats it ("Waiting at a stop"). */}
      {(outlook.dark || outlook.next) && (
        <div role="gridcell" className="col-span-4 truncate text-xs" data-outlook="">
          {outlook.next?.open ? (
            <>
              {next}
              {dark && <span className="text-ink-muted"> · </span>}
              {dark}
            </>
          ) : (
            <>
              {dark}
              {dark && next && <span className="text-ink-muted"> · </span>}
              {next}
            </>
          )}
        </div>
      )}
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
