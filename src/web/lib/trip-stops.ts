import type { Load, Place } from '@/domain/model';
import { statusPhase } from '@/domain/status-phase';

/**
 * A load's stops, read from its undocumented `extras.stops` (present only when the view asked for
 * extras: a load's own track does, the board does not). Odd shapes never fail: a stop that is not an
 * object is left out, and a list that is not one reads as "no stops known".
 */
export interface TripStop {
  /** Its order number when it has one. */
  order: number | undefined;
  kind: 'pickup' | 'delivery' | undefined;
  place: Place;
}

const text = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function kindOf(stop: Record<string, unknown>): TripStop['kind'] {
  const word = text(stop.stopType) ?? text(stop.type) ?? text(stop.kind) ?? '';
  if (/pick[- ]?up|shipper|origin/i.test(word)) return 'pickup';
  if (/deliver|drop[- ]?off|consignee|receiver|destination/i.test(word)) return 'delivery';
  return undefined;
}

function placeOf(stop: Record<string, unknown>): Place {
  const address = isRecord(stop.address) ? stop.address : {};
  const pick = (key: string) => text(stop[key]) ?? text(address[key]);
  const place: Place = {};
  const city = pick('city');
  const state = pick('state');
  const country = pick('country');
  if (city) place.city = city;
  if (state) place.state = state;
  if (country) place.country = country;
  return place;
}

/** The load's stops in trip order, or null when its answer carried no list of them. */
export function tripStops(load: Load): TripStop[] | null {
  const stops = load.extras.stops;
  if (!Array.isArray(stops)) return null;
  const read = stops.filter(isRecord).map((stop): TripStop => ({
    order: typeof stop.stopOrderNumber === 'number' ? stop.stopOrderNumber : undefined,
    kind: kindOf(stop),
    place: placeOf(stop),
  }));
  // By their order numbers when every stop has one; else as they came.
  return read.every((s) => s.order !== undefined)
    ? read
        .map((s, i) => [s, i] as const)
        .sort(([a, i], [b, j]) => a.order! - b.order! || i - j)
        .map(([s]) => s)
    : read;
}

/**
 * Where the load goes next, from its latest status and its stops, only where that is certain:
 * - `next`: the stop it heads for: before pickup, the first stop; after it, the other of two stops;
 * - `at`: the delivery stop, when its status says it is at delivery and it has two stops;
 * - `done`: delivered, no stop left;
 * - undefined when the stops are unknown, the status does not say where in its trip the load is, or
 *   more than one stop could be next (the service says nothing of which stops are done: with two
 *   pickups, "in transit" may be on the way to either).
 */
export type NextStop = { next: TripStop } | { at: TripStop } | { done: true };

export function nextStop(load: Load, stops: readonly TripStop[] | null): NextStop | undefined {
  const phase = statusPhase(load.latestStatus);
  if (phase === 'delivered') return { done: true };
  if (!stops || stops.length === 0) return undefined;
  const [first, second] = stops;
  if (phase === 'planned') return first!.kind === 'delivery' ? undefined : { next: first! };
  // After the pickup: certain with a pickup and a delivery, the kinds of each as said or unsaid.
  if (stops.length !== 2 || first!.kind === 'delivery' || second!.kind === 'pickup') return undefined;
  if (phase === 'pickup' || phase === 'transit') return { next: second! };
  if (phase === 'delivery') return { at: second! };
  return undefined;
}
