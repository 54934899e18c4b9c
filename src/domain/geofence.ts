import type { Ping, StatusEvent } from './model';
import { statusPhase } from './status-phase';

/**
 * A stop's fence and the trip a track is on: shared by the proxy's outlook (`outlook.ts`) and the
 * page's evidence list (`dwell.ts`), so the page says what the proxy reckoned. Pure, and free of the
 * wire readers, so the page may import it.
 */

/** Pings less sure than this are left out of speeds and stops: a cell-tower fix is kilometres off. */
export const SURE_METERS = 500;

/** A stop's fence before a ping's accuracy widens it, when none is configured. */
export const DEFAULT_STOP_RADIUS_METERS = 300;

/** What the outlook and the fences read of a ping: its place, accuracy and time. */
export type TrackPoint = Pick<Ping, 'lat' | 'lon' | 'accuracy' | 'instant'>;

export const sure = (p: TrackPoint) => p.accuracy === null || p.accuracy <= SURE_METERS;

const toRad = (d: number) => (d * Math.PI) / 180;

/**
 * Distance in meters between two near points (pings minutes apart, a ping and a stop's radius): the
 * flat-earth reading, within a fraction of a percent of the great circle over a few kilometres and
 * several times cheaper; it only grows less exact with distance, never smaller than it should be by much.
 */
export function nearMeters(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const x = toRad(b.lon - a.lon) * Math.cos(toRad((a.lat + b.lat) / 2));
  const y = toRad(b.lat - a.lat);
  return 6_371_000 * Math.sqrt(x * x + y * y);
}

/**
 * When the load's current trip began: its first planning status ("created", "dispatched") after the
 * last delivery. A service that reuses a load's ids for its next trip sends one track for both; the
 * reasons and arrivals are of the trip now. Undefined: the whole track is one trip.
 */
export function tripStart(events: readonly StatusEvent[]): number | undefined {
  return tripStarts(events).at(-1);
}

/** Where each of the track's trips begins, oldest first, by `tripStart`'s rule. */
export function tripStarts(events: readonly StatusEvent[]): number[] {
  const starts: number[] = [];
  let delivered = true;
  for (const e of events) {
    const phase = statusPhase(e);
    if (phase === 'delivered') delivered = true;
    else if (phase === 'planned' && delivered) {
      starts.push(e.instant);
      delivered = false;
    }
  }
  return starts;
}

/** A status that says where in a trip a load is (not a message, an app notice or a code unknown). */
const ofATrip = (e: StatusEvent) => statusPhase(e) !== 'other';

/**
 * Whether the track had a trip before its current one: something of a trip's phases came before the
 * current trip's start. Messages before a track's first dispatch are that trip's, not another's.
 */
export function hasEarlierTrip(events: readonly StatusEvent[]): boolean {
  const start = tripStart(events);
  return start !== undefined && events.some((e) => e.instant < start && ofATrip(e));
}

/** One trip of a track: from its start (-Infinity: the track's first) to the next trip's (Infinity: none yet). */
export interface TripSpan {
  from: number;
  to: number;
}

/** The track's trips, oldest first, split where `tripStart`'s rule begins one; the last is under way. */
export function tripSpans(events: readonly StatusEvent[]): TripSpan[] {
  const bounds = [-Infinity, ...tripStarts(events), Infinity];
  return bounds.slice(0, -1).map((from, i) => ({ from, to: bounds[i + 1] as number }));
}

/**
 * The trip that was under way at `at` (a share link's making): of the track's trips that have any
 * status event, the last whose first event came by then, else the first to come. A link made between
 * two trips is of the one that ended: that is what was on the broker's screen.
 */
export function tripAt(events: readonly StatusEvent[], at: number): TripSpan {
  let chosen: TripSpan | undefined;
  for (const span of tripSpans(events)) {
    const inSpan = (e: StatusEvent) => e.instant >= span.from && e.instant < span.to;
    const first = events.find(inSpan);
    if (first === undefined) continue;
    // Messages before a track's first dispatch (nothing of a trip's phases among them) are that
    // trip's: a link made then is of the trip about to start, not of one that "ended" at its dispatch.
    if (span.from === -Infinity && span.to !== Infinity)
      if (!events.some((e) => inSpan(e) && ofATrip(e))) continue;
    if (first.instant > at) return chosen ?? span;
    chosen = span;
  }
  return chosen ?? { from: -Infinity, to: Infinity };
}

/**
 * Whether a ping is inside a stop's fence: within `radiusMeters` of its point, widened by the ping's
 * accuracy (a fix known only to 200 m that lands 450 m out may well be at the dock). Cell-tower
 * fixes count for nothing: neither inside nor out. The page's evidence list uses it too, so it
 * says what the proxy reckoned.
 */
export function pingAtStop(
  p: Ping,
  stop: { lat: number; lon: number },
  radiusMeters: number,
): { inside: boolean; meters: number; fence: number } | undefined {
  if (!sure(p)) return undefined;
  const d = nearMeters(p, stop);
  const fence = radiusMeters + (p.accuracy ?? 0);
  return { inside: d <= fence, meters: d, fence };
}
