import type { AlertKind } from '@/contract/alerts-api';
import { darkAtStop, stopDwell } from './dwell';
import { stopOccurrence } from './exceptions';
import { openStayWords } from './open-dwell-text';
import type { Load } from './model';
import { nextStopOutlook, stopName, stopStatusAt, stopStatusShort } from './outlook-text';
import { loadRefOf, podOverdueHours } from './paperwork';
import { loadStaleness, type StalenessThresholds } from './staleness';
import { isFinished } from './status-phase';

/**
 * What an alert rule of each kind sees in a load at `now` (issue 36 part 5): whether its condition
 * holds, which occurrence it is (a new one is a new alert), since when it holds when that is known,
 * and what to say. Pure: the server's evaluator brings the clock and remembers the rest.
 */
export interface AlertCondition {
  occurrence: string;
  /** Undefined when no moment of its own is known (a stop at risk by its ETA): the evaluator counts from when it first saw it. */
  since: number | undefined;
  /** In a dispatcher's words, without the load's name. */
  what: string;
}

// Alert texts travel (a webhook's chat message, the in-app list) to readers in any zone: UTC, named.
const UTC_TIME = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});
/** "Nov 28, 15:41 UTC", as the pages write times. */
const utcTime = (instant: number) => `${UTC_TIME.format(instant)} UTC`;

const loadName = (load: Load) =>
  load.loadNumber !== undefined && load.by !== 'load-number'
    ? `load ${load.loadNumber} (${loadRefOf(load)})`
    : `load ${loadRefOf(load)}`;

/** The alert's text: "Late for the next stop: load ABC (e:9001), Stop 2 (delivery), Dallas, TX: Late 40 min". */
export const alertText = (kindText: string, load: Load, c: AlertCondition) =>
  `${kindText}: ${loadName(load)}, ${c.what}`;

/**
 * The condition of a rule of `kind` in `load`, or undefined when it does not hold. `podDueMinutes`
 * serves `pod-overdue`, whose occurrence is the delivery: its duration is on the track's clock, as the
 * billing page counts it.
 */
export function alertCondition(
  kind: AlertKind,
  load: Load,
  now: number,
  thresholds: StalenessThresholds,
  podDueMinutes = 0,
): AlertCondition | undefined {
  if (kind === 'pod-overdue') {
    const overdue = podOverdueHours(load, now, podDueMinutes / 60);
    if (!overdue) return undefined;
    return {
      occurrence: `delivered ${overdue.deliveredAt}`,
      since: overdue.deliveredAt,
      what: `delivered ${Math.floor(overdue.hoursSince)} h ago, no POD`,
    };
  }
  // A delivered or cancelled load is done: nothing else is worth a call.
  if (isFinished(load.latestStatus)) return undefined;
  const outlook = load.outlook;
  const level = loadStaleness(load, now, thresholds);
  const dark =
    level === 'stale' || level === 'silent' || (level === 'unknown' && outlook?.dark !== undefined);
  const lastPing = load.latestLocation?.instant;
  const stop = nextStopOutlook(outlook);
  // A phone dark inside the stop's fence with no departure known: the stay is open, said as such.
  const dwell =
    stop && stop.progress === 'arrived'
      ? stopDwell(stop, now, outlook?.clockScale, darkAtStop(outlook, stop, lastPing, dark))
      : undefined;
  const openAt = stop && dwell?.open ? `${stopName(stop)}: ${openStayWords(dwell.open)}` : undefined;
  if (kind === 'dark') {
    if (!dark) return undefined;
    return {
      occurrence: lastPing === undefined ? 'no ping' : `ping ${lastPing}`,
      since: lastPing ?? outlook?.dark?.at,
      what:
        lastPing === undefined
          ? 'no ping yet'
          : `last ping ${utcTime(lastPing)}${openAt ? `; ${openAt}` : ''}`,
    };
  }
  if (!stop) return undefined;
  if (kind === 'detention') {
    if (stop.progress !== 'arrived' || stop.arrivedAt === undefined) return undefined;
    if (!dwell?.running || dwell.detentionMinutes <= 0) return undefined;
    const free = (dwell.freeMinutes * 60_000) / (outlook?.clockScale ?? 1);
    return {
      occurrence: stopOccurrence(stop, 'arrived'),
      since: stop.arrivedAt + free,
      what: openAt
        ? `${openAt}, free time ${dwell.freeMinutes} min`
        : `${stopName(stop)}: ${dwell.insideMinutes} min there, free time ${dwell.freeMinutes} min`,
    };
  }
  if (stop.progress !== 'upcoming') return undefined;
  const status = stopStatusAt(stop, now);
  if (status.status !== kind) return undefined;
  return {
    occurrence: stopOccurrence(stop, 'due'),
    since: status.passed ? stop.appointment?.instant : undefined,
    what: `${stopName(stop)}: ${stopStatusShort(stop, now)}`,
  };
}
