import * as z from 'zod/mini';
import { ParseIssue } from './parse-issue';
import './zod-locale';

/**
 * A load as the proxy serves it (`LoadView`, Haulview's own shape, not the service's) and the pull
 * answer that carries loads (`POST /api/pull/*`). The server writes it, the pull worker (and a page
 * without one) reads it strictly; the domain model's types are inferred from it (domain/model.ts).
 * Apart from proxy-api.ts so the first page, which pulls in a worker, does not carry it.
 */

/** How a load is identified: by the partner's external id or by the broker's load number. */
export const LoadBy = z.enum(['external-id', 'load-number']);

export const Driver = z.strictObject({ name: z.optional(z.string()), phone: z.optional(z.string()) });

export const Place = z.strictObject({
  city: z.optional(z.string()),
  state: z.optional(z.string()),
  country: z.optional(z.string()),
});

const positionFields = {
  lat: z.number(),
  lon: z.number(),
  /** Meters around the point that hold the load with 68% likelihood; null when unknown (no circle). */
  accuracy: z.nullable(z.number()),
};
export const Position = z.strictObject(positionFields);

/** When an item happened, as read from its device-local and UTC texts (domain/time.ts). */
export const ItemTime = z.strictObject({
  /**
   * Epoch ms: from `timestampUTC`, else `deviceTimeGmt`, else a local form with a known zone, else
   * (approximate) the local wall time read as UTC.
   */
  instant: z.optional(z.number()),
  /** True when the instant came from a wall time whose zone is unknown. */
  approximate: z.boolean(),
  /** The device-local text as the driver saw it, for display. */
  local: z.optional(z.string()),
  /** The zone abbreviation of the local text, and whether its offset is known. */
  zone: z.optional(z.string()),
  zoneKnown: z.boolean(),
  /**
   * Minutes east of UTC of that zone, when known: the page writes times in the driver's zone from
   * the instant with it, without a copy of the zone tables.
   */
  offset: z.optional(z.number()),
});

const timedFields = {
  /** Identity of the item within its load and kind (`keys` in domain/normalize.ts). */
  key: z.string(),
  instant: z.number(),
  time: ItemTime,
};

export const LatestLocation = z.strictObject({
  ...positionFields,
  ...timedFields,
  place: Place,
  driver: z.optional(Driver),
});

export const Ping = z.strictObject({ ...positionFields, ...timedFields, driver: z.optional(Driver) });

export const StatusEvent = z.strictObject({
  ...timedFields,
  id: z.optional(z.string()),
  name: z.optional(z.string()),
  code: z.optional(z.string()),
  driver: z.optional(Driver),
});

export const Comment = z.strictObject({
  ...timedFields,
  text: z.optional(z.string()),
  by: z.optional(z.enum(['driver', 'broker'])),
  position: z.optional(Position),
  place: z.optional(Place),
  driver: z.optional(Driver),
});

/**
 * A document keeps its place even without a readable time (instant null): losing a bill of lading
 * because of a bad timestamp would cost more than listing it last.
 */
export const Document = z.strictObject({
  ...timedFields,
  instant: z.nullable(z.number()),
  url: z.string(),
  type: z.optional(z.string()),
  stopExternalId: z.optional(z.string()),
  stopOrderNumber: z.optional(z.number()),
  position: z.optional(Position),
  place: z.optional(Place),
  driver: z.optional(Driver),
});

export const TemperatureReading = z.strictObject({
  ...timedFields,
  deviceId: z.optional(z.string()),
  supply: z.optional(z.number()),
  return: z.optional(z.number()),
  set: z.optional(z.number()),
  unit: z.optional(z.string()),
  position: z.optional(Position),
});

/**
 * How a stop stands against its appointment (`domain/outlook.ts`): `on-time`, `at-risk` (the ETA or
 * arrival is within the slack before it), `late`, `no-appointment` (the stop has none: no guess),
 * `unknown` (it cannot be judged: no position yet, or an appointment whose offset from GMT is unknown).
 */
export const StopStatus = z.enum(['on-time', 'at-risk', 'late', 'no-appointment', 'unknown']);

/** A stop's appointment as the service wrote it, and the instant it is when its offset is known. */
export const Appointment = z.strictObject({
  /** `MM/DD/YYYY HH:mm`, the stop's local time. */
  local: z.string(),
  /** Hours from GMT at the stop (`stopGMTDiff`); absent when unknown. */
  offsetHours: z.optional(z.number()),
  instant: z.optional(z.number()),
});

/** What an ETA was reckoned from, for the load page to show ("412 mi at 52 mph + one 10 h rest"). */
export const EtaInputs = z.strictObject({
  /** Instant of the position the ETA starts from (the last ping). */
  from: z.number(),
  /** Miles still to drive: great-circle times the road factor. */
  miles: z.number(),
  /** The speed used: recent moving speed, bounded; the default when too few pings moved. */
  mph: z.number(),
  /** Whether `mph` is the load's own or the default. */
  measured: z.boolean(),
  /** Rest breaks on the way, and the length of each. */
  rests: z.number(),
  restHours: z.number(),
});

/**
 * One stop of a load's trip and how it stands. Arrival and departure come from the service's
 * status events or from the pings inside the stop's radius; its dwell and detention are reckoned from
 * them at the page's clock (`domain/dwell.ts`).
 */
export const StopOutlook = z.strictObject({
  order: z.number(),
  type: z.optional(z.enum(['pickup', 'delivery'])),
  name: z.optional(z.string()),
  /** Absent from a board's answer, which carries only what its line says (`boardOutlook`). */
  place: z.optional(Place),
  zipcode: z.optional(z.string()),
  lat: z.optional(z.number()),
  lon: z.optional(z.number()),
  appointment: z.optional(Appointment),
  /** Not reached yet; arrived (there now); departed (done). */
  progress: z.enum(['upcoming', 'arrived', 'departed']),
  arrivedAt: z.optional(z.number()),
  departedAt: z.optional(z.number()),
  /** What the arrival and departure were told by: the service's status event, or the pings in its fence. */
  arrivedBy: z.optional(z.enum(['event', 'pings'])),
  departedBy: z.optional(z.enum(['event', 'pings'])),
  /** Stops arrived at: minutes there before detention starts (`FREE_TIME_MINUTES`). */
  freeMinutes: z.optional(z.number()),
  /** Upcoming stops: when it should get there. */
  eta: z.optional(z.number()),
  etaInputs: z.optional(EtaInputs),
  status: StopStatus,
  /** Minutes the ETA (or the arrival) is after the appointment; negative when before it. */
  lateMinutes: z.optional(z.number()),
});

/**
 * Why a load's phone would be dark, with its evidence (`domain/outlook.ts`): computed from its
 * track whenever the track changes, shown when the load is stale or silent.
 * - `never-started`: dispatched, and no ping on this trip;
 * - `notice`: the service's own notice says why (app closed, permission, phone off, not installed);
 * - `at-stop`: its last ping was inside a stop's radius (waiting at a facility);
 * - `intermittent`: its pings came with gaps well beyond its own usual cadence;
 * - `moving`: its last pings were moving (lost signal on the road);
 * - `stopped`: its last pings stood still away from any stop.
 */
export const DarkReason = z.strictObject({
  reason: z.enum(['never-started', 'notice', 'at-stop', 'intermittent', 'moving', 'stopped']),
  /** The ping or event that is the evidence, or the dispatch of a load that never started. */
  at: z.optional(z.number()),
  /** `notice`: the event's name and what kind of notice it is. */
  notice: z.optional(z.string()),
  noticeKind: z.optional(z.enum(['app-closed', 'permission', 'phone-off', 'not-installed', 'other'])),
  /** `moving`: the speed of its last pings. */
  mph: z.optional(z.number()),
  /** `at-stop`: which stop, and how far from it the last ping was. */
  stopOrder: z.optional(z.number()),
  meters: z.optional(z.number()),
  /** `intermittent`: gaps over three times its usual cadence, and that cadence. */
  gaps: z.optional(z.number()),
  usualMinutes: z.optional(z.number()),
});

/** What the proxy reckons of a load from its whole track: its stops' ETAs and why it would be dark. */
export const Outlook = z.strictObject({
  /** The newest instant of the track it was reckoned from: of two outlooks, the later one holds. */
  asOf: z.number(),
  dark: z.optional(DarkReason),
  stops: z.array(StopOutlook),
  /** A stop's fence before a ping's accuracy widens it (`STOP_RADIUS_METERS`); absent on a board. */
  radiusMeters: z.optional(z.number()),
  /** Track hours per real hour: the simulator's speed in the demo; absent = 1. */
  clockScale: z.optional(z.number()),
});

/** A load's undocumented fields (stops, say), kept as the upstream sent them; never copied key by key. */
const Extras = z.custom<Record<string, unknown>>(
  (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  'extras must be an object',
);

/**
 * One load as the proxy serves it: read from the upstream's quirky answers once, on the server.
 * Lists are sorted by instant, oldest first, with no two items of one key; a list the request left
 * out (or, after a cursor, one with nothing new) is absent and reads as empty.
 */
export const LoadView = z.strictObject({
  by: LoadBy,
  /** The id this load was asked for by (external id or load number), as a string. */
  id: z.string(),
  externalId: z.optional(z.string()),
  loadNumber: z.optional(z.string()),
  ltExternalId: z.optional(z.string()),
  latestLocation: z.optional(LatestLocation),
  latestStatus: z.optional(StatusEvent),
  latestTemperature: z.optional(TemperatureReading),
  pings: z._default(z.array(Ping), []),
  events: z._default(z.array(StatusEvent), []),
  comments: z._default(z.array(Comment), []),
  documents: z._default(z.array(Document), []),
  readings: z._default(z.array(TemperatureReading), []),
  extras: z._default(Extras, {}),
  /** Reckoned by the proxy from the whole track (the board pulls no pings): ETAs, why it is dark. */
  outlook: z.optional(Outlook),
  /** What was skipped or noted while reading this load's answers (paths relative to the load). */
  issues: z._default(z.array(ParseIssue), []),
});
/** What the proxy writes (lists may be left out). */
export type LoadViewWire = z.input<typeof LoadView>;

/** The version of the pull answer's shape; a page of another version is told to reload. */
export const PULL_ANSWER_VERSION = 2;

/**
 * `POST /api/pull/by-*` answer. Each load is parsed on its own (`LoadView`), so one the page cannot
 * read costs only itself. After a `since` cursor, `loads` holds only the loads that changed, each
 * with only the items that came after the cursor; every other load asked for and not `missing` is
 * as it was. The proxy writes each of `loads` on a line of its own (a newline before each, none
 * inside one, and one before the closing bracket), so a reader can parse the loads a part at a time
 * (web/data/pull-answer.ts `loadLines`).
 */
export const ProxyPullAnswer = z.strictObject({
  version: z.number(),
  /** Where the next poll asks from. */
  cursor: z.string(),
  /** The upstream's time of its last answer (`MM/DD/YYYY HH:mm:ss UTC`). */
  timeStamp: z.optional(z.string()),
  loads: z.array(z.unknown()),
  /** Ids the upstream does not know. */
  missing: z.array(z.string()),
  /**
   * Ids not pulled yet (several instances: another instance's puller pulls them within a refresh);
   * neither known nor missing. Absent when none.
   */
  pending: z.optional(z.array(z.string())),
});
export type ProxyPullAnswer = z.infer<typeof ProxyPullAnswer>;
