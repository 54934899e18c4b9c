import type {
  OverdueLoad,
  PaperworkAnswer,
  PaperworkLoad,
  PaperworkState,
  PodCheck,
  ReadyLoad,
} from '@/contract/billing-api';
import type { DocumentReview } from '@/contract/review-api';
import type { Load } from '@/domain/model';
import {
  approvedPod,
  deliveredAt,
  deliveredTrips,
  deliveryStopOf,
  loadRefOf,
  overdueTrips,
  stopClock,
  tripPaperworkStates,
  type ReviewOf,
} from '@/domain/paperwork';
import { flagRank, isFaultFlag } from '@/domain/pod-flags';
import {
  checkedStopsOf,
  checkedStopsOfTrip,
  paperKind,
  podChecks,
  tripDocuments,
  type CheckedStop,
} from '@/domain/pod-checks';
import { tripSpans } from '@/domain/geofence';
import { hasEarlierTrip } from '@/domain/geofence';
import type { KeptTripStops } from '@/domain/trip-stops';

/**
 * Issue 37 parts 3 and 4 over the loads the proxy holds: each load's paperwork state and checks,
 * the delivered loads ready to bill, those whose POD is overdue, and the billing CSV.
 */

export const reviewsByUrl = (reviews: readonly DocumentReview[]): Map<string, ReviewOf> =>
  new Map(reviews.map((r) => [r.url, r]));

const idsOf = (load: Load) => ({
  ref: loadRefOf(load),
  by: load.by,
  id: load.id,
  ...(load.externalId !== undefined && { externalId: load.externalId }),
  ...(load.loadNumber !== undefined && { loadNumber: load.loadNumber }),
});

const iso = (instant: number) => new Date(instant).toISOString();

/** No trip's stops kept (a store that keeps none): an earlier trip's papers are not checked. */
const NONE_KEPT: KeptTripStops = () => undefined;

/**
 * Checks by load object: the track cache keeps a load's object until something of it changes, so a
 * page's refresh checks only the loads that changed since. A load with earlier trips is checked
 * again each time: its earlier trips' stops come from the store.
 */
const checked = new WeakMap<Load, PodCheck[]>();
function checksOf(load: Load, kept: KeptTripStops): PodCheck[] {
  if (kept !== NONE_KEPT && hasEarlierPapers(load)) return podChecks(load, undefined, kept);
  let checks = checked.get(load);
  if (checks === undefined) checked.set(load, (checks = podChecks(load)));
  return checks;
}

/** Whether the load has papers of a trip before its current one. */
const hasEarlierPapers = (load: Load) => tripDocuments(load).length !== load.documents.length;

/**
 * The starts of the load's earlier trips whose kept stops billing reads: those delivered (their
 * lines) and those with a POD or BOL (their checks).
 */
export function earlierTripsToRead(load: Load): number[] {
  if (!hasEarlierTrip(load.events)) return [];
  const starts = new Set(deliveredTrips(load).flatMap((t) => (t.current ? [] : [t.from])));
  const current = new Set(tripDocuments(load));
  const spans = tripSpans(load.events);
  for (const d of load.documents)
    if (!current.has(d) && d.instant !== null && paperKind(d.type))
      starts.add(spans.find((s) => d.instant! >= s.from && d.instant! < s.to)?.from ?? -Infinity);
  return [...starts];
}

/** A delivered trip's stops: the current trip's as sent, an earlier one's as kept (none when not). */
function stopsOfTrip(
  load: Load,
  trip: { from: number; current: boolean },
  kept: KeptTripStops,
): CheckedStop[] {
  if (trip.current) return checkedStopsOf(load);
  const stops = kept(load, trip.from);
  return stops ? checkedStopsOfTrip(stops) : [];
}

const decided = (review: ReviewOf | undefined) => review !== undefined && review.decision !== 'pending';

/**
 * How many trips of the held loads are in each paperwork state (each load's current trip, and its
 * earlier delivered trips when its ids were reused), and the loads with a POD or BOL with their
 * checks, the worst flags first; `flagged`: only the checks with a flag or of a
 * document not decided yet (approved or rejected), and the loads that have such a check.
 */
export function paperworkOf(
  loads: readonly Load[],
  reviews: ReadonlyMap<string, ReviewOf>,
  { flagged = false, kept = NONE_KEPT }: { flagged?: boolean; kept?: KeptTripStops } = {},
): PaperworkAnswer {
  const counts: Record<PaperworkState, number> = {
    'on-the-road': 0,
    missing: 0,
    'to-review': 0,
    rejected: 0,
    complete: 0,
  };
  const rows: (PaperworkLoad & { rank: number })[] = [];
  for (const load of loads) {
    const states = tripPaperworkStates(load, reviews);
    for (const s of states) counts[s]++;
    const state = states.at(-1) as PaperworkState;
    // A load without papers is only counted: most of a fleet on the road, and its stops unread.
    const all = load.documents.length === 0 ? [] : checksOf(load, kept);
    // A clean paper someone decided on is done with: most of a fleet's papers once the team keeps up.
    const checks = flagged
      ? all.filter((c) => c.flags.some(isFaultFlag) || !decided(reviews.get(c.url)))
      : all;
    if (checks.length === 0) continue;
    const at = deliveredAt(load);
    rows.push({
      ...idsOf(load),
      state,
      ...(at !== undefined && { deliveredAt: iso(at) }),
      checks,
      rank: Math.min(...checks.map(flagRank)),
    });
  }
  rows.sort((a, b) => a.rank - b.rank || a.ref.localeCompare(b.ref));
  return { held: loads.length, counts, loads: rows.map(({ rank: _rank, ...row }) => row) };
}

/** Days of delivery (UTC), both included. */
export interface DayRange {
  from?: string | undefined;
  to?: string | undefined;
}

/**
 * Deliveries with an approved POD, delivered within the range, oldest first: one row per trip, so
 * a load dispatched again under the same ids keeps its earlier deliveries to bill. An earlier trip's
 * delivery stop is known when its stops were kept (`kept`): the service sends the trip under way's.
 */
export function readyToBill(
  loads: readonly Load[],
  reviews: ReadonlyMap<string, ReviewOf>,
  range: DayRange = {},
  kept: KeptTripStops = NONE_KEPT,
): ReadyLoad[] {
  const start = range.from === undefined ? -Infinity : Date.parse(`${range.from}T00:00:00Z`);
  const end = range.to === undefined ? Infinity : Date.parse(`${range.to}T00:00:00Z`) + 86_400_000;
  const ready: (ReadyLoad & { at: number })[] = [];
  for (const load of loads) {
    for (const trip of deliveredTrips(load)) {
      const at = trip.deliveredAt;
      if (at < start || at >= end) continue;
      const pod = approvedPod(trip.pods, reviews);
      if (!pod) continue;
      const stops = stopsOfTrip(load, trip, kept);
      const stop = deliveryStopOf(stops);
      const offset = stops.find((s) => s.order === stop?.order)?.offsetHours;
      ready.push({
        ...idsOf(load),
        ...(stop && { deliveryStop: stop }),
        deliveredAt: iso(at),
        ...stopClock(at, offset),
        podUrl: pod.url,
        ...(!trip.current && { earlierTrip: true as const }),
        reviewedBy: pod.review.decidedBy,
        reviewedAt: pod.review.decidedAt,
        at,
      });
    }
  }
  ready.sort((a, b) => a.at - b.at || a.ref.localeCompare(b.ref));
  return ready.map(({ at: _at, ...row }) => row);
}

/**
 * Deliveries with no POD `dueHours` after them (on the track's clock), longest waiting first: one
 * row per trip, as the ready list has them.
 */
export function overdueLoads(
  loads: readonly Load[],
  now: number,
  dueHours: number,
  kept: KeptTripStops = NONE_KEPT,
): OverdueLoad[] {
  const overdue: OverdueLoad[] = [];
  for (const load of loads) {
    for (const trip of overdueTrips(load, now, dueHours)) {
      const stop = deliveryStopOf(stopsOfTrip(load, trip, kept));
      overdue.push({
        ...idsOf(load),
        ...(stop && { deliveryStop: stop }),
        deliveredAt: iso(trip.deliveredAt),
        ...(!trip.current && { earlierTrip: true as const }),
        hoursSince: Math.floor(trip.hoursSince * 10) / 10,
      });
    }
  }
  return overdue.sort((a, b) => b.hoursSince - a.hoursSince || a.ref.localeCompare(b.ref));
}

const CSV_COLUMNS = [
  'load_external_id',
  'load_number',
  'delivery_stop',
  'facility',
  'city',
  'state',
  'delivered_at_stop',
  'stop_zone',
  'delivered_at_utc',
  'pod_url',
  'reviewed_by',
  'reviewed_at',
  'earlier_trip',
] as const;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. Text a
 * spreadsheet would run as a formula (a facility named "=HYPERLINK(…)") gets a leading apostrophe.
 */
function csvField(value: string | number | undefined): string {
  if (value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The ready-to-bill list as CSV, one line per delivery, CRLF line ends. */
export function readyCsv(loads: readonly ReadyLoad[]): string {
  const lines = loads.map((l) =>
    [
      l.externalId,
      l.loadNumber,
      l.deliveryStop?.order,
      l.deliveryStop?.name,
      l.deliveryStop?.city,
      l.deliveryStop?.state,
      l.deliveredAtStop,
      l.stopZone,
      l.deliveredAt,
      l.podUrl,
      l.reviewedBy,
      l.reviewedAt,
      // A delivery of a trip before the load's current one (dispatched again under the same ids).
      l.earlierTrip ? 'yes' : undefined,
    ]
      .map(csvField)
      .join(','),
  );
  return [CSV_COLUMNS.join(','), ...lines].join('\r\n') + '\r\n';
}
