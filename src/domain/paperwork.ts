import type { DeliveryStop, PaperworkState } from '@/contract/billing-api';
import { tripSpans } from './geofence';
import type { Document, Load } from './model';
import { paperKind, stopClockText, tripDocuments, type CheckedStop } from './pod-checks';
import { offsetText } from './outlook-text';
import { statusPhase } from './status-phase';

/**
 * Issue 37 parts 3 and 4: a load's paperwork by its PODs and the team's reviews of them, when it
 * was delivered, and whether its POD is overdue. Pure: the reviews and the clock come in.
 */

/** The latest decision on a document, by its address (what `document_reviews` keeps). */
export interface ReviewOf {
  decision: 'approved' | 'rejected' | 'pending';
  decidedBy: string;
  decidedAt: string;
}

/** The load as reviews name it: `e:9001`, `n:ABC`. */
export const loadRefOf = (load: Pick<Load, 'by' | 'id'>): string =>
  `${load.by === 'external-id' ? 'e' : 'n'}:${load.id}`;

/** The PODs of the load's current trip (by type), oldest first. */
export const podsOf = (load: Load) => tripDocuments(load).filter((d) => paperKind(d.type) === 'POD');

/**
 * `complete` once any POD is approved (one good copy is enough to bill); `to-review` while any is
 * undecided; `rejected` when every POD was rejected; with none, `missing` once delivered and
 * `on-the-road` before (a load still driving owes no proof of delivery yet).
 */
export function paperworkState(load: Load, reviews: ReadonlyMap<string, ReviewOf>): PaperworkState {
  return stateOfPods(podsOf(load), deliveredAt(load) !== undefined, reviews);
}

function stateOfPods(
  pods: readonly Document[],
  delivered: boolean,
  reviews: ReadonlyMap<string, ReviewOf>,
): PaperworkState {
  if (pods.length === 0) return delivered ? 'missing' : 'on-the-road';
  const decisions = pods.map((d) => reviews.get(d.url)?.decision ?? 'pending');
  if (decisions.includes('approved')) return 'complete';
  if (decisions.includes('pending')) return 'to-review';
  return 'rejected';
}

/**
 * The paperwork state of each trip of the load, oldest first: its earlier delivered trips' (a load
 * dispatched again under the same ids still owes them) and its current trip's, `paperworkState`.
 */
export function tripPaperworkStates(load: Load, reviews: ReadonlyMap<string, ReviewOf>): PaperworkState[] {
  const earlier = deliveredTrips(load).filter((t) => !t.current);
  return [...earlier.map((t) => stateOfPods(t.pods, true, reviews)), paperworkState(load, reviews)];
}

/** The approved POD a trip is billed on: the latest approved one of its PODs. */
export function approvedPod(
  pods: readonly Document[],
  reviews: ReadonlyMap<string, ReviewOf>,
): { url: string; review: ReviewOf } | undefined {
  for (const d of pods.toReversed()) {
    const review = reviews.get(d.url);
    if (review?.decision === 'approved') return { url: d.url, review };
  }
  return undefined;
}

/** When the load's trip ended in delivery (its latest status), else undefined. */
export function deliveredAt(load: Load): number | undefined {
  const status = load.latestStatus;
  return status && statusPhase(status) === 'delivered' ? status.instant : undefined;
}

/** A trip of a load that ended in delivery, and its PODs, oldest first. */
export interface DeliveredTrip {
  /** Where the trip begins (`TripSpan.from`): its kept stops' key. */
  from: number;
  deliveredAt: number;
  pods: Document[];
  /** The load's current trip: the stops the service sends are this trip's. */
  current: boolean;
}

/**
 * Every trip of the load that ended in delivery, oldest first: a service that reuses a load's ids
 * for its next trip sends the earlier trips' statuses and papers too, and each delivery is billed
 * on its own. The current trip is delivered by its latest status, an earlier one by its last
 * delivered status; a POD with no readable time is the current trip's, as `tripDocuments` has it.
 */
export function deliveredTrips(load: Load): DeliveredTrip[] {
  const trips: DeliveredTrip[] = [];
  for (const { from, to } of tripSpans(load.events)) {
    const current = to === Infinity;
    const inTrip = (instant: number) => instant >= from && instant < to;
    const at = current
      ? deliveredAt(load)
      : load.events.findLast((e) => inTrip(e.instant) && statusPhase(e) === 'delivered')?.instant;
    if (at === undefined) continue;
    const pods = load.documents.filter(
      (d) => paperKind(d.type) === 'POD' && (d.instant === null ? current : inTrip(d.instant)),
    );
    trips.push({ from, deliveredAt: at, pods, current });
  }
  return trips;
}

/** The stop a load was delivered at: its last delivery stop, else its last stop. */
export function deliveryStopOf(stops: readonly CheckedStop[]): DeliveryStop | undefined {
  const stop = stops.findLast((s) => s.type === 'delivery') ?? stops[stops.length - 1];
  if (!stop) return undefined;
  return {
    order: stop.order,
    ...(stop.name !== undefined && { name: stop.name }),
    ...(stop.place.city !== undefined && { city: stop.place.city }),
    ...(stop.place.state !== undefined && { state: stop.place.state }),
  };
}

/** The delivery's time on the stop's clock (`MM/DD/YYYY HH:mm`) and its zone, when the stop sent one. */
export function stopClock(instant: number, offsetHours: number | undefined) {
  if (offsetHours === undefined) return {};
  return {
    deliveredAtStop: stopClockText(instant, offsetHours).replace(/ GMT.*$/, ''),
    stopZone: offsetText(offsetHours),
  };
}

/**
 * The deliveries of any trip with no POD `dueHours` after them (on the track's clock), oldest
 * first: a load dispatched again under the same ids still owes its earlier trips' PODs.
 */
export function overdueTrips(
  load: Load,
  now: number,
  dueHours: number,
): (DeliveredTrip & { hoursSince: number })[] {
  const scale = load.outlook?.clockScale ?? 1;
  return deliveredTrips(load).flatMap((trip) => {
    const hoursSince = ((now - trip.deliveredAt) * scale) / 3_600_000;
    return trip.pods.length === 0 && hoursSince >= dueHours ? [{ ...trip, hoursSince }] : [];
  });
}

/** The latest overdue delivery (`overdueTrips`), the one an alert is about; undefined when none. */
export function podOverdueHours(
  load: Load,
  now: number,
  dueHours: number,
): { deliveredAt: number; hoursSince: number } | undefined {
  const latest = overdueTrips(load, now, dueHours).at(-1);
  return latest && { deliveredAt: latest.deliveredAt, hoursSince: latest.hoursSince };
}
