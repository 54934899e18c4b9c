import type { KeptStops, TripStop } from '@/contract/trip-stops';
import { tripStart } from './geofence';
import type { Load, StopOutlook } from './model';
import { stopsOf } from './outlook';

export type { KeptStops, TripStop };

/**
 * Each trip's stops, kept while the trip is current: the service sends only the trip under way's,
 * so an earlier trip's billing, share link and replay read the ones kept for it.
 */

/** One trip's kept stops, by the instant the trip began (`from` of its `TripSpan`). */
export interface TripStops extends KeptStops {
  /** Its first planning status (`tripStarts`); -Infinity for a track's first trip begun without one. */
  from: number;
}

/**
 * The current trip's stops as they are kept: what settled of each stop, nothing that moves with
 * each ping (an ETA, how late a stop not reached looks), so they change a few times a trip.
 * Undefined when the load has no stops read yet (no outlook).
 */
export function tripStopsOf(load: Pick<Load, 'events' | 'extras' | 'outlook'>): TripStops | undefined {
  const outlook = load.outlook;
  if (!outlook || outlook.stops.length === 0) return undefined;
  const ids = new Map(stopsOf(load.extras.stops).map((s) => [s.order, s.externalId]));
  return {
    from: tripStart(load.events) ?? -Infinity,
    stops: outlook.stops.map((s) => settledStop(s, ids.get(s.order))),
    ...(outlook.radiusMeters !== undefined && { radiusMeters: outlook.radiusMeters }),
  };
}

function settledStop(s: StopOutlook, externalId: string | undefined): TripStop {
  const reached = s.progress !== 'upcoming';
  const stop: TripStop = {
    order: s.order,
    progress: s.progress,
    status: reached || s.status === 'no-appointment' ? s.status : 'unknown',
  };
  if (externalId !== undefined) stop.externalId = externalId;
  if (s.type !== undefined) stop.type = s.type;
  if (s.name !== undefined) stop.name = s.name;
  if (s.place !== undefined) stop.place = s.place;
  if (s.zipcode !== undefined) stop.zipcode = s.zipcode;
  if (s.lat !== undefined && s.lon !== undefined) Object.assign(stop, { lat: s.lat, lon: s.lon });
  if (s.appointment !== undefined) stop.appointment = s.appointment;
  if (s.arrivedAt !== undefined) stop.arrivedAt = s.arrivedAt;
  if (s.departedAt !== undefined) stop.departedAt = s.departedAt;
  if (reached && s.lateMinutes !== undefined) stop.lateMinutes = s.lateMinutes;
  return stop;
}

/** Where a trip's kept stops are looked up by its load and start; undefined: none kept. */
export type KeptTripStops = (load: Pick<Load, 'by' | 'id'>, from: number) => TripStops | undefined;

/** A look-up over a list of kept trips, by load (`by`/`id`) and trip start. */
export function keptTripStops(rows: readonly (TripStops & { by: Load['by']; id: string })[]): KeptTripStops {
  const byKey = new Map(rows.map((r) => [`${r.by}|${r.id}|${r.from}`, r]));
  return (load, from) => byKey.get(`${load.by}|${load.id}|${from}`);
}
