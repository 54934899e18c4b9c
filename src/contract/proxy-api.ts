import * as z from 'zod/mini';
import { ParseIssue } from './parse-issue';
import './zod-locale';

/**
 * The proxy's own interface (docs/architecture.md, "The /api interface"): what the browser sends
 * to `/api/*` and what it gets back. Shared by the server, which validates with it, and the SPA,
 * which builds requests and parses answers with it. The domain model's types are inferred from the
 * load schemas below (domain/model.ts): one source for the shape.
 *
 * Written with `zod/mini`, whose functions tree-shake: the page's first screen carries only the
 * parts of zod these schemas use (classic zod's chained methods bring all of it, issue 33).
 */

/** One id as a browser may send it: trimmed, non-empty, at most 64 printable characters. */
export const LoadId = z
  .string({ error: 'each id must be a string' })
  .check(
    z.trim(),
    z.minLength(1, 'an id must not be empty'),
    z.maxLength(64, 'an id must be at most 64 characters'),
    z.regex(/^[\x20-\x7e]+$/, 'an id may hold printable characters only'),
  );

export const IncludeFlags = z.strictObject({
  locations: z.optional(z.boolean()),
  events: z.optional(z.boolean()),
  documents: z.optional(z.boolean()),
  comments: z.optional(z.boolean()),
  /**
   * The proxy's own flag (the service has none): a reefer's readings list. The latest reading comes
   * anyway. Views of many loads leave the list out: 10,000 reefers' readings are tens of megabytes.
   */
  temperatures: z.optional(z.boolean()),
  /**
   * The proxy's own flag: a load's undocumented fields (stops, say) and the notes that say they were
   * kept. Views of many loads show neither, and leave them out: many loads' stops and notes are a
   * large part of a board's answer.
   */
  extras: z.optional(z.boolean()),
});
export type IncludeFlags = z.infer<typeof IncludeFlags>;

/** Fields a browser must never set: the proxy owns credentials and the upstream's address. */
export const FORBIDDEN_PULL_FIELDS = [
  'partnerId',
  'accountId',
  'url',
  'baseUrl',
  'upstream',
  'sendNewData',
] as const;

/** `POST /api/pull/by-*` body. `maxIds` comes from config (`MAX_IDS`). Duplicates are folded. */
export function pullQuerySchema(maxIds: number) {
  return z.strictObject({
    ids: z.pipe(
      z
        .array(LoadId, { error: 'ids must be an array of strings' })
        .check(
          z.minLength(1, 'ids must hold at least one id'),
          z.maxLength(maxIds, `ids may hold at most ${maxIds} ids`),
        ),
      z.transform((ids: string[]) => [...new Set(ids)]),
    ),
    include: z.optional(IncludeFlags),
    since: z.optional(z.string().check(z.maxLength(200))),
  });
}
export type PullQuery = z.infer<ReturnType<typeof pullQuerySchema>>;

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
 * as it was.
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

/**
 * The data of a `change` event of `GET /api/stream`: the keys (`e:9001`, `n:LN-4`) of the loads that
 * changed, which the page then pulls with its cursor; or `all`, when too many changed to list.
 */
export const StreamChange = z.union([
  z.strictObject({ loads: z.array(z.string()) }),
  z.strictObject({ all: z.literal(true) }),
]);
export type StreamChange = z.infer<typeof StreamChange>;

/** `?lastEventId=` of `GET /api/stream` (the `Last-Event-ID` header says the same). */
export const StreamQuery = z.strictObject({ lastEventId: z.optional(z.string().check(z.maxLength(200))) });

/** Every error the proxy itself writes. */
export const ProxyErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.optional(z.unknown()),
  }),
});
export type ProxyErrorBody = z.infer<typeof ProxyErrorBody>;

/** A rule that marks a status event as an app or system notice (see `domain/noise-rules.ts`). */
export const NoiseRule = z.object({
  /** Text looked for in the event's name; case and runs of blanks do not matter. */
  contains: z.string(),
  /** Only events without a code are noise by this rule. */
  onlyWithoutCode: z.optional(z.boolean()),
});
export type NoiseRule = z.infer<typeof NoiseRule>;

/** `GET /api/config`: what the SPA may know. */
export const ClientConfig = z.object({
  tileUrl: z.nullable(z.string()),
  tileAttribution: z.string(),
  refreshSeconds: z.number(),
  maxIds: z.number(),
  /** Minutes without a ping after which a load is stale, then silent. */
  staleAfterMinutes: z.number(),
  silentAfterMinutes: z.number(),
  /** Degrees a reefer's supply or return may stray from its set point before it is an excursion. */
  excursionTolerance: z.number(),
  /** Pings less sure than this many meters make their stretch of the breadcrumb dashed. */
  lowConfidenceMeters: z.number(),
  /** The rules that hide app and system notices in a load's timeline, in force on this proxy. */
  noiseRules: z.array(NoiseRule),
  /** Demo mode (the embedded simulator): the demo fleet and a webhook token the form may offer. */
  demo: z.nullable(
    z.object({
      externalIds: z.array(z.string()),
      loadNumbers: z.array(z.string()),
      webhookToken: z.nullable(z.string()),
    }),
  ),
});
export type ClientConfig = z.infer<typeof ClientConfig>;

/** What a user may do: every role pulls and sees loads; brokers and admins review; admins manage. */
export const ROLES = ['dispatcher', 'broker', 'admin'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

export const SessionUser = z.object({ name: z.string(), role: Role });
export type SessionUser = z.infer<typeof SessionUser>;

/**
 * `GET /api/session`: who this browser is logged in as (null: nobody). In `open` mode (a loopback
 * demo with no user in the store) everyone acts as admin, or as the role they chose to view as.
 */
export const SessionState = z.object({
  mode: z.enum(['open', 'users']),
  user: z.nullable(SessionUser),
});
export type SessionState = z.infer<typeof SessionState>;

/** A user as an admin sees them (`/api/users`): never a password or its hash. */
export const UserRecord = z.object({
  name: z.string(),
  role: Role,
  /** When they were disabled (ISO 8601), or null while they may log in. */
  disabledAt: z.nullable(z.string()),
  createdAt: z.string(),
});
export type UserRecord = z.infer<typeof UserRecord>;

export const UsersAnswer = z.object({ users: z.array(UserRecord) });
export type UsersAnswer = z.infer<typeof UsersAnswer>;

/** A user added or changed; `password` only when Haulview generated it (shown once, never stored). */
export const UserChanged = z.object({ user: UserRecord, password: z.optional(z.string()) });
export type UserChanged = z.infer<typeof UserChanged>;

/** What a broker decided about a document (`PUT /api/documents/reviews`); `pending` undoes a decision. */
export const REVIEW_DECISIONS = ['approved', 'rejected', 'pending'] as const;
export const ReviewDecision = z.enum(REVIEW_DECISIONS);
export type ReviewDecision = z.infer<typeof ReviewDecision>;

/** Why a document was rejected: codes, so the POD workflow can sort and count them. */
export const REJECT_REASONS = [
  'blurry',
  'cropped_or_incomplete',
  'missing_pages',
  'unsigned',
  'wrong_load',
  'damage_or_shortage',
  'other',
] as const;
export const RejectReason = z.enum(REJECT_REASONS);
export type RejectReason = z.infer<typeof RejectReason>;

export const REVIEW_NOTE_MAX_LENGTH = 500;
export const DOCUMENT_URL_MAX_LENGTH = 2048;

/** A load as a review names it: `e:9001` (external id) or `n:ABC` (load number), as in `?load=`. */
export const LoadRefText = z
  .string()
  .check(
    z.maxLength(66, 'a load reference is e: or n: and an id of at most 64 characters'),
    z.regex(
      /^[en]:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/,
      'a load reference is e:ID (external id) or n:ID (load number), e.g. e:9001',
    ),
  );

/** A document's address as the upstream gave it: only http(s) addresses are documents. */
export const DocumentUrl = z.string().check(
  z.maxLength(DOCUMENT_URL_MAX_LENGTH, `a document address is at most ${DOCUMENT_URL_MAX_LENGTH} characters`),
  z.refine(
    (v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol),
    'a document address is an http:// or https:// URL',
  ),
);

/** `PUT /api/documents/reviews`: a reason with `rejected` only, and there always. */
export const ReviewRequest = z
  .strictObject({
    load: LoadRefText,
    url: DocumentUrl,
    decision: ReviewDecision,
    reason: z.optional(RejectReason),
    note: z.optional(
      z
        .string()
        .check(z.maxLength(REVIEW_NOTE_MAX_LENGTH, `a note is at most ${REVIEW_NOTE_MAX_LENGTH} characters`)),
    ),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (v.decision === 'rejected' && v.reason === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['reason'],
          message: `a rejection needs a reason: one of ${REJECT_REASONS.join(', ')}`,
          input: v,
        });
      if (v.decision !== 'rejected' && v.reason !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['reason'],
          message: `a reason goes with rejected only, not with ${v.decision}`,
          input: v,
        });
    }),
  );
export type ReviewRequest = z.infer<typeof ReviewRequest>;

/** Another user's decision that a later one replaced: what that user's inbox tells them. */
export const ReplacedDecision = z.object({
  decision: ReviewDecision,
  reason: z.nullable(RejectReason),
  decidedBy: z.string(),
  /** ISO 8601. */
  decidedAt: z.string(),
});
export type ReplacedDecision = z.infer<typeof ReplacedDecision>;

/** A stored review: the latest decision on one document, who made it and when, and how many so far. */
export const DocumentReview = z.object({
  load: z.string(),
  url: z.string(),
  decision: ReviewDecision,
  reason: z.nullable(RejectReason),
  note: z.nullable(z.string()),
  decidedBy: z.string(),
  /** ISO 8601. */
  decidedAt: z.string(),
  /** 1 for the first decision, one more for each after it. */
  version: z.number(),
  /**
   * The last decision of another user that this one (or the same user's before it) replaced, or
   * null: "Bo rejected this, replacing your approval".
   */
  replaced: z.nullable(ReplacedDecision),
});
export type DocumentReview = z.infer<typeof DocumentReview>;

/**
 * The answer to a decision: the stored review and, when someone else had decided the document
 * before, the review it replaced ("you replaced Ana's approval").
 */
export const ReviewChanged = z.object({ review: DocumentReview, replaced: z.nullable(DocumentReview) });
export type ReviewChanged = z.infer<typeof ReviewChanged>;

/** A review cursor: the number of the latest change a page has seen, as `?since=` takes it. */
export const ReviewCursor = z
  .string()
  .check(z.regex(/^(0|[1-9]\d{0,17})$/, 'since is a cursor from an earlier answer: digits, e.g. 42'));

/** `GET /api/documents/reviews`: `?load=` for one load's, `?since=` for those changed after a cursor. */
export const ReviewsQuery = z.strictObject({
  load: z.optional(LoadRefText),
  since: z.optional(ReviewCursor),
});
export type ReviewsQuery = z.infer<typeof ReviewsQuery>;

/**
 * `GET /api/documents/reviews`. With `since`, only the reviews changed after it (an undo is a change
 * to `pending`); `cursor` is the one to send next. `full` says the list is whole (no `since`, or one
 * the store does not know, as after a restore): the page then drops what it held.
 */
export const ReviewsAnswer = z.object({
  reviews: z.array(DocumentReview),
  cursor: ReviewCursor,
  full: z.boolean(),
});
export type ReviewsAnswer = z.infer<typeof ReviewsAnswer>;

export const Health = z.object({
  ok: z.boolean(),
  upstream: z.object({
    mode: z.enum(['simulator', 'remote']),
    lastReachableAt: z.nullable(z.string()),
  }),
});
export type Health = z.infer<typeof Health>;

/** One line of the drift report: where answers departed from the documented interface. */
export const DriftEntry = z.object({
  operation: z.string(),
  /** JSON path with indexes folded: `details[].locations[].lat`. */
  path: z.string(),
  kind: z.string(),
  count: z.number(),
  /** Whether data was dropped because of it, or merely noted. */
  skipped: z.boolean(),
  example: z.string(),
  firstSeen: z.string(),
  lastSeen: z.string(),
});
export type DriftEntry = z.infer<typeof DriftEntry>;

/** `GET /api/diagnostics`. */
/**
 * The service's state as the proxy knows it from its own calls: the last answer that worked, the
 * last failure, a 429's wait, and whether calls are paused after repeated failures. Times are ISO.
 */
export const UpstreamState = z.object({
  /** The last 2xx answer. */
  lastSuccessAt: z.nullable(z.string()),
  /** The last call that failed (the proxy's code and message; never a credential). */
  lastError: z.nullable(z.object({ at: z.string(), code: z.string(), message: z.string() })),
  /** Set while a 429 keeps the proxy from calling: its `Retry-After` and the time calls resume. */
  rateLimited: z.nullable(z.object({ retryAfterSeconds: z.number(), until: z.string() })),
  consecutiveFailures: z.number(),
  /** Failures in a row after which calls are paused (they fail fast, then one probe goes through). */
  pauseAfterFailures: z.number(),
  /** Set while calls are paused: until when. */
  pausedUntil: z.nullable(z.string()),
});
export type UpstreamState = z.infer<typeof UpstreamState>;

export const Diagnostics = z.object({
  since: z.string(),
  answersRead: z.number(),
  entries: z.array(DriftEntry),
  /** The service's state (absent from a proxy older than this field). */
  upstream: z.optional(UpstreamState),
});
export type Diagnostics = z.infer<typeof Diagnostics>;

/**
 * A saved board: a name for a watch list with its filter and sort, kept as the address query the
 * dispatcher page writes (`?w=…&status=…`), its owner's or shared with the team.
 */
export const SavedBoard = z.object({
  id: z.string(),
  name: z.string(),
  owner: z.string(),
  shared: z.boolean(),
  search: z.string(),
  /** ISO 8601. */
  updatedAt: z.string(),
});
export type SavedBoard = z.infer<typeof SavedBoard>;

export const BoardsAnswer = z.object({ boards: z.array(SavedBoard) });
export type BoardsAnswer = z.infer<typeof BoardsAnswer>;

/** The most an address query of a saved board may hold (a watch list of MAX_IDS ids fits). */
export const BOARD_SEARCH_MAX_LENGTH = 16_000;

/** `PUT /api/boards`: save the board under a name (the same name replaces it). */
export const SaveBoardRequest = z.strictObject({
  name: z.string().check(
    z.trim(),
    z.minLength(1, 'a board needs a name'),
    z.maxLength(80, 'a name is at most 80 characters'),
    z.refine((n) => !/[\p{Cc}\p{Cf}]/u.test(n), 'a name has no control or invisible characters'),
  ),
  shared: z.boolean(),
  search: z.string().check(
    z.maxLength(
      BOARD_SEARCH_MAX_LENGTH,
      `the board's address is at most ${BOARD_SEARCH_MAX_LENGTH} characters`,
    ),
    // Only a query of this page's own address: never another page or site.
    z.regex(/^(\?[^#\s]*)?$/, 'the board is an address query starting with "?"'),
  ),
});
export type SaveBoardRequest = z.infer<typeof SaveBoardRequest>;

/**
 * What makes a load need a dispatcher's action (issue 36 part 4), most severe first: its next stop
 * is late; its phone went dark while it was moving; it waits at a stop past its free time; its next
 * stop is at risk; its phone has not reported lately (any other reason).
 */
export const EXCEPTION_KINDS = ['late', 'dark-moving', 'detention', 'at-risk', 'stale'] as const;
export const ExceptionKind = z.enum(EXCEPTION_KINDS);
export type ExceptionKind = z.infer<typeof ExceptionKind>;

export const EXCEPTION_NOTE_MAX_LENGTH = 500;
/** The longest snooze: a week. */
export const SNOOZE_MAX_MINUTES = 7 * 24 * 60;

/**
 * `PUT /api/exceptions/acks`: acknowledge a load's exception (for as long as that occurrence lasts),
 * snooze it for `minutes`, or clear what was said of it. `occurrence` names which one was seen (the
 * stop it concerns, or the last ping before the phone went quiet): an acknowledgement holds only
 * while the load's exception is that one, so a new one comes back to the list.
 */
export const ExceptionAckRequest = z
  .strictObject({
    load: LoadRefText,
    kind: ExceptionKind,
    action: z.enum(['acknowledge', 'snooze', 'clear']),
    minutes: z.optional(
      z
        .int('minutes is a whole number')
        .check(
          z.gte(1, 'a snooze lasts at least 1 minute'),
          z.lte(SNOOZE_MAX_MINUTES, `a snooze lasts at most ${SNOOZE_MAX_MINUTES} minutes`),
        ),
    ),
    occurrence: z.optional(
      z
        .string()
        .check(
          z.minLength(1, 'occurrence must not be empty'),
          z.maxLength(120, 'occurrence is at most 120 characters'),
        ),
    ),
    note: z.optional(
      z
        .string()
        .check(
          z.maxLength(EXCEPTION_NOTE_MAX_LENGTH, `a note is at most ${EXCEPTION_NOTE_MAX_LENGTH} characters`),
        ),
    ),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (v.action === 'snooze' && v.minutes === undefined)
        ctx.addIssue({ code: 'custom', path: ['minutes'], message: 'a snooze needs minutes', input: v });
      if (v.action !== 'snooze' && v.minutes !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['minutes'],
          message: `minutes go with snooze only, not with ${v.action}`,
          input: v,
        });
      if (v.action === 'acknowledge' && v.occurrence === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['occurrence'],
          message: 'an acknowledgement names the occurrence it acknowledges',
          input: v,
        });
    }),
  );
export type ExceptionAckRequest = z.infer<typeof ExceptionAckRequest>;

/** What the team said of one load's exception of one kind: the latest action, who and when. */
export const ExceptionAck = z.object({
  load: z.string(),
  kind: ExceptionKind,
  state: z.enum(['acknowledged', 'snoozed', 'cleared']),
  /** `snoozed`: until when (ISO 8601); null otherwise. */
  until: z.nullable(z.string()),
  occurrence: z.nullable(z.string()),
  note: z.nullable(z.string()),
  by: z.string(),
  /** ISO 8601. */
  at: z.string(),
  /** 1 for the first action on this load and kind, one more for each after it. */
  version: z.number(),
});
export type ExceptionAck = z.infer<typeof ExceptionAck>;

/** `GET /api/exceptions/acks`: every acknowledgement and snooze in force or ended, not cleared ones. */
export const ExceptionAcksAnswer = z.object({ acks: z.array(ExceptionAck) });
export type ExceptionAcksAnswer = z.infer<typeof ExceptionAcksAnswer>;
