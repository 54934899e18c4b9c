import type { ExceptionKind } from '@/contract/exceptions-api';
import { darkAtStop, type OpenDwell, stopDwell } from './dwell';
import type { Load, StopOutlook } from './model';
import { nextStopOutlook, stopStatusAt } from './outlook-text';
import { loadStaleness, type StalenessThresholds } from './staleness';
import { isFinished } from './status-phase';

export type { ExceptionKind };

/**
 * A load's exception (issue 36 part 4): the most severe thing about it a dispatcher acts on, from
 * the outlook the proxy reckoned and the page's clock. One per load: when it turns into another
 * kind, or another occurrence of the same kind, it is a new exception, and what was said of the old
 * one no longer holds.
 */
export interface LoadException {
  kind: ExceptionKind;
  /**
   * Since when it stands, as well as it is known. Undefined when it is not known, and for a stop late
   * or at risk only by its ETA: the ETA is reckoned afresh at each ping, so no moment of its own is
   * known (say the ETA against the appointment instead).
   */
  since: number | undefined;
  /** Which one it is: the stop it concerns, or the last ping before the phone went quiet. */
  occurrence: string;
  /** The stop it concerns (late, at risk, detention). */
  stop?: StopOutlook;
  /**
   * The phone went dark inside the stop's fence and no departure is known (detention, or no recent
   * ping): the stay's clock runs on, but the pings prove it only up to the last one.
   */
  open?: OpenDwell;
}

/** Most severe first. */
export const EXCEPTION_ORDER: readonly ExceptionKind[] = [
  'late',
  'dark-moving',
  'detention',
  'at-risk',
  'stale',
];

const RANK = new Map(EXCEPTION_ORDER.map((k, i) => [k, i]));
export const exceptionRank = (kind: ExceptionKind): number => RANK.get(kind) ?? EXCEPTION_ORDER.length;

/** How each kind is said, in a dispatcher's words. */
export const EXCEPTION_TEXT: Record<ExceptionKind, string> = {
  late: 'Late',
  'dark-moving': 'Went dark while moving',
  detention: 'Detention running',
  'at-risk': 'At risk',
  stale: 'No recent ping',
};

/**
 * The load's exception at `now`, or undefined when it needs no action. A finished load (delivered
 * or cancelled) never has one. `thresholds`: when a phone's silence becomes stale; `finished`: what
 * `isFinished` says of its latest status, when the caller knows it already.
 */
export function loadException(
  load: Load,
  now: number,
  thresholds: StalenessThresholds,
  finished = isFinished(load.latestStatus),
): LoadException | undefined {
  if (finished) return undefined;
  const outlook = load.outlook;
  const lastPing = load.latestLocation?.instant;
  const level = loadStaleness(load, now, thresholds);
  // A phone that never reported is dark only once the proxy says why (dispatched, no ping).
  const dark =
    level === 'stale' || level === 'silent' || (level === 'unknown' && outlook?.dark !== undefined);
  const stop = nextStopOutlook(outlook);
  const status = stop && stop.progress === 'upcoming' ? stopStatusAt(stop, now) : undefined;

  if (stop && status?.status === 'late') {
    const due = stop.appointment?.instant;
    return {
      kind: 'late',
      since: status.passed ? due : undefined,
      occurrence: stopOccurrence(stop, 'due'),
      stop,
    };
  }
  if (dark && outlook?.dark?.reason === 'moving')
    return { kind: 'dark-moving', since: lastPing, occurrence: quietSince(lastPing) };
  const dwell =
    stop && stop.progress === 'arrived'
      ? stopDwell(stop, now, outlook?.clockScale, darkAtStop(outlook, stop, lastPing, dark))
      : undefined;
  const open = dwell?.open ? { open: dwell.open } : {};
  if (stop && dwell?.running && dwell.detentionMinutes > 0 && stop.arrivedAt !== undefined) {
    const free = (dwell.freeMinutes * 60_000) / (outlook?.clockScale ?? 1);
    return {
      kind: 'detention',
      since: stop.arrivedAt + free,
      occurrence: stopOccurrence(stop, 'arrived'),
      stop,
      ...open,
    };
  }
  if (stop && status?.status === 'at-risk')
    return { kind: 'at-risk', since: undefined, occurrence: stopOccurrence(stop, 'due'), stop };
  if (dark)
    return { kind: 'stale', since: lastPing ?? outlook?.dark?.at, occurrence: quietSince(lastPing), ...open };
  return undefined;
}

// The occurrences' words are written only for the exception returned: this runs for every changed load.
/**
 * Which stop an exception or alert is of, in words that differ from trip to trip: a load dispatched
 * again under the same ids has a stop of the same order, and what was said of (or sent for) the
 * last trip's must not hold for it. Lateness is of the stop's appointment, detention of its arrival;
 * both are in the board's slim outlook, so a page and the server name the same occurrence.
 */
export function stopOccurrence(stop: StopOutlook, of: 'due' | 'arrived'): string {
  const at = of === 'due' ? stop.appointment?.instant : stop.arrivedAt;
  return at === undefined ? `stop ${stop.order}` : `stop ${stop.order} ${of} ${at}`;
}
const quietSince = (lastPing: number | undefined): string =>
  lastPing === undefined ? 'no ping' : `ping ${lastPing}`;

/**
 * Until when what is said of a load at `now` (its exception, and the board's words for its next
 * stop and its phone) stays as it is: the first moment after `now` at which its phone's silence
 * turns stale (stale or silent, both are dark here), its next stop's appointment passes, or the
 * clock of a stay still running there reaches its next minute; Infinity when none will. It is `now`
 * itself at such a moment. Between two pulls a page judges again only the loads whose moment came,
 * and the loads that changed.
 */
export function exceptionSameUntil(
  load: Load,
  now: number,
  thresholds: StalenessThresholds,
  finished = isFinished(load.latestStatus),
): number {
  if (finished) return Infinity;
  const stop = nextStopOutlook(load.outlook);
  const last = load.latestLocation?.instant;
  // No closure for the edges: this runs for every changed load of a refresh.
  let until = edgeFrom(
    Infinity,
    last === undefined ? undefined : last + thresholds.staleAfterMinutes * 60_000,
    now,
  );
  until = edgeFrom(until, stop?.appointment?.instant, now);
  const arrived = stop?.progress === 'arrived' ? stop.arrivedAt : undefined;
  if (arrived !== undefined && stop?.departedAt === undefined) {
    // The stay's minutes as `stopDwell` counts them; a millisecond early, as the division rounds.
    const minute = 60_000 / (load.outlook?.clockScale ?? 1);
    const next = arrived + (Math.max(0, Math.floor((now - arrived) / minute)) + 1) * minute;
    until = edgeFrom(until, Math.max(now, next - 1), now);
  }
  return until;
}

/** `until`, or `at` when it is an edge before it, at `now` or after. */
const edgeFrom = (until: number, at: number | undefined, now: number): number =>
  at !== undefined && at >= now && at < until ? at : until;
