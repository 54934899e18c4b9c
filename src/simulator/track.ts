import type { LoadDetailWire } from '@/contract/load-detail';
import { instantOf, minuteAt, pickupArrivalMinute, positionAt, type LoadPlan, type Point } from './fleet';
import { nearestPlace, type Place } from './places';
import { hash32, unit } from './random';

/**
 * The items of one load up to a moment, in the upstream's wire shapes (upstream-api.md 2.4-2.6),
 * with device-local timestamps in the zone where the device was, daylight saving included.
 */

type Wire<K extends keyof LoadDetailWire> = NonNullable<LoadDetailWire[K]>;
type LocationWire = Wire<'locations'>[number];
type EventWire = Wire<'events'>[number];
type CommentWire = Wire<'comments'>[number];
type DocumentWire = Wire<'documents'>[number];
type ReadingWire = Wire<'temperatures'>[number];

export interface TrackOptions {
  speed: number;
  seed: number;
  /** Public base URL of the simulator, for document addresses. */
  publicUrl: string;
}

/** How far north of its delivery stop a `far` POD is taken. */
export const POD_FAR_KM = 38;

/**
 * What goes wrong with a trip's proof of delivery (issue 37: billing checks it): one trip in ten
 * never gets one, one in ten gets one taken 38 km from the stop. Drawn apart from the fleet's
 * streams, so that nothing else of a trip changes.
 */
export function podQuirk(
  plan: Pick<LoadPlan, 'index' | 'trip'>,
  seed: number,
): 'missing' | 'far' | undefined {
  const draw = (hash32(seed, plan.index, plan.trip, 0x90d) >>> 0) % 10;
  return draw === 0 ? 'missing' : draw === 1 ? 'far' : undefined;
}

/** An item with the real instant it came into being, for `sendNewData` cursors. */
export interface Timed<T> {
  at: number;
  item: T;
}

export interface Track {
  pings: Timed<LocationWire & { city: Place; point: Point }>[];
  events: Timed<EventWire & { main: boolean }>[];
  comments: Timed<CommentWire>[];
  documents: Timed<DocumentWire>[];
  readings: Timed<ReadingWire>[];
}

// --- time formatting in the device's zone -------------------------------------------------------

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** ICU writes some zones as offsets (Newfoundland; Yukon and Sonora, on MST all year); devices don't. */
const OFFSET_NAMES: Record<string, string> = {
  'GMT-3:30': 'NST',
  'GMT-2:30': 'NDT',
  'GMT-7': 'MST',
  UTC: 'UTC',
  GMT: 'GMT',
};

export interface Stamps {
  timestampSec: string;
  timestamp: string;
  timestampUTC: string;
}

/** A zone's offset from UTC (minutes) and abbreviation at an instant, from ICU. */
function zoneAt(instant: number, zone: string): { offset: number; abbr: string } {
  const parts: Record<string, string> = {};
  for (const p of formatter(zone).formatToParts(instant)) parts[p.type] = p.value;
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  const abbr = OFFSET_NAMES[parts.timeZoneName ?? ''] ?? parts.timeZoneName ?? 'UTC';
  return { offset: Math.round((wall - Math.floor(instant / 1000) * 1000) / 60_000), abbr };
}

/**
 * ICU is slow per call, and offsets only change on the hour or half hour (daylight saving), so the
 * offset and abbreviation are looked up once per zone and 15-minute slot, and the text built by hand.
 */
const SLOT_MS = 15 * 60_000;
const zoneSlots = new Map<string, { offset: number; abbr: string }>();
function zoneInSlot(instant: number, zone: string): { offset: number; abbr: string } {
  const slot = Math.floor(instant / SLOT_MS);
  const key = `${zone}|${slot}`;
  let found = zoneSlots.get(key);
  if (!found) {
    if (zoneSlots.size > 100_000) zoneSlots.clear();
    found = zoneAt(slot * SLOT_MS, zone);
    zoneSlots.set(key, found);
  }
  return found;
}

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

function wallText(ms: number): { date: string; minute: string; second: string } {
  const d = new Date(ms);
  const date = `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()}`;
  const minute = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
  return { date, minute, second: pad(d.getUTCSeconds()) };
}

export function stamps(instant: number, zone: string): Stamps {
  const { offset, abbr } = zoneInSlot(instant, zone);
  const local = wallText(instant + offset * 60_000);
  const utc = wallText(instant);
  return {
    timestampSec: `${local.date} ${local.minute}:${local.second} ${abbr}`,
    timestamp: `${local.date} ${local.minute} ${abbr}`,
    timestampUTC: `${utc.date} ${utc.minute}:${utc.second} UTC`,
  };
}

/**
 * A stop's appointment as the service writes it: `MM/DD/YYYY HH:mm` in the stop's zone, and its
 * offset from GMT at that moment in hours, as text (`stopGMTDiff`).
 */
export function appointmentText(instant: number, zone: string): { datetime: string; stopGMTDiff: string } {
  const { offset } = zoneInSlot(instant, zone);
  const local = wallText(instant + offset * 60_000);
  return { datetime: `${local.date} ${local.minute}`, stopGMTDiff: String(offset / 60) };
}

export function gmtText(instant: number): string {
  return new Date(instant).toISOString().slice(0, 19).replace('T', ' ');
}

// --- the schedule of a load -----------------------------------------------------------------------

/** What the service says when a phone stops reporting in a way it notices (issue 36's dark phones). */
const DARK_NOTICES: Partial<Record<NonNullable<LoadPlan['dark']>, string>> = {
  'app-closed': 'Tracking stopped: app closed by the driver',
  permission: 'Location permission changed to While Using',
  'phone-off': 'Device powered off',
};

interface ScheduledEvent {
  minute: number;
  name: string;
  code: string | null;
  /** What `latestStatus` reports. */
  main: boolean;
  /** Sent by the driver's phone (none once it is dark), not by the service. */
  phone: boolean;
}

/** Status events of a load in simulated minutes, in time order. */
function statusSchedule(plan: LoadPlan, silentMinute: number): ScheduledEvent[] {
  const end = plan.driveMinutes;
  const event = (minute: number, name: string, code: string | null, main: boolean, phone: boolean) => ({
    minute,
    name,
    code,
    main,
    phone,
  });
  const list = [
    event(-240, 'Load track created', 'CRT', true, false),
    event(-230, 'Sent text message to driver', null, false, false),
    event(-200, 'Driver has viewed the load track', null, false, false),
    event(-180, 'Dispatched', 'DSP', true, false),
    event(pickupArrivalMinute(plan), 'Arrived at pickup', 'APU', true, true),
    event(-2, 'Loaded', 'LDD', true, true),
    event(0, 'Departed pickup', 'DPU', true, true),
    event(5, 'In transit', 'ITR', true, true),
    event(end, 'Arrived at delivery', 'ADL', true, true),
    event(end + 50, 'Delivered', 'DLV', true, true),
    // After "Delivered", so that the latest status stays what the dispatcher looks for.
    event(end + 58, 'Departed delivery', 'DDL', false, true),
  ];
  if (plan.appNotInstalled) list.splice(2, 0, event(-215, 'App not installed', null, false, false));
  const notice = plan.dark && DARK_NOTICES[plan.dark];
  if (notice && Number.isFinite(silentMinute)) {
    const at = list.findIndex((e) => e.minute > silentMinute);
    list.splice(at < 0 ? list.length : at, 0, event(silentMinute, notice, null, false, false));
  }
  return list;
}

const DRIVER_COMMENTS = [
  'Running about 30 min behind, traffic on the interstate',
  'Fuel stop, back on the road in 20',
  'Receiver says dock 4, waiting to be called in',
  'Seal intact, pallets look good',
  'Weather slowing me down, will update',
];
const BROKER_COMMENTS = [
  'Please send the POD as soon as you unload',
  'Receiver asked for an ETA update',
  'Thanks, got the BOL',
];

/**
 * The index a load's items draw their randomness from: its slot's for its first trip, another per
 * later trip, so that a slot's trips do not repeat one another's fixes and comments.
 */
const noiseOf = (plan: LoadPlan): number => plan.index + plan.trip * 0x100000;

/**
 * A status event's id: unique across a slot's trips (which keep the load's ids), the first trip's
 * as they were (externalId * 100 + n).
 */
const eventId = (plan: LoadPlan, n: number): number => plan.trip * 1e10 + plan.externalId * 100 + n;

/** A document's address: the first trip's as they were, a later trip's with its number. */
const documentUrl = (o: TrackOptions, plan: LoadPlan, n: number): string =>
  `${o.publicUrl}/_sim/documents/${plan.externalId}/${n}.svg${plan.trip > 0 ? `?trip=${plan.trip}` : ''}`;

function accuracyFor(plan: LoadPlan, i: number, seed: number): number {
  const u = unit(seed, noiseOf(plan), i, 0xacc);
  if (u < 0.03) return Math.round(1000 + unit(seed, noiseOf(plan), i, 1) * 2000); // cell-tower fix
  if (u < 0.12) return Math.round(100 + unit(seed, noiseOf(plan), i, 2) * 400);
  return Math.round(5 + unit(seed, noiseOf(plan), i, 3) * 40);
}

/** Displaces a point by up to its accuracy, the way a poor fix wanders. */
function jitter(p: Point, meters: number, a: number, b: number): Point {
  const r = (meters * Math.sqrt(a)) / 111_320;
  const t = b * 2 * Math.PI;
  return { lat: p.lat + r * Math.sin(t), lon: p.lon + (r * Math.cos(t)) / Math.cos((p.lat * Math.PI) / 180) };
}

const fix = (n: number) => n.toFixed(6);

/**
 * Everything of a load that exists at real instant `now`, oldest first within each kind. With
 * `after`, pings and readings up to that instant may be left out (a `sendNewData: yes` pull needs only
 * what is newer), except the last of each, which the latest location and temperature report. Each
 * item is the same either way: a long track is not built whole for every delta pull.
 */
export function trackAt(plan: LoadPlan, now: number, o: TrackOptions, after = -Infinity): Track {
  const at = (minute: number) => instantOf(plan, minute, o.speed);
  const afterMinute = minuteAt(plan, after, o.speed);
  /** First index of a series (item i at `start + i * every`, late by up to `late`) that may be newer than `after`. */
  const firstNewer = (start: number, every: number, late: number, last: number) =>
    Math.max(
      0,
      Math.min(Math.floor((afterMinute - late - start) / every), Math.floor((last - start) / every)) - 1,
    );
  // What the phone sends stops when it goes silent; the reefer unit and the broker go on.
  const phoneMinute = minuteAt(plan, Math.min(now, plan.silentSince ?? Infinity), o.speed);
  const nowMinute = minuteAt(plan, now, o.speed);
  const track: Track = { pings: [], events: [], comments: [], documents: [], readings: [] };
  const pickup = plan.stops[0] as (typeof plan.stops)[number];
  const delivery = plan.stops[plan.stops.length - 1] as (typeof plan.stops)[number];

  // Pings: from arrival at pickup until shortly after delivery, unless the phone went silent. An
  // intermittent phone drops out now and then (runs of four pings) before it goes dark.
  const lastPingMinute = Math.min(phoneMinute, plan.driveMinutes + 60);
  const firstPingMinute = plan.bulk ? 0 : pickupArrivalMinute(plan);
  for (
    let i = firstNewer(firstPingMinute, plan.pingEveryMinutes, 0.8, lastPingMinute);
    firstPingMinute + i * plan.pingEveryMinutes <= lastPingMinute;
    i++
  ) {
    const minute = firstPingMinute + i * plan.pingEveryMinutes + unit(o.seed, noiseOf(plan), i, 7) * 0.8;
    if (minute > lastPingMinute) break;
    if (plan.dark === 'intermittent' && unit(o.seed, noiseOf(plan), Math.floor(i / 4), 0x1dd) < 0.4) continue;
    const accuracy = accuracyFor(plan, i, o.seed);
    const point = jitter(
      positionAt(plan, minute),
      accuracy,
      unit(o.seed, noiseOf(plan), i, 8),
      unit(o.seed, noiseOf(plan), i, 9),
    );
    const city = nearestPlace(point);
    const instant = at(minute);
    track.pings.push({
      at: instant,
      item: {
        lat: fix(point.lat),
        lon: fix(point.lon),
        accuracy,
        deviceTimeGmt: gmtText(instant),
        timestamp: stamps(instant, city.zone).timestamp,
        driver: plan.driver,
        city,
        point,
      },
    });
  }

  const silentMinute = plan.silentSince === undefined ? Infinity : minuteAt(plan, plan.silentSince, o.speed);
  statusSchedule(plan, silentMinute).forEach((e, n) => {
    // Notices come from the service; the driver's statuses from the phone.
    if (e.minute > (e.phone ? phoneMinute : nowMinute)) return;
    const instant = at(e.minute);
    const zone =
      e.minute <= 0
        ? pickup.city.zone
        : e.minute >= plan.driveMinutes
          ? delivery.city.zone
          : nearestPlace(positionAt(plan, e.minute)).zone;
    track.events.push({
      at: instant,
      item: {
        id: eventId(plan, n),
        ...stamps(instant, zone),
        name: e.name,
        code: e.code,
        driver: plan.driver,
        main: e.main,
      },
    });
  });

  // The long track's check-ins (ids far from the schedule's: externalId * 100 + n).
  const bulkEvents = plan.bulk?.events ?? 0;
  for (let k = 0; k < bulkEvents; k++) {
    const minute = (plan.driveMinutes * (k + 0.5)) / bulkEvents;
    if (minute > phoneMinute) break;
    const instant = at(minute);
    track.events.push({
      at: instant,
      item: {
        id: plan.externalId * 100_000 + 50_000 + k,
        ...stamps(instant, nearestPlace(positionAt(plan, minute)).zone),
        name: 'In transit',
        code: 'ITR',
        driver: plan.driver,
        main: true,
      },
    });
  }

  const commentCount = Math.floor(unit(o.seed, noiseOf(plan), 0xc0) * 4);
  for (let c = 0; c < commentCount; c++) {
    const minute = Math.round(plan.driveMinutes * (0.1 + 0.85 * unit(o.seed, noiseOf(plan), c, 0xc1)));
    const byDriver = unit(o.seed, noiseOf(plan), c, 0xc2) < 0.65;
    if (minute > (byDriver ? phoneMinute : nowMinute)) continue;
    const point = positionAt(plan, minute);
    const city = nearestPlace(point);
    const instant = at(minute);
    const pick = (list: string[]) =>
      list[Math.floor(unit(o.seed, noiseOf(plan), c, 0xc3) * list.length)] as string;
    track.comments.push({
      at: instant,
      item: {
        comment: byDriver ? pick(DRIVER_COMMENTS) : pick(BROKER_COMMENTS),
        commentBy: byDriver ? 'D' : 'B',
        ...stamps(instant, city.zone),
        ...(byDriver
          ? {
              location: {
                lat: fix(point.lat),
                lon: fix(point.lon),
                accuracy: 15,
                city: city.name,
                state: city.state,
                country: city.country,
              },
              driver: plan.driver,
            }
          : {}),
      },
    });
  }

  const docs: { minute: number; type: string; stop: (typeof plan.stops)[number] }[] = [
    { minute: 1, type: 'BOL', stop: pickup },
    { minute: 3, type: 'PICTURE', stop: pickup },
    { minute: plan.driveMinutes + 40, type: 'POD', stop: delivery },
    { minute: plan.driveMinutes + 42, type: 'PICTURE', stop: delivery },
  ];
  const bulkDocuments = plan.bulk?.documents ?? 0;
  for (let k = 0; k < bulkDocuments; k++) {
    const minute = (plan.driveMinutes * (k + 0.5)) / bulkDocuments;
    if (minute > phoneMinute) break;
    const instant = at(minute);
    const point = positionAt(plan, minute);
    const city = nearestPlace(point);
    track.documents.push({
      at: instant,
      item: {
        type: 'PICTURE',
        timestamp: stamps(instant, city.zone).timestamp,
        url: documentUrl(o, plan, docs.length + k + 1),
        location: {
          lat: fix(point.lat),
          lon: fix(point.lon),
          accuracy: 20,
          city: city.name,
          state: city.state,
          country: city.country,
        },
        driver: plan.driver,
      },
    });
  }
  const quirk = podQuirk(plan, o.seed);
  docs.forEach((d, n) => {
    if (d.minute > phoneMinute || (d.type === 'POD' && quirk === 'missing')) return;
    const instant = at(d.minute);
    const c = d.stop.city;
    const north = d.type === 'POD' && quirk === 'far' ? POD_FAR_KM / 111.195 : 0;
    track.documents.push({
      at: instant,
      item: {
        type: d.type,
        timestamp: stamps(instant, c.zone).timestamp,
        url: documentUrl(o, plan, n + 1),
        location: {
          lat: fix(c.lat + north),
          lon: fix(c.lon),
          accuracy: 20,
          city: c.name,
          state: c.state,
          country: c.country,
        },
        stopExternalId: d.stop.stopExternalId,
        stopOrderNumber: d.stop.stopOrderNumber,
        driver: plan.driver,
      },
    });
  });

  if (plan.reefer) {
    const lastReading = Math.min(nowMinute, plan.driveMinutes + 30);
    // A simulated minute is 1/speed of a real one: a reading a real minute is `speed` simulated ones.
    const [from, every] = plan.bulk
      ? [plan.driveMinutes + 30 - (plan.bulk.readings - 1) * o.speed, o.speed]
      : [0, 15];
    const first = firstNewer(from, every, 0, lastReading);
    for (let i = first, m = from + first * every; m <= lastReading; m += every, i++) {
      const instant = at(m);
      const point = positionAt(plan, m);
      const inExcursion = plan.excursion !== undefined && m >= plan.excursion[0] && m <= plan.excursion[1];
      const noise = (k: number) => (unit(o.seed, noiseOf(plan), i, k) - 0.5) * 1.2;
      const rise = inExcursion ? 6 + 4 * Math.sin(((m - (plan.excursion?.[0] ?? 0)) / 60) * Math.PI) : 0;
      track.readings.push({
        at: instant,
        item: {
          deviceId: `RF-${plan.externalId}`,
          location: { latitude: fix(point.lat), longitutde: fix(point.lon), accuracy: 25 },
          timestamp: stamps(instant, nearestPlace(point).zone).timestamp,
          temperature: {
            zone1: {
              supply: Math.round((plan.setPoint - 1.5 + noise(1) + rise * 0.6) * 10) / 10,
              return: Math.round((plan.setPoint + 2.5 + noise(2) + rise) * 10) / 10,
              set: plan.setPoint,
            },
            UnitOfMeasurement: 'Fahrenheit',
          },
        },
      });
    }
  }
  return track;
}

/** The tracks of a load's trips, oldest first, as one track: each kind still in time order. */
export function joinTracks(tracks: readonly Track[]): Track {
  return {
    pings: tracks.flatMap((t) => t.pings),
    events: tracks.flatMap((t) => t.events),
    comments: tracks.flatMap((t) => t.comments),
    documents: tracks.flatMap((t) => t.documents),
    readings: tracks.flatMap((t) => t.readings),
  };
}
