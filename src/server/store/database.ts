import type { ColumnType, Generated, Insertable, RawBuilder, Selectable } from 'kysely';

/**
 * The store's tables as Kysely sees them: the one place their columns are typed. A migration in
 * `migrations/` changes a table; this file follows it (the migration tests read the columns back).
 */
export interface Database {
  saved_boards: SavedBoardsTable;
  audit_log: AuditLogTable;
  users: UsersTable;
  sessions: SessionsTable;
  document_reviews: DocumentReviewsTable;
  webhooks: WebhooksTable;
  exception_acks: ExceptionAcksTable;
  puller_leases: PullerLeasesTable;
  track_clock: TrackClockTable;
  track_loads: TrackLoadsTable;
  track_items: TrackItemsTable;
  watched_loads: WatchedLoadsTable;
  track_resync: TrackResyncTable;
  trip_stops: TripStopsTable;
  share_links: ShareLinksTable;
  alert_rules: AlertRulesTable;
  alerts: AlertsTable;
  alert_deliveries: AlertDeliveriesTable;
}

/** Who did what, when: one row per login, review, webhook or user change (issue 34). */
export interface AuditLogTable {
  id: Generated<string>;
  /** Set by the database (`now()`) unless given. */
  at: ColumnType<Date, Date | undefined, never>;
  /** The user's name, or `system` for what Haulview does on its own. */
  actor: string;
  /** What was done, e.g. `login`, `review`, `webhook.create`. */
  action: string;
  /** What it was done to (a user's name, a document's address), when there is one. */
  subject: string | null;
  details: ColumnType<unknown, string | undefined, never>;
}

export type AuditEntry = Selectable<AuditLogTable>;
export type NewAuditEntry = Insertable<AuditLogTable>;

/** A person who logs in, with one role (src/server/auth/users.ts keeps this table). */
export interface UsersTable {
  id: Generated<string>;
  /** As given when added: shown, and kept as typed. */
  name: string;
  /** The name as compared (`nameKey`): unique, so names differing only in case are one name. */
  name_key: string;
  role: 'dispatcher' | 'broker' | 'admin';
  /** `scrypt$N$r$p$salt$hash` (src/server/auth/passwords.ts). */
  password_hash: string;
  disabled_at: Date | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** A login that lasts: valid on any instance and after a restart (used from issue 34's login). */
export interface SessionsTable {
  /** A hash of the session token, never the token. */
  id: string;
  user_id: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  last_seen_at: ColumnType<Date, Date | undefined, Date>;
  expires_at: Date;
}

/** The latest decision on one document (src/server/reviews/reviews.ts keeps this table). */
export interface DocumentReviewsTable {
  /** The document's address: one review per document. */
  url: string;
  /** `e:9001` or `n:ABC`: the load it was reviewed under. */
  load: string;
  decision: 'approved' | 'rejected' | 'pending';
  /** With `rejected` only (a check constraint): a code of REJECT_REASONS. */
  reason:
    | 'blurry'
    | 'cropped_or_incomplete'
    | 'missing_pages'
    | 'unsigned'
    | 'wrong_load'
    | 'damage_or_shortage'
    | 'other'
    | null;
  note: string | null;
  /** The user's name. */
  decided_by: string;
  decided_at: ColumnType<Date, Date | undefined, Date>;
  /** 1 for the first decision, one more for each after it. */
  version: ColumnType<number, number | undefined, number>;
  /** The number of the latest change (a sequence; bigint comes back as text): what `?since=` compares. */
  change: ColumnType<string, never, RawBuilder<string>>;
  /** The decision of another user this one replaced (kept while the same user decides again). */
  replaced_decision: 'approved' | 'rejected' | 'pending' | null;
  replaced_reason: string | null;
  replaced_by: string | null;
  replaced_at: Date | null;
}

/** A named board (watch list, filter and sort), its owner's, shared with the team or not. */
export interface SavedBoardsTable {
  id: Generated<string>;
  name: string;
  /** The owner's user name. */
  owner: string;
  shared: boolean;
  /** The board's address query, as the page writes it (`?w=…&status=…`). */
  search: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** A webhook the service accepted through Haulview (src/server/webhooks/registry.ts keeps this table). */
export interface WebhooksTable {
  /** The service's uuid. */
  uuid: string;
  event_type: string;
  client_url: string;
  /** The user's name. Never the bearer token: there is no column for it. */
  created_by: string;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** What the team said of a load's exception of one kind (src/server/exceptions/exception-acks.ts). */
export interface ExceptionAcksTable {
  /** `e:9001` or `n:ABC`. */
  load: string;
  kind: 'late' | 'dark-moving' | 'detention' | 'at-risk' | 'stale';
  state: 'acknowledged' | 'snoozed' | 'cleared';
  /** With `snoozed` only (a check constraint). */
  until: Date | null;
  /** Which occurrence was acknowledged: the stop it concerns, or the last ping before the dark. */
  occurrence: string | null;
  note: string | null;
  /** The user's name. */
  acted_by: string;
  acted_at: ColumnType<Date, Date | undefined, Date>;
  version: ColumnType<number, number | undefined, number>;
  /** An acknowledgement whose exception the server saw end: it holds no more. */
  ended_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** One puller per partner account (src/server/puller/lease.ts keeps this table). */
export interface PullerLeasesTable {
  account: string;
  /** The instance that holds or last held it. */
  holder: string;
  /** One more for every new term; the puller's writes name theirs (int8 as text). */
  epoch: ColumnType<string, string | number, string | number>;
  expires_at: Date;
}

/** The tracks' last committed stamp, one row (src/server/tracks/track-store.ts). */
export interface TrackClockTable {
  id: number;
  seq: ColumnType<string, string | number, string | number>;
  store_id: string;
}

/** A load's head: its `Load` without the item lists. */
export interface TrackLoadsTable {
  load_by: 'external-id' | 'load-number';
  load_id: string;
  head: ColumnType<unknown, string, string>;
  changed_seq: ColumnType<string, string | number, string | number>;
  /** The load's notes (`ParseIssue[]`) as JSON text; null before any were stored. */
  notes: ColumnType<unknown, string | null | undefined, string | null>;
  /** Left out of the service's last full answer. */
  missing: ColumnType<boolean, boolean | undefined, boolean>;
  /** When the load last changed (retention). */
  changed_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** How many items `track_items` holds of it, kept with each write. */
  items: ColumnType<string, string | number | undefined, string | number>;
}

/** One trip's stops, kept while it was current (src/server/tracks/trip-stops.ts). */
export interface TripStopsTable {
  load_by: 'external-id' | 'load-number';
  load_id: string;
  /** Epoch ms of the trip's first planning status; `FIRST_TRIP` for a first trip begun without one. */
  trip_from: number;
  /** `KeptStops` as JSON. */
  stops: ColumnType<unknown, string, string>;
  seen_at: ColumnType<Date, Date, Date>;
}

/** A load whose delta was taken from the service and not stored: pulled in full next round. */
export interface TrackResyncTable {
  load_by: 'external-id' | 'load-number';
  load_id: string;
}

/** One item of a load's list, by its key, with the stamp of the change that brought the kept version. */
export interface TrackItemsTable {
  load_by: 'external-id' | 'load-number';
  load_id: string;
  list: 'pings' | 'events' | 'comments' | 'documents' | 'readings';
  key: string;
  instant: number | null;
  item: ColumnType<unknown, string, string>;
  seq: ColumnType<string, string | number, string | number>;
}

/** A load something watches (a session, a board, a share link, an alert rule) until `expires_at`. */
export interface WatchedLoadsTable {
  load_by: 'external-id' | 'load-number';
  load_id: string;
  why: 'session' | 'board' | 'share' | 'alert';
  expires_at: Date;
}

/** A customer share link (src/server/shares/shares.ts keeps this table). */
export interface ShareLinksTable {
  id: Generated<string>;
  /** SHA-256 of the token, hex: the token itself is never stored. */
  token_hash: string;
  /** `e:ID` / `n:ID`, as JSON. */
  loads: ColumnType<string[], string, never>;
  show_map: boolean;
  show_status: boolean;
  show_stops: boolean;
  show_pod: boolean;
  /** The latest it works; earlier with `after_delivery_days` once every load is delivered. */
  expires_at: ColumnType<Date, Date, Date>;
  after_delivery_days: number | null;
  reference: string | null;
  /** The user's name. */
  created_by: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  revoked_at: Date | null;
  revoked_by: string | null;
  views: ColumnType<number, number | undefined, number>;
  last_view_at: Date | null;
}

/** What an admin asked to be alerted of (src/server/alerts/alert-store.ts keeps these three tables). */
export interface AlertRulesTable {
  id: Generated<number>;
  kind: 'dark' | 'at-risk' | 'late' | 'detention' | 'pod-overdue';
  /** How long the condition must hold before the rule fires. */
  min_minutes: number;
  enabled: boolean;
  webhook_url: string | null;
  created_by: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_by: string;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  version: ColumnType<number, number | undefined, number>;
}

/** One alert: a rule's condition on one occurrence of one load, fired once. */
export interface AlertsTable {
  id: Generated<string>;
  rule_id: number;
  load: string;
  occurrence: string;
  kind: AlertRulesTable['kind'];
  text: string;
  since: Date | null;
  fired_at: Date;
}

/** An alert's webhook delivery: its state, the next attempt, and each attempt in `log`. */
export interface AlertDeliveriesTable {
  alert_id: string;
  url: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: ColumnType<number, number | undefined, number>;
  next_at: Date | null;
  last_error: string | null;
  log: ColumnType<DeliveryAttempt[], string | undefined, string | RawBuilder<unknown>>;
}

export interface DeliveryAttempt {
  at: string;
  status?: number;
  error?: string;
}
