import { CITIES, type City } from './cities';
import { nearestPlace } from './places';
import { hash32, stream, unit } from './random';

/**
 * The demo fleet. Every load is a plan (route, schedule, driver); its items (pings, status events,
 * comments, documents, temperature readings) are pure functions of the plan and the clock, computed
 * on demand, so a 10,000-load fleet costs little memory and any answer can be recomputed exactly.
 *
 * Time: timestamps are real instants (ages shown by the dashboard are real), while the schedule is
 * compressed by `speed`: at 60, a simulated hour of driving passes in one real minute.
 */
export interface FleetOptions {
  seed: number;
  loads: number;
  speed: number;
  /** Real instant the fleet's schedule is anchored to (the simulator's start). */
  startedAt: number;
  /**
   * Load 0 gets exactly this many pings, all sent by start, and a quarter as many status events, a
   * fortieth as many documents and 2.5 times as many readings: issue 7's bench load at 20,000
   * (benchmarks; SIM_LONG_TRACK_PINGS). 0: off.
   */
  longTrackPings?: number;
  /**
   * Every load is on a long trip, in transit, with a ping a minute: this many so far, one more each
   * simulated minute (the puller's memory bench). 0 or absent: off.
   */
  tripPings?: number;
}

export interface Point {
  lat: number;
  lon: number;
}

export interface Stop {
  stopExternalId: string;
  stopOrderNumber: number;
  city: City;
  kind: 'pickup' | 'delivery';
  /** The facility's name, as shippers and receivers are called. */
  locationName: string;
  zipcode: string;
  /** The appointment, in simulated minutes of the trip's schedule; none when undefined. */
  appointmentMinute: number | undefined;
}

/**
 * How a load's phone goes dark (issue 36), when it does: on the road with no word (`moving`), while
 * waiting at its pickup or delivery, before its trip ever started, after the service's notice (the app
 * closed, the location permission cut to "while using", the phone powered off), or after hours of
 * dropping out now and then (`intermittent`).
 */
export type DarkMode =
  | 'moving'
  | 'at-pickup'
  | 'at-delivery'
  | 'never-started'
  | 'app-closed'
  | 'permission'
  | 'phone-off'
  | 'intermittent';

/** How a load's stops are written: as a careful sender writes them, as a careless one, or without offsets. */
export type StopStyle = 'plain' | 'odd' | 'no-offset';

export interface LoadPlan {
  index: number;
  /**
   * Which trip of its slot this is: 0 is the one the simulator starts with; each next one is
   * dispatched after the last one's pause, under the same ids (`nextTrip`).
   */
  trip: number;
  externalId: number;
  loadNumber: string;
  driver: { name: string; phoneNumber: string };
  reefer: boolean;
  setPoint: number;
  stops: Stop[];
  route: Point[];
  /** Cumulative distance along `route`, km. */
  routeKm: number[];
  /** Simulated minutes from departure (pickup loaded) to arrival at delivery, rest breaks included. */
  driveMinutes: number;
  /** Of those, the minutes of driving: a driver drives 11 h, then rests 10 h (`positionAt`). */
  movingMinutes: number;
  /** Simulated minutes the truck waits at its pickup before it is loaded (it arrives at -45 - wait). */
  pickupWaitMinutes: number;
  /** How its phone went dark, with `silentSince`. */
  dark: DarkMode | undefined;
  stopStyle: StopStyle;
  /** Real instant of departure: simulated minute 0. */
  departAt: number;
  pingEveryMinutes: number;
  /**
   * Real instant from which the driver's phone reports nothing (never, when undefined). Set in real
   * time, before the simulator started, so that stale and silent loads show at once on the board.
   */
  silentSince: number | undefined;
  appNotInstalled: boolean;
  /** Simulated minutes of a reefer excursion window, if any. */
  excursion: [number, number] | undefined;
  /**
   * The long track's extra items (SIM_LONG_TRACK_PINGS), spread over the drive: "In transit" status
   * events, pictures, and this many readings, one every real minute (their times are written to the
   * minute) up to 30 minutes past the drive, instead of one every 15 simulated minutes from departure:
   * the unit ran at the yard long before loading.
   */
  bulk?: { events: number; documents: number; readings: number };
}

const FIRST_NAMES = [
  'Maria',
  'James',
  'Luis',
  'Sarah',
  'Darnell',
  'Ana',
  'Mike',
  'Priya',
  'Tom',
  'Keisha',
  'Raj',
  'Elena',
  'Bill',
  'Chen',
  'Jorge',
  'Amy',
];
const LAST_NAMES = [
  'Garcia',
  'Smith',
  'Nguyen',
  'Johnson',
  'Patel',
  'Brown',
  'Lopez',
  'Miller',
  'Davis',
  'Wilson',
  'Khan',
  'Martin',
  'Clark',
  'Young',
];
const SET_POINTS = [34, 36, 0, -10, 28];
const AVERAGE_KMH = 78;
/** The rest rule the fleet's drivers keep: 11 h of driving, then 10 h off. */
export const DRIVE_STRETCH_MINUTES = 11 * 60;
export const REST_MINUTES = 10 * 60;

/** Minutes from departure to arrival for this much driving, with its rests. */
export const withRestMinutes = (moving: number): number =>
  moving + Math.max(0, Math.ceil(moving / DRIVE_STRETCH_MINUTES) - 1) * REST_MINUTES;

/** The simulated minute a trip's truck arrives at its pickup. */
export const pickupArrivalMinute = (plan: Pick<LoadPlan, 'pickupWaitMinutes'>): number =>
  -45 - plan.pickupWaitMinutes;

const FACILITIES = ['Distribution Center', 'Cold Storage', 'Foods DC', 'Warehouse', 'Cross-Dock', 'Terminal'];
const DARK_MODES: readonly DarkMode[] = [
  'moving',
  'at-pickup',
  'at-delivery',
  'never-started',
  'app-closed',
  'permission',
  'phone-off',
  'intermittent',
];

/**
 * A trip's stops, waits and appointments, from its own random source: most trips make their
 * appointments, some cut it close, some miss them; some stops have none.
 */
function tripStops(
  r: ReturnType<typeof stream>,
  externalId: number,
  ids: [string, string],
  from: City,
  to: City,
  driveMinutes: number,
): { stops: Stop[]; pickupWaitMinutes: number; stopStyle: StopStyle } {
  // A long wait now and then; arrival stays after dispatch (minute -180).
  const pickupWaitMinutes = r.next() < 0.2 ? Math.round(60 + r.next() * 65) : Math.round(r.next() * 20);
  const arrival = -45 - pickupWaitMinutes;
  // Wide of the arrival: at the default speed the appointment's text (to the minute) is an hour's schedule.
  const pickupAppointment = r.next() < 0.15 ? undefined : Math.round(arrival + (r.next() - 0.2) * 240);
  const u = r.next();
  // On time with room, cutting it close, or behind.
  const margin = u < 0.55 ? 90 + r.next() * 240 : u < 0.75 ? r.next() * 50 : -(30 + r.next() * 170);
  const deliveryAppointment = r.next() < 0.12 ? undefined : Math.round(driveMinutes + margin);
  const style = r.next();
  const stop = (n: 0 | 1, city: City, kind: Stop['kind'], appointmentMinute: number | undefined): Stop => ({
    stopExternalId: ids[n],
    stopOrderNumber: n + 1,
    city,
    kind,
    locationName: `${city.name} ${r.pick(FACILITIES)}`,
    zipcode: String(10_000 + (hash32(externalId, n, city.lat * 1000) % 89_999)),
    appointmentMinute,
  });
  return {
    stops: [stop(0, from, 'pickup', pickupAppointment), stop(1, to, 'delivery', deliveryAppointment)],
    pickupWaitMinutes,
    stopStyle: style < 0.15 ? 'odd' : style < 0.2 ? 'no-offset' : 'plain',
  };
}

/**
 * The simulated minute of its trip at which a load's phone goes dark, by how it does: on the road
 * partway (`part` of the drive), at its pickup while waiting, at its delivery after arriving, or
 * just after dispatch for one that never starts.
 */
function darkMinute(mode: DarkMode, part: number, driveMinutes: number, pickupWaitMinutes: number): number {
  // A few pings after arriving, before loading.
  if (mode === 'at-pickup') return -45 - pickupWaitMinutes * 0.5 + 10;
  if (mode === 'at-delivery') return driveMinutes + 10;
  if (mode === 'never-started') return -175;
  // On the road, not during a rest: a minute in a rest moves on to the next stretch's first hour.
  // An intermittent phone drops out for a while before it goes dark for good.
  const minute = driveMinutes * (mode === 'intermittent' ? 0.5 + part * 0.5 : part);
  const cycle = DRIVE_STRETCH_MINUTES + REST_MINUTES;
  const into = minute % cycle;
  return into < DRIVE_STRETCH_MINUTES ? minute : Math.min(minute - into + cycle + 60, driveMinutes - 1);
}

const toRad = (d: number) => (d * Math.PI) / 180;
export function distanceKm(a: Point, b: Point): number {
  const dLat = toRad(b.lat - a.lat);
  const dLon = toRad(b.lon - a.lon);
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(toRad(a.lat)) * Math.cos(toRad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * A plausible road-like path: via cities that lie roughly between the ends, then each leg bent by a
 * gentle, seeded wobble so the breadcrumb curves the way highways do.
 */
function buildRoute(seed: number, index: number, from: City, to: City, bend = true): Point[] {
  const total = distanceKm(from, to);
  const vias = CITIES.filter((c) => c !== from && c !== to)
    .map((c) => {
      const a = distanceKm(from, c);
      const b = distanceKm(c, to);
      return { c, a, detour: a + b - total };
    })
    .filter((v) => v.detour < total * 0.12 && v.a > total * 0.15 && v.a < total * 0.85)
    .sort((x, y) => x.a - y.a)
    .slice(0, 2)
    .map((v) => v.c);
  const anchors: Point[] = [from, ...vias, to];
  const points: Point[] = [];
  for (let leg = 0; leg < anchors.length - 1; leg++) {
    const a = anchors[leg] as Point;
    const b = anchors[leg + 1] as Point;
    const km = distanceKm(a, b);
    const steps = Math.max(4, Math.round(km / 25));
    const amplitude = bend ? Math.min(0.35, km / 900) * (unit(seed, index, leg, 1) - 0.5) * 2 : 0;
    const waves = 1 + Math.floor(unit(seed, index, leg, 2) * 3);
    const dLat = b.lat - a.lat;
    const dLon = b.lon - a.lon;
    for (let s = leg === 0 ? 0 : 1; s <= steps; s++) {
      const f = s / steps;
      const bend = Math.sin(f * Math.PI * waves) * Math.sin(f * Math.PI) * amplitude;
      points.push({ lat: a.lat + dLat * f - dLon * bend * 0.3, lon: a.lon + dLon * f + dLat * bend * 0.3 });
    }
  }
  return points;
}

/**
 * A route is on land when each of its points has a town within this distance: the simulator's towns
 * (places.ts) are dense on land, one within 40 km nearly everywhere the fleet drives, and there are
 * none at sea. A bay or the end of a lake crossed on the way is allowed; a gulf is not.
 */
const LAND_KM = 75;
const MAX_ROUTE_TRIES = 60;
/** How far from a town the way from one city to another (through its via cities, unbent) gets; per pair. */
const farthestKm = new Map<string, number>();
function farthestFromTown(from: City, to: City): number {
  const key = `${from.name}|${from.state}|${to.name}|${to.state}`;
  let km = farthestKm.get(key);
  if (km === undefined) {
    km = Math.max(...buildRoute(0, 0, from, to, false).map((p) => distanceKm(p, nearestPlace(p))));
    farthestKm.set(key, km);
  }
  return km;
}
/** A way that stays this near towns unbent stays on land bent too; one nearer the sea is checked as bent. */
const INLAND_KM = 40;
const onLand = (route: Point[]) => route.every((p) => distanceKm(p, nearestPlace(p)) <= LAND_KM);

function cumulativeKm(route: Point[]): number[] {
  const out = [0];
  for (let i = 1; i < route.length; i++)
    out.push((out[i - 1] as number) + distanceKm(route[i - 1] as Point, route[i] as Point));
  return out;
}

/**
 * A trip from `from` of a sensible length whose route stays on land: a straight leg from Houston to
 * Miami crossed the Gulf, and its trucks reported from the sea, named after a coast 270 km away.
 * `bendIndex` seeds the route's bends (a slot's index for its first trip).
 */
function routeFrom(
  seed: number,
  bendIndex: number,
  r: ReturnType<typeof stream>,
  from: City,
): { to: City; route: Point[] } {
  let to = r.pick(CITIES);
  let route: Point[] | undefined;
  for (let tries = 0; ; tries++) {
    const km = distanceKm(from, to);
    // Past MAX_ROUTE_TRIES a way on land unbent will do (Halifax's bend into the Bay of Fundy); past
    // twice that, any (a city with no way on land: none of today's).
    const late = tries >= MAX_ROUTE_TRIES;
    const any = tries >= 2 * MAX_ROUTE_TRIES;
    if (to !== from && km >= 250 && km <= 3200 && (any || farthestFromTown(from, to) <= LAND_KM)) {
      route = buildRoute(seed, bendIndex, from, to);
      // Its bends can take a way along a coast out to sea: checked as bent, unless it runs inland.
      if (late || farthestFromTown(from, to) <= INLAND_KM || onLand(route)) return { to, route };
    }
    to = r.pick(CITIES);
  }
}

export function planLoad(options: FleetOptions, index: number): LoadPlan {
  const r = stream(options.seed, index, 0xf1ee7);
  const from = r.pick(CITIES);
  const { to, route } = routeFrom(options.seed, index, r, from);
  const routeKm = cumulativeKm(route);
  const km = routeKm[routeKm.length - 1] as number;
  const movingMinutes = Math.round((km / AVERAGE_KMH) * 60 * (1.05 + r.next() * 0.2));
  const driveMinutes = withRestMinutes(movingMinutes);
  // At start, progress is spread so that a few loads are delivered, most are rolling, a few not started.
  const progress = -0.15 + r.next() * 1.25;
  const reefer = r.next() < 0.34;
  const silent = r.next() < 0.15;
  const externalId = 700_100 + index;
  // Drawn apart from the rest, so that the fleet's routes and phones stay as they were before stops.
  const t = stream(options.seed, index, 0x5709);
  const trip = tripStops(t, externalId, [`S${externalId}-1`, `S${externalId}-2`], from, to, driveMinutes);
  const dark = silent ? t.pick(DARK_MODES) : undefined;
  // A silent phone stopped 20 minutes to 5 hours ago (real time), where its way of going dark says.
  const silentSince = silent ? options.startedAt - (20 + r.next() * 280) * 60_000 : undefined;
  const part = silent ? r.next() : 0;
  const departAt =
    silentSince !== undefined && dark
      ? silentSince -
        (darkMinute(dark, 0.2 + part * 0.5, driveMinutes, trip.pickupWaitMinutes) * 60_000) / options.speed
      : options.startedAt - (driveMinutes * progress * 60_000) / options.speed;
  const plan: LoadPlan = {
    index,
    trip: 0,
    externalId,
    loadNumber: `LN${(hash32(options.seed, index) % 900_000) + 100_000}-${index}`,
    driver: {
      name: `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)}`,
      phoneNumber: `+1${200 + r.int(700)}555${String(1000 + r.int(9000))}`,
    },
    reefer,
    setPoint: r.pick(SET_POINTS),
    stops: trip.stops,
    route,
    routeKm,
    driveMinutes,
    movingMinutes,
    pickupWaitMinutes: trip.pickupWaitMinutes,
    dark,
    stopStyle: trip.stopStyle,
    departAt,
    pingEveryMinutes: 3 + r.int(4),
    silentSince,
    appNotInstalled: r.next() < 0.08,
    excursion: reefer && r.next() < 0.4 ? excursionWindow(r.next(), driveMinutes) : undefined,
  };
  const long = options.longTrackPings ?? 0;
  if (index === 0 && long >= 2) return withLongTrack(plan, long, options);
  return options.tripPings ? withTripPings(plan, options.tripPings, options) : plan;
}

/** The load on a trip three times as long as its pings so far, a ping a minute, its phone never dark. */
function withTripPings(plan: LoadPlan, pings: number, options: FleetOptions): LoadPlan {
  const first = pickupArrivalMinute(plan);
  const nowMinute = first + pings - 0.5;
  const movingMinutes = Math.max(plan.movingMinutes, 3 * pings);
  return {
    ...plan,
    movingMinutes,
    driveMinutes: withRestMinutes(movingMinutes),
    dark: undefined,
    silentSince: undefined,
    pingEveryMinutes: 1,
    departAt: options.startedAt - (nowMinute * 60_000) / options.speed,
  };
}

/**
 * A load with a long track, for benchmarks: a reefer whose phone reported about once a (simulated)
 * minute all the way, delivered just as the simulator starts, so it has exactly `pings` pings from the
 * first answer on. Pings are spaced by more than their 0.8-minute jitter, so they stay in time order.
 */
function withLongTrack(plan: LoadPlan, pings: number, options: FleetOptions): LoadPlan {
  // trackAt pings from minute 0 up to drive + 60: spacing (last - 0.9) / (pings - 1) puts ping
  // pings - 1 before the end (jitter < 0.8) and the next one past it.
  const lastPingMinute = Math.max(pings, 120);
  const driveMinutes = lastPingMinute - 60;
  return {
    ...plan,
    reefer: true,
    driveMinutes,
    movingMinutes: driveMinutes,
    pickupWaitMinutes: 0,
    dark: undefined,
    pingEveryMinutes: (lastPingMinute - 0.9) / (pings - 1),
    departAt: options.startedAt - (lastPingMinute * 60_000) / options.speed,
    silentSince: undefined,
    excursion: excursionWindow(0.5, driveMinutes),
    bulk: {
      events: Math.floor(pings / 4),
      documents: Math.floor(pings / 40),
      readings: Math.round(pings * 2.5),
    },
  };
}

function excursionWindow(f: number, driveMinutes: number): [number, number] {
  const start = Math.round(driveMinutes * (0.15 + f * 0.6));
  return [start, start + 60 + Math.round(f * 120)];
}

export function generateFleet(options: FleetOptions): LoadPlan[] {
  return Array.from({ length: options.loads }, (_, i) => planLoad(options, i));
}

/** Position along the route after `minute` simulated minutes of driving. */
export function positionAt(plan: LoadPlan, minute: number): Point {
  const total = plan.routeKm[plan.routeKm.length - 1] as number;
  // Driving time so far: the truck stands still through each rest.
  const elapsed = Math.max(0, Math.min(minute, plan.driveMinutes));
  const cycle = DRIVE_STRETCH_MINUTES + REST_MINUTES;
  const stretches = Math.floor(elapsed / cycle);
  const moving =
    plan.movingMinutes >= plan.driveMinutes
      ? elapsed
      : stretches * DRIVE_STRETCH_MINUTES + Math.min(elapsed - stretches * cycle, DRIVE_STRETCH_MINUTES);
  const km = Math.max(0, Math.min(1, moving / plan.movingMinutes)) * total;
  let i = 1;
  while (i < plan.routeKm.length - 1 && (plan.routeKm[i] as number) < km) i++;
  const k0 = plan.routeKm[i - 1] as number;
  const k1 = plan.routeKm[i] as number;
  const f = k1 > k0 ? (km - k0) / (k1 - k0) : 0;
  const a = plan.route[i - 1] as Point;
  const b = plan.route[i] as Point;
  return { lat: a.lat + (b.lat - a.lat) * f, lon: a.lon + (b.lon - a.lon) * f };
}

/** Real instant of a simulated minute of a load's schedule. */
export function instantOf(plan: LoadPlan, minute: number, speed: number): number {
  return plan.departAt + (minute * 60_000) / speed;
}

/** Simulated minute of a load's schedule at a real instant. */
export function minuteAt(plan: LoadPlan, instant: number, speed: number): number {
  return ((instant - plan.departAt) * speed) / 60_000;
}

// --- a steady fleet: each slot's next trip -------------------------------------------------------

/** Simulated minute of a trip's schedule at which its first status ("Load track created") comes. */
export const TRIP_FIRST_MINUTE = -240;
/** Simulated minutes after arrival at delivery when a trip's last item comes (its phone's last ping). */
export const TRIP_LAST_MINUTE_AFTER_DRIVE = 60;

/** How long (real time) a load whose phone went dark stays on its trip before its slot's next one. */
export const QUIET_MS = 6 * 3_600_000;

/** The real instant a trip's first item comes: the load's next trip is under way from then on. */
export const tripStartsAt = (plan: LoadPlan, speed: number): number =>
  instantOf(plan, TRIP_FIRST_MINUTE, speed);

/** The real instant of a trip's last item: its phone's last ping after delivery. */
export const tripEndsAt = (plan: LoadPlan, speed: number): number =>
  instantOf(plan, plan.driveMinutes + TRIP_LAST_MINUTE_AFTER_DRIVE, speed);

/**
 * The trip a slot's truck is dispatched on after `plan`: from where that one delivered, after a pause
 * of one to four simulated hours (six real hours after its phone went dark, if it did), with the same ids, driver and trailer (a reefer stays a reefer). A
 * new trip may go silent partway (its phone stops), or have an excursion, as the first trips do. A
 * pure function of the seed, the slot and the trip's number: the same seed gives the same trips.
 * The long-track load (benchmarks) has no next trip: its track stays as the bench expects it.
 */
export function nextTrip(plan: LoadPlan, o: { seed: number; speed: number }): LoadPlan | undefined {
  if (plan.bulk) return undefined;
  const trip = plan.trip + 1;
  const r = stream(o.seed, plan.index, trip, 0x7219);
  const from = (plan.stops[plan.stops.length - 1] as Stop).city;
  // Bends seeded apart from every slot's first trip (whose bend index is the slot's index).
  const { to, route } = routeFrom(o.seed, 0x4000_0000 + plan.index * 4096 + (trip % 4096), r, from);
  const routeKm = cumulativeKm(route);
  const km = routeKm[routeKm.length - 1] as number;
  const movingMinutes = Math.round((km / AVERAGE_KMH) * 60 * (1.05 + r.next() * 0.2));
  const driveMinutes = withRestMinutes(movingMinutes);
  const pauseMinutes = 60 + r.next() * 180;
  const minute = 60_000 / o.speed;
  // A dark phone's load is let go QUIET_MS after it went dark (real time, as `silentSince` is): the
  // demo's silent loads stay silent for hours from start, and then take new trips.
  const ended = Math.max(tripEndsAt(plan, o.speed), (plan.silentSince ?? -Infinity) + QUIET_MS);
  const departAt = ended + (pauseMinutes - TRIP_FIRST_MINUTE) * minute;
  // Rarer than among the first trips: a dark load keeps its slot for hours, a trip a fraction of one.
  const silent = r.next() < 0.015;
  const part = 0.2 + r.next() * 0.6;
  const excursion = plan.reefer && r.next() < 0.4 ? excursionWindow(r.next(), driveMinutes) : undefined;
  // Stop ids go on growing with the trips; the first trip's are S<id>-1 and S<id>-2.
  const stop = (n: number) => `S${plan.externalId}-${2 * trip + n}`;
  const t = stream(o.seed, plan.index, trip, 0x5709);
  const stops = tripStops(t, plan.externalId, [stop(1), stop(2)], from, to, driveMinutes);
  const dark = silent ? t.pick(DARK_MODES) : undefined;
  const silentSince = dark
    ? departAt + darkMinute(dark, part, driveMinutes, stops.pickupWaitMinutes) * minute
    : undefined;
  return {
    ...plan,
    trip,
    stops: stops.stops,
    route,
    routeKm,
    driveMinutes,
    movingMinutes,
    pickupWaitMinutes: stops.pickupWaitMinutes,
    dark,
    stopStyle: stops.stopStyle,
    departAt,
    silentSince,
    appNotInstalled: false,
    excursion,
  };
}

/**
 * A slot's trips that have started by a real instant, oldest first: its first trip, and each next
 * one from its first item on. The chain of each slot is kept, so a clock that moves on plans a trip
 * or two, not the whole chain, and a clock set back reads a shorter part of it. A load's track is
 * all of its trips (a load's history never vanishes, so a full pull equals the deltas merged); a
 * demo left running for days serves longer tracks, as a truck's tracking history grows.
 */
export function tripClock(o: {
  seed: number;
  speed: number;
}): (first: LoadPlan, instant: number) => readonly LoadPlan[] {
  const chains = new Map<LoadPlan, LoadPlan[]>();
  return (first, instant) => {
    let chain = chains.get(first);
    if (!chain) chains.set(first, (chain = [first]));
    for (;;) {
      const last = chain[chain.length - 1] as LoadPlan;
      if (instant < tripStartsAt(last, o.speed)) break;
      const next = nextTrip(last, o);
      if (!next) break;
      chain.push(next);
      if (instant < tripStartsAt(next, o.speed)) break;
    }
    let n = chain.length;
    while (n > 1 && instant < tripStartsAt(chain[n - 1] as LoadPlan, o.speed)) n--;
    return chain.slice(0, n);
  };
}

/**
 * A slot's trip by its number (a document of an earlier trip, say); undefined when that trip has not
 * started by `now` (a made-up number walks no further than the trips so far).
 */
export function tripNumber(
  first: LoadPlan,
  trip: number,
  o: { seed: number; speed: number; now: () => number },
): LoadPlan | undefined {
  const now = o.now();
  let plan: LoadPlan | undefined = first;
  while (plan && plan.trip < trip) {
    plan = nextTrip(plan, o);
    if (plan && tripStartsAt(plan, o.speed) > now) return undefined;
  }
  return plan;
}
