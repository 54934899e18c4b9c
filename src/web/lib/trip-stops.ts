import type { ItemTime, Load, Place } from '@/domain/model';
import { statusPhase } from '@/domain/status-phase';
import { appointmentOf as readAppointment } from '@/domain/appointment';
import { offsetText } from '@/domain/outlook-text';
import { isRecord } from '@/contract/records';

/**
 * A load's stops, read from its undocumented `extras.stops` (present only when the view asked for
 * extras: a load's own track does, the board does not). Odd shapes never fail: a stop that is not an
 * object is left out, and a list that is not one reads as "no stops known". The fields a trip is told
 * with are read by the names the service and the simulator use; whatever else a stop carries (fields
 * added later among them) is kept as label and text for a "details" disclosure.
 */
export interface TripStop {
  /** Its order number when it has one. */
  order: number | undefined;
  kind: 'pickup' | 'delivery' | undefined;
  /** The facility's name ("Acme DC, dock 4"), when sent. */
  name: string | undefined;
  place: Place;
  /** When the stop is due, when the service sends it. */
  appointment: StopAppointment | undefined;
  /** Every other field it sends, as label and text, in the order sent. */
  details: [label: string, value: string][];
}

/**
 * An appointment read as a time (its wall time and the stop's offset from GMT both sent), or, when
 * either is missing or unreadable, its text as sent: never a guessed zone. `wallTime` says whether
 * the text is a wall time (`MM/DD/YYYY HH:mm`) that lacks only its zone.
 */
export type StopAppointment = { instant: number; time: ItemTime } | { text: string; wallTime: boolean };

const MAX_STOPS = 100;
const MAX_DETAILS = 24;
const MAX_TEXT = 200;

const text = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;

/** A field's value as text: strings (cut when long), finite numbers, yes/no; undefined otherwise. */
function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') {
    const t = value.trim();
    if (t === '') return undefined;
    return t.length > MAX_TEXT ? `${t.slice(0, MAX_TEXT)}…` : t;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return undefined;
}

/** "stopOrderNumber" → "Stop order number", "stopGMTDiff" → "Stop GMT diff", "address.city" → "Address city". */
export function fieldLabel(key: string): string {
  const words = key
    .replace(/[._-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .trim()
    .split(/\s+/)
    // An abbreviation keeps its capitals; other words are lower-cased.
    .map((w) => (w.length > 1 && w === w.toUpperCase() && /[A-Z]/.test(w) ? w : w.toLowerCase()))
    .join(' ');
  return words ? words[0]!.toUpperCase() + words.slice(1) : key;
}

// The fields each part of the trip line is read from, first found first.
const ORDER = ['stopOrderNumber', 'orderNumber'];
const KIND = ['stopType', 'type', 'kind'];
const NAME = ['locationName', 'name', 'facilityName'];
const APPOINTMENT = ['datetime', 'appointment', 'appointmentTime'];
const GMT_DIFF = 'stopGMTDiff';
// The service's own ids mean nothing to a user (a stop's id in the partner's system does, and stays).
const HIDDEN = new Set(['id']);

function first(stop: Record<string, unknown>, keys: readonly string[]): [string, string] | undefined {
  for (const key of keys) {
    const t = text(stop[key]) ?? (typeof stop[key] === 'number' ? String(stop[key]) : undefined);
    if (t !== undefined) return [key, t];
  }
  return undefined;
}

function kindOf(word: string): TripStop['kind'] {
  if (/pick[- _]?up|shipper|origin/i.test(word)) return 'pickup';
  if (/deliver|drop[- _]?off|consignee|receiver|destination/i.test(word)) return 'delivery';
  return undefined;
}

function orderOf(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,4}$/.test(value)) return undefined;
  return Number(value);
}

/** "GMT-6", "GMT+5:30": an offset the service gives as hours, named as the stops' other times are. */
const offsetName = (minutes: number): string => offsetText(minutes / 60);

/**
 * `datetime` "MM/DD/YYYY HH:mm", the stop's local time, with `stopGMTDiff` its hours from GMT ("-6"),
 * read as the server reads them for its ETAs; anything else is shown as sent.
 */
function appointmentOf(sent: string, gmtDiff: unknown): StopAppointment {
  const read = readAppointment(sent, typeof gmtDiff === 'number' ? String(gmtDiff) : text(gmtDiff));
  if (!read) return { text: sent, wallTime: false };
  const hours = read.offsetHours;
  if (read.instant === undefined || hours === undefined) return { text: sent, wallTime: true };
  const offset = Math.round(hours * 60);
  const time: ItemTime = {
    instant: read.instant,
    approximate: false,
    local: `${sent} (GMT${hours < 0 ? '' : '+'}${hours})`,
    zone: offsetName(offset),
    zoneKnown: true,
    offset,
  };
  return { instant: read.instant, time };
}

function detailsOf(stop: Record<string, unknown>, used: ReadonlySet<string>): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(stop)) {
    if (used.has(key) || HIDDEN.has(key)) continue;
    const t = scalar(value);
    if (t !== undefined) out.push([fieldLabel(key), t]);
    else if (isRecord(value)) {
      for (const [inner, v] of Object.entries(value)) {
        if (used.has(`${key}.${inner}`) || HIDDEN.has(inner)) continue;
        const u = scalar(v);
        if (u !== undefined) out.push([fieldLabel(`${key}.${inner}`), u]);
      }
    }
    if (out.length >= MAX_DETAILS) break;
  }
  return out.slice(0, MAX_DETAILS);
}

function readStop(stop: Record<string, unknown>): TripStop {
  const used = new Set<string>();
  const take = (keys: readonly string[]) => {
    const found = first(stop, keys);
    if (found) used.add(found[0]);
    return found?.[1];
  };
  const order = orderOf(take(ORDER));
  const kind = kindOf(take(KIND) ?? '');
  const name = take(NAME);
  const address = isRecord(stop.address) ? stop.address : {};
  const place: Place = {};
  for (const key of ['city', 'state', 'country'] as const) {
    const own = text(stop[key]);
    const inAddress = own === undefined ? text(address[key]) : undefined;
    if (own !== undefined) used.add(key);
    if (inAddress !== undefined) used.add(`address.${key}`);
    const value = own ?? inAddress;
    if (value !== undefined) place[key] = value;
  }
  const sent = take(APPOINTMENT);
  let appointment: StopAppointment | undefined;
  if (sent !== undefined) {
    appointment = appointmentOf(sent, stop[GMT_DIFF]);
    if ('time' in appointment) used.add(GMT_DIFF);
  }
  return { order, kind, name, place, appointment, details: detailsOf(stop, used) };
}

/** The load's stops in trip order, or null when its answer carried no list of them. */
export function tripStops(load: Pick<Load, 'extras'>): TripStop[] | null {
  const stops = load.extras.stops;
  if (!Array.isArray(stops)) return null;
  const read = stops.slice(0, MAX_STOPS).filter(isRecord).map(readStop);
  // By their order numbers when every stop has one; else as they came.
  return read.every((s) => s.order !== undefined)
    ? read
        .map((s, i) => [s, i] as const)
        .sort(([a, i], [b, j]) => a.order! - b.order! || i - j)
        .map(([s]) => s)
    : read;
}

/** "Pickup", "Delivery", or "Stop 3" (its order number, else its place in the list). */
export function stopKindText(stop: TripStop, index: number): string {
  return stop.kind === 'pickup'
    ? 'Pickup'
    : stop.kind === 'delivery'
      ? 'Delivery'
      : `Stop ${stop.order ?? index + 1}`;
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
