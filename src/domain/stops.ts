import { StopItem } from '@/contract/stop';
import { appointmentOf } from './appointment';
import type { Appointment, Place } from './model';

/**
 * A load's stops, read from the `stops` the service sends beside its documented fields. Lenient: a
 * stop that is not an object is left out, a field that cannot be read is absent, and a stop whose
 * appointment is missing has none: "no appointment", never a guessed one. Server side only (the
 * page gets the stops inside each load's outlook).
 */
export interface Stop {
  /** Its order number, or its place in the list (from 1) when it has none. */
  order: number;
  externalId: string | undefined;
  type: 'pickup' | 'delivery' | undefined;
  name: string | undefined;
  place: Place;
  zipcode: string | undefined;
  lat: number | undefined;
  lon: number | undefined;
  appointment: Appointment | undefined;
}

const MAX_STOPS = 100;

/** A number written as a number or as plain decimal text; undefined otherwise. */
function number(text: string | undefined): number | undefined {
  if (text === undefined || !/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(text)) return undefined;
  return Number(text);
}

function typeOf(text: string | undefined): Stop['type'] {
  if (text === undefined) return undefined;
  if (/pick[- _]?up|shipper|origin/i.test(text)) return 'pickup';
  if (/deliver|drop[- _]?off|consignee|receiver|destination/i.test(text)) return 'delivery';
  return undefined;
}

/** A stop's `lat` (limit 90) or `lon` (limit 180) as sent, as text, read; undefined when it is none. */
export const stopCoordinate = (text: string | undefined, limit: number) => {
  const n = number(text);
  return n !== undefined && Math.abs(n) <= limit ? n : undefined;
};

/** The stops of a load's `extras.stops`, in trip order (by order number, then as they came). */
export function readStops(raw: unknown): Stop[] {
  if (!Array.isArray(raw)) return [];
  const stops: Stop[] = [];
  for (const [i, item] of raw.slice(0, MAX_STOPS).entries()) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
    const parsed = StopItem.safeParse(item);
    if (!parsed.success) continue;
    const s = parsed.data;
    const order = number(s.orderNumber ?? s.stopOrderNumber);
    let lat = stopCoordinate(s.lat, 90);
    let lon = stopCoordinate(s.lon, 180);
    // A point needs both; 0,0 is an unset one, not the Gulf of Guinea.
    if (lat === undefined || lon === undefined || (lat === 0 && lon === 0)) lat = lon = undefined;
    const place: Place = {};
    if (s.city) place.city = s.city;
    if (s.state) place.state = s.state;
    if (typeof (item as Record<string, unknown>).country === 'string')
      place.country = ((item as Record<string, unknown>).country as string).trim() || undefined;
    if (place.country === undefined) delete place.country;
    stops.push({
      order: order !== undefined && Number.isInteger(order) ? order : i + 1,
      externalId: s.stopExternalId,
      type: typeOf(s.stopType),
      name: s.locationName,
      place,
      zipcode: s.zipcode,
      lat,
      lon,
      appointment: appointmentOf(s.datetime, s.stopGMTDiff),
    });
  }
  return stops
    .map((s, i) => [s, i] as const)
    .sort(([a, i], [b, j]) => a.order - b.order || i - j)
    .map(([s]) => s);
}
