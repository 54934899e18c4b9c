import type { PodCheck, PodFlag, PodFlagKind } from '@/contract/billing-api';
import type { Document, Load, Place, StopOutlook } from './model';
import { DEFAULT_STOP_RADIUS_METERS, tripSpans, tripStart } from './geofence';
import { meters } from './outlook';
import { durationText, offsetText } from './outlook-text';
import { readStops } from './stops';
import type { KeptStops, KeptTripStops } from './trip-stops';

/**
 * Issue 37 part 2: each proof of delivery and bill of lading checked against the stop it names
 * (`stopOrderNumber`, else `stopExternalId`): where it was taken, when, and at what kind of stop.
 * Each mismatch is a flag with its reason in words, for a broker deciding whether to pay on it.
 * Pure; the proxy runs it on the loads it holds (the stops are read from `extras`, server side).
 */

/** A stop as the checks see it: its place and fence, its zone, and when the truck was there. */
export interface CheckedStop {
  order: number;
  externalId: string | undefined;
  type: 'pickup' | 'delivery' | undefined;
  name: string | undefined;
  place: Place;
  lat: number | undefined;
  lon: number | undefined;
  /** The stop's own fence: a document this near it (widened by its accuracy) was taken there. */
  radiusMeters: number;
  /** Hours from GMT at the stop, to say its times as its clock read them; undefined when unknown. */
  offsetHours: number | undefined;
  progress: StopOutlook['progress'] | undefined;
  arrivedAt: number | undefined;
  departedAt: number | undefined;
}

export type { PodCheck, PodFlag, PodFlagKind };

export interface PodCheckOptions {
  /**
   * Track minutes a document may come before the arrival unflagged: arrival by pings is the first
   * fix inside the fence, minutes after the truck rolled in.
   */
  beforeArrivalMinutes: number;
  /** A document uploaded this many track minutes after departure is still at the stop's paperwork. */
  afterDepartureMinutes: number;
  /** Track minutes per real minute (the simulator's speed in the demo). */
  clockScale: number;
}

export const DEFAULT_POD_CHECK_OPTIONS: PodCheckOptions = {
  beforeArrivalMinutes: 15,
  afterDepartureMinutes: 60,
  clockScale: 1,
};

/** POD or BOL by the document's type, in the spellings the service and drivers use; else undefined. */
export function paperKind(type: string | undefined): PodCheck['kind'] | undefined {
  if (type === undefined) return undefined;
  if (/\bPOD\b|proof[\s_-]*of[\s_-]*delivery/i.test(type)) return 'POD';
  if (/\bBOL\b|bill[\s_-]*of[\s_-]*lading/i.test(type)) return 'BOL';
  return undefined;
}

/** "650 m", "4.2 km", "38 km". */
export function distanceText(m: number): string {
  if (m < 1000) return `${Math.round(m / 10) * 10} m`;
  if (m < 10_000) return `${(m / 1000).toFixed(1)} km`;
  return `${Math.round(m / 1000)} km`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "11/24/2026 14:05 GMT-6" at the stop's clock; in UTC when its offset is unknown. */
export function stopClockText(instant: number, offsetHours: number | undefined): string {
  const d = new Date(instant + Math.round((offsetHours ?? 0) * 60) * 60_000);
  const text = `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
  return `${text} ${offsetHours === undefined ? 'UTC' : offsetText(offsetHours)}`;
}

/**
 * The stops of a load for the checks: places, ids and types from its `extras.stops`, arrival and
 * departure from its outlook (matched by order), the fence from the outlook's radius.
 */
export function checkedStopsOf(load: Load): CheckedStop[] {
  const outlook = load.outlook;
  const radiusMeters = outlook?.radiusMeters ?? DEFAULT_STOP_RADIUS_METERS;
  return readStops(load.extras.stops).map((s) => {
    const seen = outlook?.stops.find((o) => o.order === s.order);
    return {
      order: s.order,
      externalId: s.externalId,
      type: s.type,
      name: s.name,
      place: s.place,
      lat: s.lat,
      lon: s.lon,
      radiusMeters,
      offsetHours: s.appointment?.offsetHours,
      progress: seen?.progress,
      arrivedAt: seen?.arrivedAt,
      departedAt: seen?.departedAt,
    };
  });
}

/** The stops of an earlier trip for the checks, as they were kept while it was current. */
export function checkedStopsOfTrip(trip: KeptStops): CheckedStop[] {
  const radiusMeters = trip.radiusMeters ?? DEFAULT_STOP_RADIUS_METERS;
  return trip.stops.map((s) => ({
    order: s.order,
    externalId: s.externalId,
    type: s.type,
    name: s.name,
    place: s.place ?? {},
    lat: s.lat,
    lon: s.lon,
    radiusMeters,
    offsetHours: s.appointment?.offsetHours,
    progress: s.progress,
    arrivedAt: s.arrivedAt,
    departedAt: s.departedAt,
  }));
}

/**
 * Real milliseconds of slack for `minutes` on the track's clock, plus a minute: device times are
 * often written to the minute, which in the demo (60 track minutes a real one) is an hour.
 */
const slackMs = (minutes: number, clockScale: number) => (minutes * 60_000) / clockScale + 60_000;

const stopWords = (s: CheckedStop) => (s.type ? `the ${s.type} stop` : `stop ${s.order}`);

/** One document checked against its stop; undefined for a document that is neither a POD nor a BOL. */
export function checkDocument(
  doc: Document,
  stops: readonly CheckedStop[],
  o: PodCheckOptions = DEFAULT_POD_CHECK_OPTIONS,
): PodCheck | undefined {
  const kind = paperKind(doc.type);
  if (!kind) return undefined;
  const flags: PodFlag[] = [];
  const check: PodCheck = { url: doc.url, kind, instant: doc.instant, flags };
  const named = doc.stopOrderNumber ?? doc.stopExternalId;
  if (named === undefined) {
    flags.push({ kind: 'no-stop-named', text: 'no stop named' });
    return check;
  }
  const stop =
    doc.stopOrderNumber !== undefined
      ? stops.find((s) => s.order === doc.stopOrderNumber)
      : stops.find((s) => s.externalId === doc.stopExternalId);
  if (!stop) {
    flags.push({ kind: 'unknown-stop', text: `names stop ${named}, which the load does not have` });
    return check;
  }
  check.stopOrder = stop.order;

  const wanted = kind === 'POD' ? 'delivery' : 'pickup';
  if (stop.type !== undefined && stop.type !== wanted)
    flags.push({ kind: 'wrong-stop-type', text: `${kind} at a ${stop.type} stop` });

  if (!doc.position) flags.push({ kind: 'no-location', text: 'no location to check' });
  else if (stop.lat !== undefined && stop.lon !== undefined) {
    const d = meters(doc.position, { lat: stop.lat, lon: stop.lon });
    check.meters = d;
    // Both circles count in the document's favour: its fix may be off by its accuracy, and the stop
    // is a yard, not a point.
    if (d - (doc.position.accuracy ?? 0) - stop.radiusMeters > 0)
      flags.push({ kind: 'far-from-stop', text: `taken ${distanceText(d)} from ${stopWords(stop)}` });
  }

  if (doc.instant === null) flags.push({ kind: 'no-time', text: 'no time to check' });
  else if (doc.time.approximate)
    // A wall time read as UTC may be off by up to 14 hours: too unsure to hold against an arrival.
    flags.push({ kind: 'time-unsure', text: 'uploaded at a time whose zone is unknown' });
  else if (
    stop.arrivedAt !== undefined &&
    stop.arrivedAt - doc.instant > slackMs(o.beforeArrivalMinutes, o.clockScale)
  )
    flags.push({
      kind: 'before-arrival',
      text: `uploaded before arrival (${durationText(((stop.arrivedAt - doc.instant) * o.clockScale) / 60_000)} before; arrived ${stopClockText(stop.arrivedAt, stop.offsetHours)})`,
    });
  else if (stop.arrivedAt === undefined && stop.progress === 'upcoming')
    flags.push({
      kind: 'before-arrival',
      text: 'uploaded before arrival (the truck has not reached the stop)',
    });
  else if (
    stop.departedAt !== undefined &&
    doc.instant - stop.departedAt > slackMs(o.afterDepartureMinutes, o.clockScale)
  )
    flags.push({
      kind: 'after-departure',
      text: `uploaded ${durationText(((doc.instant - stop.departedAt) * o.clockScale) / 60_000)} after departure (left ${stopClockText(stop.departedAt, stop.offsetHours)})`,
    });
  return check;
}

/**
 * The documents of the load's current trip: a service that reuses a load's ids for its next trip
 * sends the earlier trip's papers too, and their stop numbers name the earlier trip's stops. A
 * document without a readable time stays (losing a POD would cost more).
 */
export function tripDocuments(load: Load): Document[] {
  const start = tripStart(load.events);
  return start === undefined
    ? load.documents
    : load.documents.filter((d) => d.instant === null || d.instant >= start);
}

/**
 * Every POD and BOL of the load, oldest first as the load lists them, each checked against its own
 * trip's stops: the current trip's as the service sends them, an earlier trip's (a load dispatched
 * again under the same ids) as `kept` has them; an earlier trip's paper whose stops were never kept
 * is flagged as such, unchecked.
 */
export function podChecks(load: Load, o?: Partial<PodCheckOptions>, kept?: KeptTripStops): PodCheck[] {
  const options = {
    ...DEFAULT_POD_CHECK_OPTIONS,
    clockScale: load.outlook?.clockScale ?? 1,
    ...o,
  };
  const stops = checkedStopsOf(load);
  const current = new Set(tripDocuments(load));
  const spans = current.size === load.documents.length ? [] : tripSpans(load.events);
  const earlier = new Map<number, CheckedStop[] | undefined>();
  const stopsOfTrip = (instant: number) => {
    const from = spans.find((s) => instant >= s.from && instant < s.to)?.from ?? -Infinity;
    if (!earlier.has(from)) {
      const trip = kept?.(load, from);
      earlier.set(from, trip && checkedStopsOfTrip(trip));
    }
    return earlier.get(from);
  };
  return load.documents.flatMap((d): PodCheck[] => {
    const own = current.has(d) ? stops : stopsOfTrip(d.instant as number);
    if (own) {
      const check = checkDocument(d, own, options);
      return check ? [check] : [];
    }
    const kind = paperKind(d.type);
    if (!kind) return [];
    const text = 'of an earlier trip under the same ids: its stops were not kept, so it was not checked';
    return [{ url: d.url, kind, instant: d.instant, flags: [{ kind: 'earlier-trip', text }] }];
  });
}
