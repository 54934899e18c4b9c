import { useQuery } from '@tanstack/react-query';
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import { Link } from 'wouter';
import type { ClientConfig } from '@/contract/proxy-api';
import type { ExceptionAck, ExceptionAckRequest } from '@/contract/exceptions-api';
import type { Load } from '@/domain/model';
import { EXCEPTION_TEXT, type LoadException } from '@/domain/exceptions';
import { openStayWords } from '@/domain/open-dwell-text';
import { etaAgainstAppointment } from '@/domain/outlook-text';
import { formatAge, type StalenessThresholds } from '@/domain/staleness';
import { ErrorBanner } from '../../components/error-banner';
import { VirtualItems } from '../../components/virtual-items';
import { loadQueries } from '../../data/load-queries';
import { telHref } from '../../lib/format';
import { typing } from '../../lib/typing';
import { loadPageHref } from '../../lib/load-ref';
import { formatTime, viewerTime } from '../../lib/time-format';
import { useMediaQuery } from '../../lib/use-media-query';
import { useNow } from '../../lib/use-now';
import { idsBy, useDemoFleetOnFirstVisit, useWatchedLoads, useWatchList } from '../../lib/watch-list';
import { exceptionAckQueries, useActOnException } from './exception-acks-queries';
import { exceptionRows, type ExceptionRow } from './exceptions-model';
import { AlertsSection } from './alerts-section';

const KIND_CLASS: Record<ExceptionRow['exception']['kind'], string> = {
  late: 'bg-red-100 text-red-900',
  'dark-moving': 'bg-red-100 text-red-900',
  detention: 'bg-amber-100 text-amber-900',
  'at-risk': 'bg-amber-100 text-amber-900',
  stale: 'bg-gray-200 text-gray-900',
};

const SNOOZES = [
  { minutes: 30, label: 'Snooze 30 min' },
  { minutes: 120, label: 'Snooze 2 h' },
] as const;

/**
 * Since when, or for a stop late or at risk by its ETA alone, the ETA against the appointment in the
 * stop's zone: its ETA moves with each ping, so a "since" would read "just now" forever. A stay left
 * open by a phone dark at the stop says what its pings prove.
 */
function whenText(exception: LoadException, now: number): string {
  const { since, stop, open } = exception;
  // To the minute, like the ETA and appointment beside it: an appointment's seconds are always ":00".
  if (since !== undefined)
    return `since ${formatTime(since, { kind: 'mine' })} (${formatAge(now - since)})${open ? `; ${openStayWords(open)}` : ''}`;
  if (stop && (exception.kind === 'late' || exception.kind === 'at-risk')) return etaAgainstAppointment(stop);
  return 'since: not known';
}

function handledText(ack: ExceptionAck): string {
  const when = viewerTime(Date.parse(ack.at));
  return ack.state === 'snoozed' && ack.until
    ? `Snoozed by ${ack.by} at ${when}, until ${viewerTime(Date.parse(ack.until))}`
    : `Acknowledged by ${ack.by} at ${when}`;
}

/**
 * `/exceptions`: the watched loads that need a dispatcher's action, most severe first, each to
 * acknowledge or snooze with a note; what the team handled is in a group of its own, with who and
 * when. Keys: j and k move, a acknowledges, s snoozes for 30 minutes.
 */
export function ExceptionsPage({ config }: { config: ClientConfig }) {
  const entries = useWatchList();
  useDemoFleetOnFirstVisit(config.demo);
  const externalIds = useMemo(() => idsBy(entries, 'external-id'), [entries]);
  const loadNumbers = useMemo(() => idsBy(entries, 'load-number'), [entries]);
  const byExternal = useQuery(loadQueries.board('external-id', externalIds, config.refreshSeconds));
  const byNumber = useQuery(loadQueries.board('load-number', loadNumbers, config.refreshSeconds));
  const loads = useWatchedLoads(entries, byExternal, byNumber);
  const now = useNow(5_000);
  const loading =
    (externalIds.length > 0 && byExternal.isPending) || (loadNumbers.length > 0 && byNumber.isPending);
  const error = byExternal.error ?? byNumber.error;
  return (
    <div data-exceptions-scroll className="h-full overflow-y-auto">
      {error ? (
        <ErrorBanner
          error={error}
          onRetry={() => {
            void byExternal.refetch();
            void byNumber.refetch();
          }}
        />
      ) : null}
      <ExceptionsList config={config} loads={loads} now={now} loading={loading} />
      <div className="mx-auto max-w-5xl px-4 pb-4 lg:max-w-7xl">
        <AlertsSection refreshSeconds={config.refreshSeconds} />
      </div>
    </div>
  );
}

/** The exceptions of a set of loads at `now`, with the team's acknowledgements and snoozes. */
export function ExceptionsList({
  config,
  loads,
  now,
  loading = false,
}: {
  config: ClientConfig;
  loads: readonly Load[];
  now: number;
  loading?: boolean;
}) {
  const acks = useQuery(exceptionAckQueries.list(config.refreshSeconds));
  const thresholds: StalenessThresholds = useMemo(
    () => ({ staleAfterMinutes: config.staleAfterMinutes, silentAfterMinutes: config.silentAfterMinutes }),
    [config.staleAfterMinutes, config.silentAfterMinutes],
  );
  const { open, handled } = useMemo(
    () => exceptionRows(loads, acks.data?.acks ?? [], now, thresholds),
    [loads, acks.data, now, thresholds],
  );
  const act = useActOnException();
  const [notes, setNotes] = useState<Record<string, string>>({});
  const [selectedKey, setSelectedKey] = useState<string | undefined>(undefined);
  const selected = Math.max(
    0,
    open.findIndex((r) => r.key === selectedKey),
  );
  const listRef = useRef<HTMLUListElement>(null);
  /** The row a key moved to, focused once it is drawn. */
  const focusKey = useRef<string | undefined>(undefined);

  const send = (row: ExceptionRow, request: Pick<ExceptionAckRequest, 'action' | 'minutes'>) => {
    const note = notes[row.key]?.trim();
    act.mutate(
      {
        load: row.ref,
        kind: row.exception.kind,
        ...request,
        ...(request.action === 'acknowledge' || request.action === 'snooze'
          ? { occurrence: row.exception.occurrence }
          : {}),
        ...(note ? { note } : {}),
      },
      { onSuccess: () => setNotes(({ [row.key]: _done, ...rest }) => rest) },
    );
  };

  const latest = useRef({ open, selected, send });
  useEffect(() => {
    latest.current = { open, selected, send };
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      const { open: rows, selected: at, send: sendNow } = latest.current;
      const row = rows[at];
      const move = (to: number) => {
        const next = rows[Math.min(rows.length - 1, Math.max(0, to))];
        if (!next) return;
        focusKey.current = next.key;
        setSelectedKey(next.key);
      };
      if (e.key === 'j') move(at + 1);
      else if (e.key === 'k') move(at - 1);
      else if (e.key === 'a' && row) sendNow(row, { action: 'acknowledge' });
      else if (e.key === 's' && row) sendNow(row, { action: 'snooze', minutes: 30 });
      else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <>
      {acks.error ? <ErrorBanner error={acks.error} onRetry={() => void acks.refetch()} /> : null}
      <div className="mx-auto flex max-w-5xl flex-col gap-4 p-4 lg:max-w-7xl">
        <div>
          <h2 className="text-xl font-semibold tracking-tight">Exceptions</h2>
          <p className="mt-1 text-sm text-ink-muted">
            The watched loads that need action, most severe first: late, dark while moving, detention running,
            at risk, no recent ping. Keys: <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>a</kbd> acknowledges,{' '}
            <kbd>s</kbd> snoozes 30 min.
          </p>
        </div>
        {act.isError ? <ErrorBanner error={act.error} /> : null}
        {loading ? (
          <p className="text-ink-muted">Loading the watched loads…</p>
        ) : open.length === 0 ? (
          <p role="status" className="rounded border border-panel-line bg-panel-sunk p-3 text-sm">
            No load needs action now{handled.length > 0 ? ' (the others are handled, below)' : ''}.
          </p>
        ) : null}
        <OpenRows
          listRef={listRef}
          rows={open}
          selected={selected}
          focusKey={focusKey}
          onSelect={setSelectedKey}
          row={(row) => (
            <>
              <RowHead row={row} now={now} />
              <div className={`flex flex-wrap items-center gap-2 ${ACTIONS}`}>
                <input
                  type="text"
                  aria-label={`Note on ${row.label}`}
                  placeholder="Note (optional)"
                  maxLength={500}
                  value={notes[row.key] ?? ''}
                  onChange={(e) => setNotes((n) => ({ ...n, [row.key]: e.target.value }))}
                  className="min-w-0 flex-1 basis-48 rounded border border-panel-line px-2 py-1 text-sm lg:basis-full lg:py-0.5"
                />
                <button
                  type="button"
                  onClick={() => send(row, { action: 'acknowledge' })}
                  disabled={act.isPending}
                  className={`rounded bg-ink text-white ${BUTTON}`}
                >
                  Acknowledge
                </button>
                {SNOOZES.map((s) => (
                  <button
                    key={s.minutes}
                    type="button"
                    onClick={() => send(row, { action: 'snooze', minutes: s.minutes })}
                    disabled={act.isPending}
                    className={`rounded border border-ink ${BUTTON}`}
                  >
                    {s.label}
                  </button>
                ))}
              </div>
            </>
          )}
        />
        <details className="rounded border border-panel-line">
          <summary className="cursor-pointer px-3 py-2 text-sm font-semibold">
            Handled ({handled.length})
          </summary>
          <ul aria-label="Handled" className="flex flex-col gap-2 p-3 pt-0 lg:gap-1">
            {handled.map((row) => (
              <li
                key={row.key}
                data-load={row.key}
                data-kind={row.exception.kind}
                className={`${ROW} rounded bg-panel-sunk`}
              >
                <RowHead row={row} now={now} />
                <div className={`flex flex-col items-start gap-1 ${ACTIONS}`}>
                  {row.handled ? (
                    <p className="max-w-full text-sm wrap-anywhere lg:text-xs" data-handled>
                      {handledText(row.handled)}
                      {row.handled.note ? ` · “${row.handled.note}”` : ''}
                    </p>
                  ) : null}
                  <button
                    type="button"
                    onClick={() => send(row, { action: 'clear' })}
                    disabled={act.isPending}
                    className={`rounded border border-ink ${BUTTON}`}
                  >
                    Back to the list
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </details>
      </div>
    </>
  );
}

/** A row's height before it is measured: a laptop's two-line row; a phone's stacked one is taller. */
const ROW_ESTIMATE = { wide: 60, narrow: 170 };

/**
 * The rows that need action, virtualized: thousands of exceptions draw and refresh the few rows on
 * screen. The selected row is always drawn, so focus resting in it (its note, a button) is never
 * lost; each row tells its place (`aria-posinset` of `aria-setsize`), as the rows off screen are not
 * there. The list scrolls with the page (the box marked `data-exceptions-scroll`), below the heading.
 */
function OpenRows({
  listRef,
  rows,
  selected,
  focusKey,
  onSelect,
  row,
}: {
  listRef: RefObject<HTMLUListElement | null>;
  rows: readonly ExceptionRow[];
  selected: number;
  focusKey: RefObject<string | undefined>;
  onSelect: (key: string) => void;
  row: (row: ExceptionRow) => ReactNode;
}) {
  const wide = useMediaQuery('(min-width: 1024px)');
  const [scrollMargin, setScrollMargin] = useState(0);
  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler here; the virtualizer is used as documented
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => listRef.current?.closest<HTMLElement>('[data-exceptions-scroll]') ?? null,
    estimateSize: () => (wide ? ROW_ESTIMATE.wide : ROW_ESTIMATE.narrow),
    // The gaps the stacked list had: gap-2, lg:gap-1.
    gap: wide ? 4 : 8,
    overscan: 6,
    scrollMargin,
    // Measured sizes are kept by load and kind, so a row leaving the list moves the others' along.
    getItemKey: useCallback((i: number) => rows[i]?.key ?? i, [rows]),
    rangeExtractor: useCallback(
      (range: Range) => {
        const shown = defaultRangeExtractor(range);
        if (shown.includes(selected) || selected >= rows.length) return shown;
        return [...shown, selected].sort((a, b) => a - b);
      },
      [selected, rows.length],
    ),
  });
  // Where the list starts in its scroll box: below the heading, and any banner or note above it,
  // measured again whenever the column holding them changes size.
  useLayoutEffect(() => {
    const list = listRef.current;
    const box = list?.closest<HTMLElement>('[data-exceptions-scroll]');
    if (!list || !box) return;
    const measure = () => {
      const top = list.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
      setScrollMargin((was) => (Math.abs(top - was) >= 1 ? top : was));
    };
    measure();
    if (typeof ResizeObserver !== 'function' || !list.parentElement) return;
    const observer = new ResizeObserver(measure);
    observer.observe(list.parentElement);
    return () => observer.disconnect();
  }, [listRef]);
  // A row moved to by a key takes focus once drawn (it always is: the selected row is); focusing it
  // scrolls it into view.
  useLayoutEffect(() => {
    const key = focusKey.current;
    if (key === undefined) return;
    focusKey.current = undefined;
    listRef.current?.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`)?.focus();
  }, [selected, focusKey, listRef]);

  return (
    <ul
      ref={listRef}
      aria-label="Needs action"
      className="relative w-full"
      style={{ height: virtualizer.getTotalSize() }}
    >
      <VirtualItems
        virtualizer={virtualizer}
        items={rows}
        className={`${ROW} rounded border outline-none`}
        itemProps={(r, i) => ({
          'data-key': r.key,
          'data-load': r.key,
          'data-kind': r.exception.kind,
          tabIndex: -1,
          'aria-current': i === selected ? 'true' : undefined,
          onFocus: () => onSelect(r.key),
          className:
            i === selected ? 'border-status-selected ring-2 ring-status-selected/40' : 'border-panel-line',
        })}
        row={row}
      />
    </ul>
  );
}

/**
 * A row: stacked on a phone; from 1024 px one grid row of two lines that a dispatcher scans down
 * (load and kind | since and evidence | driver | note and actions), so 20 to 50 fit a screen or two.
 */
const ROW =
  'flex flex-col gap-2 p-3 lg:grid lg:grid-cols-[8rem_minmax(0,1fr)_10rem_20rem] lg:items-start lg:gap-x-3 xl:grid-cols-[9rem_minmax(0,1fr)_12rem_21rem] xl:gap-x-4 lg:gap-y-0 lg:px-3 lg:py-1.5';
const ACTIONS = 'lg:col-start-4 lg:row-span-2 lg:row-start-1 lg:gap-1';
const BUTTON = 'px-3 py-1 text-sm disabled:opacity-50 lg:px-2 lg:py-0.5 lg:text-xs';

/** Load, kind, since when, evidence and the driver's phone: the grid's first three columns from 1024 px. */
function RowHead({ row, now }: { row: ExceptionRow; now: number }) {
  const tel = row.phone ? telHref(row.phone) : undefined;
  return (
    <div className="flex flex-col gap-1 lg:contents">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 lg:contents">
        <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 lg:col-start-1 lg:row-span-2 lg:row-start-1 lg:flex-col lg:items-start lg:gap-0.5">
          <Link href={loadPageHref(row.load)} className="font-semibold text-status-selected underline">
            {row.label}
          </Link>
          <span
            className={`rounded px-2 py-0.5 text-sm font-semibold lg:px-1.5 lg:py-0 lg:text-xs ${KIND_CLASS[row.exception.kind]}`}
          >
            {EXCEPTION_TEXT[row.exception.kind]}
          </span>
        </div>
        <span className="text-sm text-ink-muted lg:col-start-2 lg:row-start-1">
          {whenText(row.exception, now)}
        </span>
      </div>
      {row.evidence ? (
        <p className="text-sm lg:col-start-2 lg:row-start-2 lg:line-clamp-2" title={row.evidence}>
          {row.evidence}
        </p>
      ) : null}
      <p className="text-sm text-ink-muted lg:col-start-3 lg:row-span-2 lg:row-start-1">
        {row.driver ?? 'Driver not known'}
        {row.phone ? ' · ' : ''}
        {row.phone && tel ? (
          <a href={tel} className="text-status-selected underline">
            {row.phone}
          </a>
        ) : (
          (row.phone ?? '')
        )}
      </p>
    </div>
  );
}
