import { createHash, randomBytes } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { LoadViewWire } from '@/contract/load-view';
import { tripAt, type TripSpan } from '@/domain/geofence';
import type { CreateShareRequest, ShareLink, ShareShows } from '@/contract/share-api';
import { recordAudit } from '../store/audit';
import type { Database, ShareLinksTable } from '../store/database';

const DAY_MS = 86_400_000;

/** How long an `after-delivery` link may last at most, delivered or not. */
export const AFTER_DELIVERY_CAP_DAYS = 60;

/** A token's form: 128 random bits, base64url. Anything else is not looked up. */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** A new token: 128 random bits. Only its hash is stored. */
export function newShareToken(): string {
  return randomBytes(16).toString('base64url');
}

/** What the store keeps of a token: its SHA-256, hex. */
export function shareTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export type ShareRow = Selectable<ShareLinksTable>;

export const showsOf = (row: ShareRow): ShareShows => ({
  map: row.show_map,
  status: row.show_status,
  stops: row.show_stops,
  pod: row.show_pod,
});

const isLive = (row: ShareRow, now: number) => row.revoked_at === null && row.expires_at.getTime() > now;

const toLink = (row: ShareRow, now: number): ShareLink => ({
  id: row.id,
  loads: row.loads,
  shows: showsOf(row),
  expiresAt: row.expires_at.toISOString(),
  afterDeliveryDays: row.after_delivery_days,
  reference: row.reference,
  createdBy: row.created_by,
  createdAt: row.created_at.toISOString(),
  revokedAt: row.revoked_at?.toISOString() ?? null,
  revokedBy: row.revoked_by,
  views: row.views,
  lastViewAt: row.last_view_at?.toISOString() ?? null,
  live: isLive(row, now),
});

/** Makes a link and its token; audited (`share.create`) in the same transaction. */
export async function createShare(
  db: Kysely<Database>,
  input: CreateShareRequest,
  by: string,
  now: number,
): Promise<{ link: ShareLink; token: string }> {
  const token = newShareToken();
  const days = input.expiry.kind === 'days' ? input.expiry.days : AFTER_DELIVERY_CAP_DAYS;
  const loads = [...new Set(input.loads)];
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('share_links')
      .values({
        token_hash: shareTokenHash(token),
        loads: JSON.stringify(loads),
        show_map: input.shows.map,
        show_status: input.shows.status,
        show_stops: input.shows.stops,
        show_pod: input.shows.pod,
        expires_at: new Date(now + days * DAY_MS),
        after_delivery_days: input.expiry.kind === 'after-delivery' ? input.expiry.days : null,
        reference: input.reference ?? null,
        created_by: by,
        created_at: new Date(now),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      actor: by,
      action: 'share.create',
      subject: loads.join(' '),
      details: {
        id: row.id,
        expiresAt: row.expires_at.toISOString(),
        shows: input.shows,
        expiry: input.expiry,
      },
      at: new Date(now),
    });
    return { link: toLink(row, now), token };
  });
}

/** The team's links, newest first. */
export async function listShares(db: Kysely<Database>, now: number, limit = 500): Promise<ShareLink[]> {
  const rows = await db.selectFrom('share_links').selectAll().orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => toLink(r, now));
}

/**
 * Revokes a link at once; audited (`share.revoke`). False when there is no such link; a link
 * revoked before stays as it was.
 */
export async function revokeShare(
  db: Kysely<Database>,
  id: string,
  by: string,
  now: number,
): Promise<ShareLink | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('share_links')
      .selectAll()
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (row === undefined) return undefined;
    if (row.revoked_at !== null) return toLink(row, now);
    const revoked = await trx
      .updateTable('share_links')
      .set({ revoked_at: new Date(now), revoked_by: by })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      actor: by,
      action: 'share.revoke',
      subject: row.loads.join(' '),
      details: { id },
      at: new Date(now),
    });
    return toLink(revoked, now);
  });
}

/** The link a token opens while it works (not revoked, not expired); undefined otherwise. */
export async function findLiveShare(
  db: Kysely<Database>,
  token: string,
  now: number,
): Promise<ShareRow | undefined> {
  const row = await db
    .selectFrom('share_links')
    .selectAll()
    .where('token_hash', '=', shareTokenHash(token))
    .executeTakeFirst();
  return row && isLive(row, now) ? row : undefined;
}

/**
 * An `after-delivery` link whose loads were all delivered ends at `at` (never later than it would
 * have); whether that moved its end.
 */
export async function endShareAt(db: Kysely<Database>, id: string, at: number): Promise<boolean> {
  const result = await db
    .updateTable('share_links')
    .set({ expires_at: new Date(at) })
    .where('id', '=', id)
    .where('expires_at', '>', new Date(at))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Counts a view; with `audit`, writes its `share.view` entry in the same transaction. */
export async function countShareView(
  db: Kysely<Database>,
  row: ShareRow,
  now: number,
  audit: { address: string } | undefined,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('share_links')
      .set({ views: sql<number>`views + 1`, last_view_at: new Date(now) })
      .where('id', '=', row.id)
      .execute();
    if (audit)
      await recordAudit(trx, {
        actor: 'anonymous',
        action: 'share.view',
        subject: row.loads.join(' '),
        details: { id: row.id, address: audit.address },
        at: new Date(now),
      });
  });
}

/** A link that works now, as the job that keeps its loads pulled needs it. */
export interface LiveShare {
  id: string;
  loads: string[];
  afterDeliveryDays: number | null;
  expiresAt: number;
  createdAt: number;
}

/** Every link that works now (not revoked, not expired), oldest first. */
export async function liveShares(db: Kysely<Database>, now: number): Promise<LiveShare[]> {
  const rows = await db
    .selectFrom('share_links')
    .select(['id', 'loads', 'after_delivery_days', 'expires_at', 'created_at'])
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', new Date(now))
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    loads: r.loads,
    afterDeliveryDays: r.after_delivery_days,
    expiresAt: r.expires_at.getTime(),
    createdAt: r.created_at.getTime(),
  }));
}

/**
 * The trip of a load a link made at `madeAt` shows (`tripAt`), and whether the load has begun
 * another since: a link is for one trip, and a truck dispatched again under the same ids is on
 * another customer's.
 */
export function sharedTrip(
  load: Pick<LoadViewWire, 'events'>,
  madeAt: number,
): TripSpan & { ended: boolean } {
  const span = tripAt(load.events ?? [], madeAt);
  return { ...span, ended: span.to !== Infinity };
}

/**
 * When the link's trip of a load was done with: its last delivery stop's departure (or arrival); for
 * a trip another has followed, its last status, at the latest.
 */
function doneAt(load: LoadViewWire, madeAt: number): number | undefined {
  const trip = sharedTrip(load, madeAt);
  if (trip.ended) return (load.events ?? []).findLast((e) => e.instant < trip.to)?.instant ?? trip.from;
  const stops = load.outlook?.stops ?? [];
  const last = stops.filter((s) => s.type === 'delivery').at(-1) ?? stops.at(-1);
  return last?.departedAt ?? last?.arrivedAt;
}

/**
 * When an `after-delivery` link made at `madeAt` ends: `days` after its last load left its
 * delivery stop; undefined while any of its `asked` loads is not delivered (or not found).
 */
export function afterDeliveryEnd(
  days: number,
  loads: readonly LoadViewWire[],
  asked: number,
  madeAt: number,
): number | undefined {
  if (loads.length < asked) return undefined;
  let latest = 0;
  for (const load of loads) {
    const at = doneAt(load, madeAt);
    if (at === undefined) return undefined;
    latest = Math.max(latest, at);
  }
  return latest + days * DAY_MS;
}

/**
 * The load references (`e:ID`, `n:ID`) of every link that works now: loads a customer may open
 * with no dashboard open, which must keep being pulled.
 */
export async function liveShareLoads(db: Kysely<Database>, now: number): Promise<string[]> {
  const rows = await db
    .selectFrom('share_links')
    .select('loads')
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', new Date(now))
    .execute();
  return [...new Set(rows.flatMap((r) => r.loads))].sort();
}
