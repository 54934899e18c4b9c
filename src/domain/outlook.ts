import { dequal } from 'dequal';
import type { DarkReason, Load, Outlook, StatusEvent, StopOutlook } from './model';
import { isFinished, statusPhase } from './status-phase';
import { readStops, type Stop } from './stops';
import {
  DEFAULT_STOP_RADIUS_METERS,
  nearMeters,
  sure,
  SURE_METERS,
  tripStart,
  type TrackPoint,
} from './geofence';

export { tripStart };

/**
 * What the proxy reckons of a load from its whole track, each time the track changes: the ETA and
 * lateness of each stop still to come, each stop's arrival and departure, and why its phone would
 * be dark. Pure: the same track and options give the same outlook.
 *
 * Durations are on the track's clock: `clockScale` is 1 for a real service, and the simulator's speed
 * in the demo (its trucks cover an hour's road in a minute), so that "52 mph" and "one 10 h rest"
 * mean what they say there too.
 */
export interface OutlookOptions {
  /** Road distance per great-circle distance. */
  roadFactor: number;
  /** An ETA this many minutes or less before the appointment is "at risk". */
  slackMinutes: number;
  /** Hours of driving before a rest, and the rest's length. */
  driveHours: number;
  restHours: number;
  /** A ping this near a stop (plus its accuracy) is at the stop. */
  stopRadiusMeters: number;
  /** Minutes at a stop before detention starts. */
  freeMinutes: number;
  /** Speed used when too few recent pings moved, and the bounds of a measured one. */
  defaultMph: number;
  minMph: number;
  maxMph: number;
  clockScale: number;
}

export const DEFAULT_OUTLOOK_OPTIONS: OutlookOptions = {
  roadFactor: 1.2,
  slackMinutes: 60,
  driveHours: 11,
  restHours: 10,
  stopRadiusMeters: DEFAULT_STOP_RADIUS_METERS,
  freeMinutes: 120,
  defaultMph: 50,
  minMph: 20,
  maxMph: 65,
  clockScale: 1,
};

const HOUR = 3_600_000;
const METERS_PER_MILE = 1609.344;
/** Slower than this between two pings is standing still (a fix's wander, a yard). */
const MOVING_MPH = 5;
/** A gap longer than this between two pings is no evidence of driving. */
const MAX_SEGMENT_HOURS = 1;
/** The recent stretch a speed is measured over, and the least moving time it needs. */
export const SPEED_WINDOW_HOURS = 3;
const SPEED_MIN_HOURS = 0.25;
/** Pings looked at for the usual cadence and its gaps. */
export const CADENCE_WINDOW = 200;
const GAP_FACTOR = 3;
const INTERMITTENT_GAPS = 3;
const REST_TOLERANCE = 0.95;
/**
 * A truck outside a stop's fence that is back inside within this many hours never left: a fix that
 * wandered, or a move across the yard to another door.
 */
const BOUNCE_HOURS = 0.5;

const toRad = (d: number) => (d * Math.PI) / 180;
/** Great-circle distance in meters. */
export function meters(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const dLat = toRad(b.lat - a.lat);
  const dLon = toRad(b.lon - a.lon);
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(toRad(a.lat)) * Math.cos(toRad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * Index of the first item at or after `instant` in a list sorted by instant. `guess`: the answer
 * for the list as it was last read, which is checked against its two neighbours first: a list that
 * grew at its end keeps it, and a search touches items scattered in memory.
 */
function firstFrom<T extends { instant: number }>(
  items: readonly T[],
  instant: number | undefined,
  guess?: number,
): number {
  if (instant === undefined) return 0;
  if (
    guess !== undefined &&
    guess <= items.length &&
    (guess === 0 || items[guess - 1]!.instant < instant) &&
    (guess === items.length || items[guess]!.instant >= instant)
  )
    return guess;
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((items[mid] as T).instant < instant) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The items from the trip's start on: the list itself when all are (no copy). */
function tripPart<T extends { instant: number }>(
  items: readonly T[],
  start: number | undefined,
): readonly T[] {
  const from = firstFrom(items, start);
  return from === 0 ? items : items.slice(from);
}

type Visit = 'arrive-pickup' | 'depart-pickup' | 'arrive-delivery' | 'depart-delivery';
const VISIT_CODES: ReadonlyMap<string, Visit> = new Map([
  ['APU', 'arrive-pickup'],
  ['X3', 'arrive-pickup'],
  ['DPU', 'depart-pickup'],
  ['AF', 'depart-pickup'],
  ['ADL', 'arrive-delivery'],
  ['X1', 'arrive-delivery'],
  ['DDL', 'depart-delivery'],
  ['CD', 'depart-delivery'],
]);

/** What a status event says of a stop: arrived at or departed from a pickup or a delivery. */
export function visitOf(e: { name?: string | undefined; code?: string | undefined }): Visit | undefined {
  const byCode = e.code ? VISIT_CODES.get(e.code.trim().toUpperCase()) : undefined;
  if (byCode) return byCode;
  const name = e.name ?? '';
  if (/\bnot\b|\bunable\b|\battempt|\bscheduled\b/i.test(name)) return undefined;
  const where = /pick[- ]?up|shipper/i.test(name)
    ? 'pickup'
    : /deliver|receiver|consignee/i.test(name)
      ? 'delivery'
      : undefined;
  if (!where) return undefined;
  if (/\barriv/i.test(name)) return `arrive-${where}`;
  if (/\bdepart|\bleft\b/i.test(name)) return `depart-${where}`;
  return undefined;
}

/** What kind of notice an event is, from its words; undefined when it is no notice about tracking. */
export function noticeKindOf(name: string | undefined): DarkReason['noticeKind'] | undefined {
  if (!name) return undefined;
  if (/not installed|uninstall/i.test(name)) return 'not-installed';
  if (/permission|while using|location (access|services?) (off|disabled|denied)|always/i.test(name))
    return 'permission';
  if (/power(ed)? off|phone (is )?off|shut ?down|battery/i.test(name)) return 'phone-off';
  if (
    /app (was )?(closed|terminated|killed|stopped)|force[- ]?(quit|closed)|tracking (stopped|paused)/i.test(
      name,
    )
  )
    return 'app-closed';
  if (/\b(gps|location|tracking)\b.*\b(lost|unavailable|off)\b/i.test(name)) return 'other';
  return undefined;
}

/** Hours on the track's clock between two instants. */
const hoursBetween = (a: number, b: number, o: OutlookOptions) => ((b - a) * o.clockScale) / HOUR;

/** Speed between two pings in mph, on the track's clock; undefined when no time passed. */
function mphBetween(a: TrackPoint, b: TrackPoint, o: OutlookOptions): number | undefined {
  const h = hoursBetween(a.instant, b.instant, o);
  return h > 0 ? nearMeters(a, b) / METERS_PER_MILE / h : undefined;
}

/** Slack beyond the two fixes' accuracies before their distance counts as a move. */
const WANDER_METERS = 100;

/**
 * Whether the truck moved between two pings: farther apart than their fixes wander (their
 * accuracies and a little more), at a driving pace. A parked truck's fixes wander by their accuracy.
 * Their distance when it moved, else undefined.
 */
export function movedMeters(a: TrackPoint, b: TrackPoint, o: OutlookOptions): number | undefined {
  const h = hoursBetween(a.instant, b.instant, o);
  if (h <= 0) return undefined;
  // One distance for the pace and the wander: these loops run over every trip's pings.
  const d = nearMeters(a, b);
  return d / METERS_PER_MILE / h >= MOVING_MPH && d > (a.accuracy ?? 0) + (b.accuracy ?? 0) + WANDER_METERS
    ? d
    : undefined;
}

/** In `Moves`, a ping that is not sure: no move begins or ends at it. */
const NOT_SURE = -1;
/** In `Moves`, the trip's first sure ping: the first move begins there, none ends there. */
const FIRST_SURE = -2;
/** `Moves`' first room, and the least it grows by. */
const MOVES_ROOM = 16;

/**
 * The moves between a trip's consecutive sure pings, each reckoned once, in the order of the pings:
 * the metres moved (NaN when the truck did not move, see `movedMeters`). The recent speed and the
 * hours driven since the last rest are kept as the moves come, not walked back over at each reckoning.
 *
 * One number per ping read, at the ping's index: the moves' instants are the pings' own, read from
 * the pings the memo is kept for rather than copied (the trail holds them already). Only the speed
 * window's are read again (the moves leaving it), so only those are held: one is held per watched
 * load. Exported for its tests.
 */
export class Moves {
  private data: Float64Array;
  /** The index of the ping `data[0]` is of: those before it are out of the speed's window. */
  private offset = 0;
  /** Pings read. */
  private read = 0;
  /** How many moves. */
  length = 0;
  /** The last sure ping read. */
  last: TrackPoint | undefined;
  /**
   * The speed's window: the index of the sure ping its oldest move begins at, and the milliseconds
   * and micrometres of its driving moves. Whole numbers (exact below 2^53 µm, about 9 million km), so that a
   * move taken out leaves exactly the sums of those left; a memo fed the same pings in any batches
   * does the same sums as a fresh reckoning.
   */
  private windowFrom = -1;
  /** The instant of the window's first ping: the moves' check for leaving reads no old ping. */
  private windowFromAt = 0;
  private windowMs = 0;
  private windowUm = 0;
  /** Milliseconds driven since the last stand long enough to be a rest, and of the stand going on. */
  private drivenMs = 0;
  private stillMs = 0;

  constructor() {
    this.data = new Float64Array(MOVES_ROOM);
  }

  /** The bytes its numbers take. */
  get bytes(): number {
    return this.data.byteLength;
  }

  /** Reads `pings[i]`, the trip's next ping (those before it are the ones read). */
  add(pings: readonly TrackPoint[], i: number, o: OutlookOptions): void {
    const p = pings[i]!;
    if (this.read - this.offset + 1 > this.data.length) this.makeRoom();
    if (!sure(p)) {
      this.data[this.read++ - this.offset] = NOT_SURE;
      return;
    }
    const a = this.last;
    this.last = p;
    if (!a) {
      this.data[this.read++ - this.offset] = FIRST_SURE;
      this.windowFrom = i;
      this.windowFromAt = p.instant;
      return;
    }
    const d = movedMeters(a, p, o) ?? Number.NaN;
    this.data[this.read++ - this.offset] = d;
    this.length++;
    const ms = p.instant - a.instant;
    if (driving(ms, d, o)) {
      this.windowMs += ms;
      this.windowUm += Math.round(d * 1e6);
      if (isRest(this.stillMs, o)) this.drivenMs = 0;
      this.stillMs = 0;
      this.drivenMs += ms;
    } else this.stillMs += ms;
    // The moves that began more than the window's hours before this ping leave it, oldest first.
    let from = this.windowFrom;
    let fromAt = this.windowFromAt;
    while (from < i && hoursBetween(fromAt, p.instant, o) > SPEED_WINDOW_HOURS) {
      let to = from + 1;
      while (this.data[to - this.offset] === NOT_SURE) to++;
      const gone = this.data[to - this.offset]!;
      const toAt = pings[to]!.instant;
      const goneMs = toAt - fromAt;
      if (driving(goneMs, gone, o)) {
        this.windowMs -= goneMs;
        this.windowUm -= Math.round(gone * 1e6);
      }
      from = to;
      fromAt = toAt;
    }
    this.windowFrom = from;
    this.windowFromAt = fromAt;
  }

  /**
   * Room for the next ping: the numbers before the window's first ping are let go (never read again),
   * and the array grown only when the window fills most of it, or cut when it holds far more.
   */
  private makeRoom(): void {
    const from = Math.max(this.offset, this.windowFrom);
    const live = this.read - from;
    const length = this.data.length;
    const size =
      live + 1 > (length * 3) >> 2 || live * 4 < length - MOVES_ROOM
        ? live + Math.max(MOVES_ROOM, live >> 1)
        : length;
    const [start, end] = [from - this.offset, this.read - this.offset];
    if (size === length) this.data.copyWithin(0, start, end);
    else {
      const next = new Float64Array(size);
      next.set(this.data.subarray(start, end));
      this.data = next;
    }
    this.offset = from;
  }

  /** The trip's recent moving speed, bounded; the default when too few pings moved. */
  speed(o: OutlookOptions): { mph: number; measured: boolean } {
    const hours = (this.windowMs * o.clockScale) / HOUR;
    if (hours < SPEED_MIN_HOURS) return { mph: o.defaultMph, measured: false };
    const miles = this.windowUm / 1e6 / METERS_PER_MILE;
    return { mph: Math.min(o.maxMph, Math.max(o.minMph, miles / hours)), measured: true };
  }

  /**
   * Hours driven since the driver's last rest: moving time since a stand of `restHours` (or the
   * trip's start, before which the driver is taken as rested), at most `driveHours`.
   */
  drivenSinceRest(o: OutlookOptions): number {
    if (isRest(this.stillMs, o)) return 0;
    return Math.min((this.drivenMs * o.clockScale) / HOUR, o.driveHours);
  }
}

/** Whether a move of `ms` and `metres` (NaN: it did not move) is driving: no gap too long to tell. */
const driving = (ms: number, metres: number, o: OutlookOptions) =>
  !Number.isNaN(metres) && (ms * o.clockScale) / HOUR <= MAX_SEGMENT_HOURS;

/**
 * Whether a stand of `ms` is a rest. The pings either side of a stand moved for part of their
 * interval: a stand within a few minutes of the rule's length is the rest.
 */
const isRest = (ms: number, o: OutlookOptions) => (ms * o.clockScale) / HOUR >= o.restHours * REST_TOLERANCE;

/** Hours of a drive with its rest breaks, given the hours already driven since the last rest. */
export function withRests(
  driveHours: number,
  driven: number,
  o: Pick<OutlookOptions, 'driveHours' | 'restHours'>,
): { hours: number; rests: number; drivenAfter: number } {
  let left = driveHours;
  let available = Math.max(0, o.driveHours - driven);
  let rests = 0;
  // A drive that ends exactly when the hours run out needs no rest first.
  while (left > available + 1e-9) {
    left -= available;
    rests++;
    available = o.driveHours;
  }
  return { hours: driveHours + rests * o.restHours, rests, drivenAfter: o.driveHours - available + left };
}

/**
 * How a stop stands against its appointment, by an instant (an ETA or an arrival): written into its
 * `view` (its status, then its minutes late), which is returned.
 */
function judge(
  view: StopOutlook,
  stop: Stop,
  at: number | undefined,
  o: OutlookOptions,
  upcoming: boolean,
): StopOutlook {
  const appointment = stop.appointment;
  if (!appointment) view.status = 'no-appointment';
  else if (appointment.instant === undefined || at === undefined) view.status = 'unknown';
  else {
    const lateMinutes = Math.round(((at - appointment.instant) * o.clockScale) / 60_000);
    view.status =
      lateMinutes > 0 ? 'late' : upcoming && lateMinutes > -o.slackMinutes ? 'at-risk' : 'on-time';
    view.lateMinutes = lateMinutes;
  }
  return view;
}

interface Visits {
  arrivedAt: number | undefined;
  departedAt: number | undefined;
  arrivedBy: 'event' | 'pings' | undefined;
  departedBy: 'event' | 'pings' | undefined;
}

/**
 * Where the search for a stay at one stop stands: the arrival (the first sure ping inside the fence)
 * and the departure (the first sure ping outside after it that the truck does not come back from
 * within `BOUNCE_HOURS`); `next`, the ping to read on from when the track grows. A departure is
 * `settled` once a ping came after its bounce window: later pings cannot take it back.
 */
interface StayScan {
  arrivedAt: number | undefined;
  departedAt: number | undefined;
  settled: boolean;
  next: number;
}

const newStayScan = (): StayScan => ({
  arrivedAt: undefined,
  departedAt: undefined,
  settled: false,
  next: 0,
});

/**
 * The same test as `pingAtStop`, without its answer object (this runs over every trip's pings);
 * `reach`: the fence's widest in degrees of latitude.
 */
const inside = (p: TrackPoint, stop: { lat: number; lon: number }, radius: number, reach: number) =>
  Math.abs(p.lat - stop.lat) <= reach && nearMeters(p, stop) <= radius + (p.accuracy ?? 0);

/** Reads `pings` on from `scan.next`, as if the scan had read them all from the first. */
function scanStay(
  pings: readonly TrackPoint[],
  stop: { lat: number; lon: number },
  o: Pick<OutlookOptions, 'stopRadiusMeters' | 'clockScale'>,
  scan: StayScan,
): void {
  if (scan.settled) return;
  // A degree of latitude is 111 km: most pings are that far from a stop, and are told so cheaply.
  const reach = (o.stopRadiusMeters + SURE_METERS) / 111_000;
  const radius = o.stopRadiusMeters;
  let i = scan.next;
  if (scan.arrivedAt === undefined) {
    // Before the arrival, the cheap latitude test first: it rules out nearly every ping.
    for (; i < pings.length; i++) {
      const p = pings[i] as TrackPoint;
      if (Math.abs(p.lat - stop.lat) <= reach && sure(p) && inside(p, stop, radius, reach)) {
        scan.arrivedAt = p.instant;
        break;
      }
    }
    if (scan.arrivedAt === undefined) {
      scan.next = pings.length;
      return;
    }
    i++;
  }
  // A departure not settled is judged again, with the pings that came since.
  scan.departedAt = undefined;
  for (; i < pings.length; i++) {
    const p = pings[i] as TrackPoint;
    if (!sure(p)) continue;
    if (inside(p, stop, radius, reach)) continue;
    let back = false;
    let closed = false;
    for (let j = i + 1; j < pings.length; j++) {
      const q = pings[j] as TrackPoint;
      if (((q.instant - p.instant) * o.clockScale) / HOUR > BOUNCE_HOURS) {
        closed = true;
        break;
      }
      if (sure(q) && inside(q, stop, radius, reach)) {
        back = true;
        break;
      }
    }
    if (!back) {
      scan.departedAt = p.instant;
      scan.settled = closed;
      scan.next = i;
      return;
    }
  }
  scan.next = pings.length;
}

/**
 * What one reckoning of a load read, kept by its caller for the next (one per load): when the
 * trip's pings only grew since, the stays and moves are read on from where they stood, not from the
 * trip's start. Any other change (a new trip, new stops or options, a ping that came in before the
 * last one read, a trail thinned) starts them again.
 */
export interface OutlookMemo {
  options?: OutlookOptions;
  start?: number | undefined;
  stops?: readonly Stop[];
  /** The trip's pings read, and the instant of the last of them. */
  read?: number;
  last?: number | undefined;
  stays?: StayScan[];
  moves?: Moves;
  cadence?: Cadence;
  /** The load's events read last, and what they said: the trip's start, and arrivals and departures. */
  events?: readonly StatusEvent[];
  eventStops?: readonly Stop[];
  tripStart?: number | undefined;
  eventVisits?: readonly Visits[];
  /** The trip's part of `events` (`tripPart`). */
  tripEvents?: readonly StatusEvent[];
  /** Where the trip's pings began in the track last read. */
  tripFrom?: number;
  /** The load's raw stops last read, and what `stopsOf` read of them; the extras they were read from. */
  rawStops?: unknown;
  readStops?: Stop[];
  extras?: Load['extras'];
  /** The latest status last read, and what it says (`statusOf`). */
  status?: Load['latestStatus'];
  statusRead?: StatusRead;
  /** The instant of `events`' last. */
  lastEventAt?: number;
  /**
   * The stop views of the stops reached at the last reckoning, and what each was made from (its
   * visits and progress), for these stops and options: a stop behind the load is the same object
   * from one outlook to the next, until what it was made from changes.
   */
  reached?: { stops: readonly Stop[]; o: OutlookOptions; views: (ReachedView | undefined)[] };
}

/** A reached stop's view, and the visits and progress it was made from. */
interface ReachedView {
  view: StopOutlook;
  progress: StopOutlook['progress'];
  visits: Visits;
}

/** Whether two stops' visits say the same. */
const sameVisits = (a: Visits, b: Visits) =>
  a.arrivedAt === b.arrivedAt &&
  a.arrivedBy === b.arrivedBy &&
  a.departedAt === b.departedAt &&
  a.departedBy === b.departedBy;

/** What the outlook reads of a load's latest status: whether it is finished, its phase, its instant. */
interface StatusRead {
  finished: boolean;
  phase: ReturnType<typeof statusPhase>;
  at: number;
}

/** What `status` says, read again only when it is another object than the memo's last. */
function statusOf(memo: OutlookMemo, status: Load['latestStatus']): StatusRead {
  if (memo.statusRead && memo.status === status) return memo.statusRead;
  const read = {
    finished: isFinished(status),
    phase: statusPhase(status),
    at: status?.instant ?? -Infinity,
  };
  memo.status = status;
  memo.statusRead = read;
  return read;
}

/**
 * The trip's start and what its events say of each stop: read again only when the load's events or
 * stops are new objects (a merge that brought no event keeps the list), as each event's words are
 * matched against patterns.
 */
function readEvents(
  memo: OutlookMemo,
  events: readonly StatusEvent[],
  stops: readonly Stop[],
): {
  start: number | undefined;
  byEvents: readonly Visits[];
  tripEvents: readonly StatusEvent[];
  lastEventAt: number;
} {
  if (memo.events !== events || memo.eventStops !== stops || !memo.eventVisits || !memo.tripEvents) {
    const start = tripStart(events);
    const tripEvents = tripPart(events, start);
    Object.assign(memo, {
      events,
      eventStops: stops,
      tripStart: start,
      tripEvents,
      eventVisits: visitsByEvents(stops, tripEvents),
      lastEventAt: events[events.length - 1]?.instant ?? -Infinity,
    });
  }
  return {
    start: memo.tripStart,
    byEvents: memo.eventVisits!,
    tripEvents: memo.tripEvents!,
    lastEventAt: memo.lastEventAt!,
  };
}

/** The stay scans and moves of these pings, gone on with from `memo` when `pings` only grew since. */
function readOn(
  memo: OutlookMemo,
  o: OutlookOptions,
  start: number | undefined,
  stops: readonly Stop[],
  pings: readonly TrackPoint[],
): { stays: StayScan[]; moves: Moves; cadence: Cadence } {
  const read = memo.read ?? 0;
  let from = read;
  if (
    !memo.stays ||
    !memo.moves ||
    !memo.cadence ||
    memo.options !== o ||
    memo.start !== start ||
    memo.stops !== stops ||
    read > pings.length ||
    (read > 0 && pings[read - 1]!.instant !== memo.last) ||
    (read > 0 && read < pings.length && !(pings[read]!.instant > memo.last!))
  ) {
    const stays = stops.map(newStayScan);
    const cadence = Cadence.of(pings);
    Object.assign(memo, { options: o, start, stops, stays, moves: new Moves(), cadence });
    from = 0;
  } else for (let i = from; i < pings.length; i++) memo.cadence!.add(pings, i);
  const moves = memo.moves!;
  for (let i = from; i < pings.length; i++) moves.add(pings, i, o);
  memo.read = pings.length;
  memo.last = pings[pings.length - 1]?.instant;
  return { stays: memo.stays!, moves, cadence: memo.cadence! };
}

/** Arrival and departure at each stop by the service's events (a lone pickup or delivery). */
function visitsByEvents(stops: readonly Stop[], events: readonly StatusEvent[]): Visits[] {
  const lone = (type: 'pickup' | 'delivery') => {
    const of = stops.filter((s) => s.type === type);
    return of.length === 1 ? of[0] : undefined;
  };
  const pickup = lone('pickup');
  const delivery = lone('delivery');
  const out = stops.map((): Visits => ({
    arrivedAt: undefined,
    departedAt: undefined,
    arrivedBy: undefined,
    departedBy: undefined,
  }));
  for (const e of events) {
    const visit = visitOf(e);
    if (!visit) continue;
    const stop = visit.endsWith('pickup') ? pickup : delivery;
    const v = stop ? out[stops.indexOf(stop)] : undefined;
    if (!v) continue;
    if (visit.startsWith('arrive')) {
      if (v.arrivedAt === undefined) [v.arrivedAt, v.arrivedBy] = [e.instant, 'event'];
    } else if (v.departedAt === undefined) [v.departedAt, v.departedBy] = [e.instant, 'event'];
  }
  return out;
}

/** Arrival and departure at each stop: from the service's events (`byEvents`), else its pings. */
function visits(
  stops: readonly Stop[],
  pings: readonly TrackPoint[],
  byEvents: readonly Visits[],
  o: OutlookOptions,
  scans: readonly StayScan[],
): Visits[] {
  // The events' own object when the pings add nothing (only read): a new one for each changed load else.
  return stops.map((stop, i) => {
    const byEvent = byEvents[i]!;
    if (stop.lat === undefined || stop.lon === undefined) return byEvent;
    const stay = scans[i]!;
    scanStay(pings, stop as { lat: number; lon: number }, o, stay);
    // The earlier arrival holds: a driver who taps "arrived" late has waited since the first ping in.
    const arrives =
      stay.arrivedAt !== undefined && (byEvent.arrivedAt === undefined || stay.arrivedAt < byEvent.arrivedAt);
    const departs = byEvent.departedAt === undefined && stay.departedAt !== undefined;
    if (!arrives && !departs) return byEvent;
    const v = { ...byEvent };
    if (arrives) [v.arrivedAt, v.arrivedBy] = [stay.arrivedAt, 'pings'];
    if (departs) [v.departedAt, v.departedBy] = [stay.departedAt, 'pings'];
    return v;
  });
}

/** Index of the first of `sorted`'s first `length` values greater than `value` (all when none). */
function firstAbove(sorted: Float64Array | Uint32Array, length: number, value: number): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The gaps between a trip's last `CADENCE_WINDOW` pings, sorted: the usual gap (the median) and the
 * long ones are read for every changed load, and a new ping moves one gap in and one out instead of
 * the window being sorted again. The gap that leaves is read from the pings, which hold it: one is
 * held per watched load, so its gaps are 32-bit while they are whole milliseconds under 49 days
 * (a phone's are), 64-bit from the first that is not. Exported for its tests.
 */
export class Cadence {
  private sorted: Float64Array | Uint32Array = new Uint32Array(CADENCE_WINDOW - 1);
  length = 0;

  /** The bytes its gaps take. */
  get bytes(): number {
    return this.sorted.byteLength;
  }

  private hold(gap: number, at: number): void {
    if (this.sorted instanceof Uint32Array && !(Number.isInteger(gap) && gap >= 0 && gap <= 0xffff_ffff))
      this.sorted = Float64Array.from(this.sorted);
    this.sorted[at] = gap;
  }

  /** The gaps between the last `CADENCE_WINDOW` of these pings (one sort). */
  static of(pings: readonly TrackPoint[]): Cadence {
    const c = new Cadence();
    const from = Math.max(0, pings.length - CADENCE_WINDOW);
    for (let i = from + 1; i < pings.length; i++)
      c.hold(pings[i]!.instant - pings[i - 1]!.instant, c.length++);
    c.sorted.subarray(0, c.length).sort();
    return c;
  }

  /** Takes in `pings[i]`, the first of them not read yet: those before it are the ones read. */
  add(pings: readonly TrackPoint[], i: number): void {
    if (i === 0) return;
    const gap = pings[i]!.instant - pings[i - 1]!.instant;
    if (this.length === this.sorted.length) {
      // The window is full: its oldest gap is the one before the window's first ping.
      const first = i - CADENCE_WINDOW + 1;
      const out = pings[first]!.instant - pings[first - 1]!.instant;
      const at = firstAbove(this.sorted, this.length, out) - 1;
      this.sorted.copyWithin(at, at + 1, this.length);
      this.length--;
    }
    const to = firstAbove(this.sorted, this.length, gap);
    this.sorted.copyWithin(to + 1, to, this.length);
    this.hold(gap, to);
    this.length++;
  }

  /** The median gap, as the `length >> 1`th smallest. */
  usual(): number {
    return this.sorted[this.length >> 1]!;
  }

  /** How many gaps are longer than `bar`. */
  longerThan(bar: number): number {
    return this.length - firstAbove(this.sorted, this.length, bar);
  }
}

/**
 * Why the load's phone would be dark, from the trip's pings and events; `lastEventAt`, the instant of
 * the last event (-Infinity when none).
 */
function darkReason(
  pings: readonly TrackPoint[],
  cadence: Cadence,
  events: readonly StatusEvent[],
  lastEventAt: number,
  stops: readonly Stop[],
  o: OutlookOptions,
): DarkReason {
  const last = pings[pings.length - 1];
  // The service's own notice, if one came about when the pings stopped or after: the events are
  // not read when the last came well before the last ping, as nearly always.
  const noticeFrom = last ? last.instant - 60_000 : -Infinity;
  for (let i = lastEventAt < noticeFrom ? -1 : events.length - 1; i >= 0; i--) {
    const e = events[i] as StatusEvent;
    if (e.instant < noticeFrom) break;
    const kind = noticeKindOf(e.name);
    if (kind) return { reason: 'notice', at: e.instant, notice: e.name, noticeKind: kind };
  }
  if (!last) {
    const dispatched = events.find((e) => statusPhase(e) === 'planned');
    return { reason: 'never-started', at: dispatched?.instant };
  }
  for (const stop of stops) {
    if (stop.lat === undefined || stop.lon === undefined || !sure(last)) continue;
    const d = nearMeters(last, { lat: stop.lat, lon: stop.lon });
    if (d <= o.stopRadiusMeters + (last.accuracy ?? 0))
      return { reason: 'at-stop', at: last.instant, stopOrder: stop.order, meters: Math.round(d) };
  }
  // At least 8 pings in the window: 7 gaps.
  if (cadence.length >= 7) {
    const usual = cadence.usual();
    const long = cadence.longerThan(GAP_FACTOR * usual);
    if (usual > 0 && long >= INTERMITTENT_GAPS)
      return {
        reason: 'intermittent',
        at: last.instant,
        gaps: long,
        usualMinutes: Math.round(((usual * o.clockScale) / 60_000) * 10) / 10,
      };
  }
  // The last three sure pings (fewer when there are not three): read for every changed load, so no list.
  let end: TrackPoint | undefined;
  let first: TrackPoint | undefined;
  for (let i = pings.length - 1, n = 0; i >= 0 && n < 3; i--)
    if (sure(pings[i]!)) {
      first = pings[i]!;
      end ??= first;
      n++;
    }
  const mph = first && end && first !== end ? mphBetween(first, end, o) : undefined;
  if (
    mph !== undefined &&
    mph >= MOVING_MPH &&
    hoursBetween(first!.instant, end!.instant, o) <= MAX_SEGMENT_HOURS
  )
    return { reason: 'moving', at: last.instant, mph: Math.round(mph) };
  return { reason: 'stopped', at: last.instant };
}

/** A load's stops, read once per list: a merge that brings no new stops keeps the list object. */
const readStopLists = new WeakMap<object, Stop[]>();
export function stopsOf(raw: unknown): Stop[] {
  if (typeof raw !== 'object' || raw === null) return readStops(raw);
  let stops = readStopLists.get(raw);
  if (!stops) readStopLists.set(raw, (stops = readStops(raw)));
  return stops;
}

/**
 * The outlook of a load's track; undefined when there is nothing to say (no stops, finished).
 * `track`: the pings to read, when not the load's own (the puller's bounded `Trail`); `memo`: what
 * the load's last reckoning read, to go on from (see `OutlookMemo`).
 */
export function loadOutlook(
  load: Load,
  o: OutlookOptions = DEFAULT_OUTLOOK_OPTIONS,
  track: readonly TrackPoint[] = load.pings,
  memo: OutlookMemo = {},
): Outlook | undefined {
  // What the load's extras, status and events say, read again only when they are new objects: a
  // merge keeps each that brought nothing new, and the old objects are cold in memory by then.
  let stops = memo.readStops;
  if (!stops || memo.extras !== load.extras) {
    const raw = load.extras.stops;
    // The memo's own list while the raw stops are the same object: no look-up in `stopsOf`'s WeakMap.
    if (!stops || memo.rawStops !== raw) {
      stops = stopsOf(raw);
      memo.rawStops = raw;
      memo.readStops = stops;
    }
    memo.extras = load.extras;
  }
  const status = statusOf(memo, load.latestStatus);
  const finished = status.finished;
  if (stops.length === 0 && finished) return undefined;
  const { start, byEvents, tripEvents: events, lastEventAt } = readEvents(memo, load.events, stops);
  const tripFrom = firstFrom(track, start, memo.tripFrom);
  memo.tripFrom = tripFrom;
  const pings = tripFrom === 0 ? track : track.slice(tripFrom);
  const asOf = Math.max(
    load.latestLocation?.instant ?? -Infinity,
    status.at,
    track[track.length - 1]?.instant ?? -Infinity,
    lastEventAt,
  );
  if (!Number.isFinite(asOf)) return undefined;

  const { stays, moves, cadence } = readOn(memo, o, start, stops, pings);
  const seen = visits(stops, pings, byEvents, o, stays);
  // A lone pickup is behind a load in transit; a lone delivery is reached once its status says so.
  const phase = status.phase;
  let pickups = 0;
  let deliveries = 0;
  for (const s of stops)
    if (s.type === 'pickup') pickups++;
    else if (s.type === 'delivery') deliveries++;
  const pastPickup = phase === 'transit' || phase === 'delivery' || finished;
  const progress = stops.map((s, i): StopOutlook['progress'] => {
    const v = seen[i] as Visits;
    if (v.departedAt !== undefined || (s.type === 'pickup' && pastPickup && pickups === 1)) return 'departed';
    if (v.arrivedAt !== undefined) return 'arrived';
    if (s.type === 'delivery' && (phase === 'delivery' || finished) && deliveries === 1) return 'arrived';
    return 'upcoming';
  });
  // Stops are made in order: every one before a stop reached is behind the load.
  const reached = progress.findLastIndex((p) => p !== 'upcoming');
  for (let i = 0; i < reached; i++) progress[i] = 'departed';

  // ETAs start from the last known position, at its time.
  const lastPing = pings[pings.length - 1];
  const basis =
    load.latestLocation && (!lastPing || load.latestLocation.instant >= lastPing.instant)
      ? load.latestLocation
      : lastPing;
  const speed = moves.speed(o);
  let driven = moves.drivenSinceRest(o);
  let from: { lat: number; lon: number } | undefined = basis;
  let hours = 0;
  let miles = 0;
  let rests = 0;

  if (memo.reached?.stops !== stops || memo.reached.o !== o) memo.reached = { stops, o, views: [] };
  const reachedViews = memo.reached.views;
  const out: StopOutlook[] = stops.map((stop, i) => {
    const v = seen[i] as Visits;
    // A reached stop's view is made of its stop, the options, its visits and its progress alone.
    const kept = reachedViews[i];
    if (kept && kept.progress === progress[i] && sameVisits(kept.visits, v)) return kept.view;
    const view: StopOutlook = {
      order: stop.order,
      place: stop.place,
      progress: progress[i]!,
      status: 'unknown',
    };
    if (stop.type) view.type = stop.type;
    if (stop.name) view.name = stop.name;
    if (stop.zipcode) view.zipcode = stop.zipcode;
    if (stop.lat !== undefined && stop.lon !== undefined) {
      view.lat = stop.lat;
      view.lon = stop.lon;
    }
    if (stop.appointment) view.appointment = stop.appointment;
    if (v.arrivedAt !== undefined) {
      view.arrivedAt = v.arrivedAt;
      if (v.arrivedBy) view.arrivedBy = v.arrivedBy;
      view.freeMinutes = o.freeMinutes;
    }
    if (v.departedAt !== undefined) {
      view.departedAt = v.departedAt;
      if (v.departedBy) view.departedBy = v.departedBy;
    }
    if (view.progress !== 'upcoming') {
      reachedViews[i] = { view, progress: view.progress, visits: v };
      return judge(view, stop, v.arrivedAt, o, false);
    }
    reachedViews[i] = undefined;
    // Upcoming: the drive from the last position (or the stop before) to this one.
    if (!basis || !from || stop.lat === undefined || stop.lon === undefined) {
      from = undefined;
      return judge(view, stop, undefined, o, true);
    }
    const to = { lat: stop.lat, lon: stop.lon };
    const legMiles = (meters(from, to) / METERS_PER_MILE) * o.roadFactor;
    const leg = withRests(legMiles / speed.mph, driven, o);
    driven = leg.drivenAfter;
    hours += leg.hours;
    miles += legMiles;
    rests += leg.rests;
    from = to;
    const eta = basis.instant + Math.round((hours * HOUR) / o.clockScale);
    view.eta = eta;
    view.etaInputs = {
      from: basis.instant,
      miles: Math.round(miles),
      mph: Math.round(speed.mph),
      measured: speed.measured,
      rests,
      restHours: o.restHours,
    };
    return judge(view, stop, eta, o, true);
  });

  const outlook: Outlook = { asOf, stops: out, radiusMeters: o.stopRadiusMeters };
  if (o.clockScale !== 1) outlook.clockScale = o.clockScale;
  if (!finished) outlook.dark = darkReason(pings, cadence, events, lastEventAt, stops, o);
  return outlook;
}

/**
 * `load` with its outlook reckoned again, after its track changed; without one when there is nothing
 * to say. The same outlook as `before` from a longer track keeps `before`, the object browsers
 * hold; a new one's `asOf` is greater than the last one's, so that a browser merging answers keeps
 * the newest. `track` and `memo` as for `loadOutlook`.
 */
export function withOutlook(
  load: Load,
  before: Outlook | undefined,
  o: OutlookOptions = DEFAULT_OUTLOOK_OPTIONS,
  track: readonly TrackPoint[] = load.pings,
  memo: OutlookMemo = {},
): Load {
  const outlook = loadOutlook(load, o, track, memo);
  if (!outlook) {
    const { outlook: _old, ...rest } = load;
    return rest;
  }
  if (before && sameButAsOf(outlook, before)) return { ...load, outlook: before };
  if (before && outlook.asOf <= before.asOf) outlook.asOf = before.asOf + 1;
  return { ...load, outlook };
}

/** Two numbers that differ (NaN is no difference, as `dequal` has it). */
const differ = (a: number | undefined, b: number | undefined) => a !== b && (a === a || b === b);

/**
 * Whether `fresh` says what `before` says but for `asOf`. A new ping moves the dark reason's
 * instant or a stop's ETA nearly every time: those are looked at first, and only outlooks alike in
 * them are compared whole. `fresh` is the caller's own, new object.
 */
function sameButAsOf(fresh: Outlook, before: Outlook): boolean {
  if (
    fresh.stops.length !== before.stops.length ||
    differ(fresh.dark?.at, before.dark?.at) ||
    fresh.dark?.reason !== before.dark?.reason
  )
    return false;
  for (let i = 0; i < fresh.stops.length; i++)
    if (differ(fresh.stops[i]!.eta, before.stops[i]!.eta)) return false;
  // The whole comparison without a copy of `fresh` made for it.
  const asOf = fresh.asOf;
  fresh.asOf = before.asOf;
  const same = dequal(fresh, before);
  fresh.asOf = asOf;
  return same;
}

const boardOutlooks = new WeakMap<Outlook, Outlook>();

/**
 * What a board's answer carries of an outlook: why the load would be dark and its next stop's
 * status, appointment and ETA, nothing of the stops behind or beyond it (their places, points and
 * the ETA's reckoning are the load page's). A 10,000-load board would carry megabytes more.
 */
export function boardOutlook(outlook: Outlook): Outlook {
  let slim = boardOutlooks.get(outlook);
  if (!slim) {
    const next = outlook.stops.find((s) => s.progress !== 'departed');
    // Keys in the order of the contract's schema: the page reads such an object as it is, not a copy
    // (`readerOf`), for each of a board's 10,000 loads.
    const stops: StopOutlook[] = [];
    slim = outlook.dark ? { asOf: outlook.asOf, dark: outlook.dark, stops } : { asOf: outlook.asOf, stops };
    if (outlook.clockScale !== undefined) slim.clockScale = outlook.clockScale;
    if (next) {
      const { order, type, progress, status, lateMinutes, appointment, eta, arrivedAt, freeMinutes } = next;
      const stop = { order } as StopOutlook;
      if (type) stop.type = type;
      if (appointment) stop.appointment = appointment;
      stop.progress = progress;
      // The board's detention clock runs from these.
      if (arrivedAt !== undefined) stop.arrivedAt = arrivedAt;
      if (freeMinutes !== undefined) stop.freeMinutes = freeMinutes;
      if (eta !== undefined) stop.eta = eta;
      stop.status = status;
      if (lateMinutes !== undefined) stop.lateMinutes = lateMinutes;
      stops.push(stop);
    }
    boardOutlooks.set(outlook, slim);
  }
  return slim;
}
