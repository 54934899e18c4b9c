import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import * as z from 'zod/mini';
import {
  CreateShareRequest,
  SHARE_NOT_VALID,
  type ShareCreated,
  type SharedLoad,
  type SharedStop,
  type SharesAnswer,
  type ShareView,
} from '@/contract/share-api';
import type { LoadViewWire } from '@/contract/load-view';
import type { LoadBy, StopOutlook } from '@/domain/model';
import { keptTripStops, type KeptTripStops, type TripStop } from '@/domain/trip-stops';
import { isNoiseEvent } from '@/domain/noise-rules';
import type { AppEnv } from '../app-env';
import { clientAddress, throttleKey } from '../auth/client-address';
import { ProxyError, requireStore, storeUnavailable } from '../errors';
import { requireRole } from '../middleware/access';
import { createRateLimit } from '../shares/rate-limit';
import {
  afterDeliveryEnd,
  countShareView,
  createShare,
  endShareAt,
  findLiveShare,
  listShares,
  revokeShare,
  SHARE_TOKEN_PATTERN,
  sharedTrip,
  showsOf,
  type ShareRow,
} from '../shares/shares';
import type { Database } from '../store/database';
import type { TrackSource } from '../track-cache';
import { keptTripsOf } from '../tracks/trip-stops';
import { validate } from '../validation';

const unavailable = storeUnavailable('share links cannot be read or changed now');

/** Requests per minute a public link answers, per token and per address. */
export const SHARE_LIMIT_PER_TOKEN = 120;
export const SHARE_LIMIT_PER_ADDRESS = 60;
/** A view from one address is audited at most once this often per link. */
const VIEW_AUDIT_MS = 3_600_000;

/**
 * `/api/shares`: every role (dispatcher, broker, admin) makes a link from a load's page; brokers
 * and admins list the team's links and revoke them (the Share links page).
 */
export function shareRoutes(db: Kysely<Database> | undefined, now: () => number) {
  const store = () => requireStore(db);
  return new Hono<AppEnv>()
    .get('/', requireRole('broker', 'admin'), async (c) => {
      const links = await listShares(store(), now()).catch(unavailable);
      return c.json({ links } satisfies SharesAnswer);
    })
    .post('/', validate('json', CreateShareRequest), async (c) => {
      const made = await createShare(store(), c.req.valid('json'), c.get('user').name, now()).catch(
        unavailable,
      );
      return c.json({ ...made, path: `/share/${made.token}` } satisfies ShareCreated, 201);
    })
    .delete(
      '/:id',
      requireRole('broker', 'admin'),
      validate('param', z.object({ id: z.string().check(z.regex(/^\d{1,18}$/, 'a link id is a number')) })),
      async (c) => {
        const link = await revokeShare(store(), c.req.valid('param').id, c.get('user').name, now()).catch(
          unavailable,
        );
        if (!link) throw new ProxyError(404, 'share_not_found', 'no such link');
        return c.json(link);
      },
    );
}

export interface PublicShareOptions {
  db: Kysely<Database> | undefined;
  cache: Pick<TrackSource, 'get'>;
  trustProxy: number;
  now: () => number;
  page: Pick<ShareView, 'refreshSeconds' | 'tileUrl' | 'tileAttribution'>;
}

const POD = /\bpod\b|proof of delivery/i;

/** Our id, or, when the broker gave the customer's reference, that (numbered when it covers several). */
function labelOf(row: ShareRow, ref: string, index: number): string {
  if (row.reference === null) return ref.slice(2);
  return row.loads.length > 1 ? `${row.reference} · ${index + 1} of ${row.loads.length}` : row.reference;
}

/**
 * A stop as a customer sees it, field by field: a kept stop of an ended trip (no ETA, the trip is
 * over) or one of the trip under way, with its ETA.
 */
function sharedStop(s: TripStop | StopOutlook): SharedStop {
  const stop: SharedStop = { order: s.order, progress: s.progress, status: s.status };
  if (s.type) stop.type = s.type;
  if (s.name) stop.name = s.name;
  if (s.place) stop.place = { city: s.place.city, state: s.place.state, country: s.place.country };
  if (s.lat !== undefined && s.lon !== undefined) Object.assign(stop, { lat: s.lat, lon: s.lon });
  if (s.appointment) stop.appointment = s.appointment.local;
  if (s.appointment?.instant !== undefined) stop.appointmentAt = s.appointment.instant;
  if ('eta' in s && s.eta !== undefined) stop.eta = s.eta;
  if (s.arrivedAt !== undefined) stop.arrivedAt = s.arrivedAt;
  if (s.departedAt !== undefined) stop.departedAt = s.departedAt;
  return stop;
}

/**
 * A load as the link shows it: each field copied by name, so nothing unlisted can pass, and only of
 * the trip the link was made for (`sharedTrip`). Once the load has begun another trip under the same
 * ids, its places are that trip's: the link shows its own trip's last status and proofs, and its
 * stops as they were kept while it was current (`kept`; none when they were never seen).
 */
function sharedLoad(
  label: string,
  load: LoadViewWire | undefined,
  row: ShareRow,
  kept: KeptTripStops,
): SharedLoad {
  if (load === undefined) return { label, found: false };
  const out: SharedLoad = { label, found: true };
  const trip = sharedTrip(load, row.created_at.getTime());
  const inTrip = (instant: number) => instant >= trip.from && instant < trip.to;
  if (trip.ended) out.ended = true;
  // The place near which the truck is tells where it is as the map does: shown only with it.
  if (row.show_map && load.latestLocation && !trip.ended) {
    const { lat, lon, accuracy, instant, place } = load.latestLocation;
    out.position = { lat, lon, accuracy, at: instant };
    if (place) out.place = { city: place.city, state: place.state, country: place.country };
  }
  if (row.show_status) {
    // The newest status event that is the trip's, not an app or system notice from the phone.
    const last = (load.events ?? []).findLast((e) => e.name && !isNoiseEvent(e) && inTrip(e.instant));
    if (last?.name) out.status = { name: last.name, at: last.instant };
  }
  if (row.show_stops && load.outlook && !trip.ended) {
    out.stops = load.outlook.stops.map(sharedStop);
  }
  if (row.show_stops && trip.ended) {
    const stops = kept(load, trip.from)?.stops;
    if (stops) out.stops = stops.map(sharedStop);
  }
  if (row.show_pod) {
    // A proof with no readable time could be of either trip: shown only on a track of one trip.
    const oneTrip = trip.from === -Infinity && trip.to === Infinity;
    out.pod = (load.documents ?? [])
      .filter((d) => POD.test(d.type ?? '') && (d.instant === null ? oneTrip : inTrip(d.instant)))
      .map((d) => ({ url: d.url, at: d.instant }));
  }
  return out;
}

/**
 * `GET /api/share/:token`: the public page's read-only route, mounted before the login guard. A
 * token that is unknown, expired or revoked gets one and the same 404, and the page never more
 * than `ShareView`. Rate limited per token and per address (429 with Retry-After).
 */
export function publicShareRoutes(o: PublicShareOptions) {
  const perToken = createRateLimit({ limit: SHARE_LIMIT_PER_TOKEN, windowMs: 60_000 }, o.now);
  const perAddress = createRateLimit({ limit: SHARE_LIMIT_PER_ADDRESS, windowMs: 60_000 }, o.now);
  const audited = new Map<string, number>();

  const notValid = () => new ProxyError(404, SHARE_NOT_VALID.error.code, SHARE_NOT_VALID.error.message);

  return new Hono<AppEnv>().get('/:token', async (c) => {
    c.header('X-Robots-Tag', 'noindex, nofollow');
    c.header('Cache-Control', 'no-store');
    const token = c.req.param('token');
    const address = clientAddress(c, o.trustProxy);
    const wait = perAddress.take(throttleKey(address)) ?? perToken.take(token.slice(0, 64));
    if (wait !== undefined) {
      const seconds = Math.max(1, Math.ceil(wait / 1000));
      throw new ProxyError(
        429,
        'too_many_requests',
        `too many requests for this link: try again in ${seconds} s`,
        { retryAfterSeconds: seconds },
        { 'Retry-After': String(seconds) },
      );
    }
    if (!SHARE_TOKEN_PATTERN.test(token)) throw notValid();
    const db = requireStore(o.db);
    const t = o.now();
    const row = await findLiveShare(db, token, t).catch(unavailable);
    if (row === undefined) throw notValid();

    const byKind: Record<LoadBy, string[]> = { 'external-id': [], 'load-number': [] };
    for (const ref of row.loads)
      byKind[ref.startsWith('n:') ? 'load-number' : 'external-id'].push(ref.slice(2));
    const found = new Map<string, LoadViewWire>();
    const pending = new Set<string>();
    for (const by of ['external-id', 'load-number'] as const) {
      if (byKind[by].length === 0) continue;
      const served = await o.cache.get(by, byKind[by], undefined, undefined);
      const kind = by === 'load-number' ? 'n' : 'e';
      for (const load of served.loads) found.set(`${kind}:${load.id}`, load);
      for (const id of served.pending ?? []) pending.add(`${kind}:${id}`);
    }

    let expiresAt = row.expires_at.getTime();
    if (row.after_delivery_days !== null) {
      const end = afterDeliveryEnd(
        row.after_delivery_days,
        [...found.values()],
        row.loads.length,
        row.created_at.getTime(),
      );
      // Kept as soon as it is known, not once it has passed: a load dispatched again under the same
      // ids must not keep its last trip's link alive, and the page says when it ends.
      if (end !== undefined && end < expiresAt) {
        await endShareAt(db, row.id, end).catch(unavailable);
        expiresAt = end;
      }
      if (expiresAt <= t) throw notValid();
    }

    // A page's later polls say so: a view is a page opened, not every refresh of it.
    if (c.req.query('poll') === undefined) {
      const key = `${row.id}|${throttleKey(address)}`;
      const last = audited.get(key);
      const audit = last === undefined || t - last >= VIEW_AUDIT_MS;
      if (audit) {
        if (audited.size > 100_000) audited.clear();
        audited.set(key, t);
      }
      await countShareView(db, row, t, audit ? { address } : undefined).catch(unavailable);
    }

    // The stops of the link's trip once the load has begun another: kept while that trip was current.
    const ended = row.show_stops
      ? [...found.values()].flatMap((l) => {
          const trip = sharedTrip(l, row.created_at.getTime());
          return trip.ended ? [{ by: l.by, id: l.id, from: trip.from }] : [];
        })
      : [];
    const kept = keptTripStops(ended.length === 0 ? [] : await keptTripsOf(db, ended).catch(unavailable));
    const body: ShareView = {
      broker: row.created_by,
      expiresAt: new Date(expiresAt).toISOString(),
      shows: showsOf(row),
      ...o.page,
      servedAt: t,
      loads: row.loads.map((ref, i) =>
        pending.has(ref)
          ? { label: labelOf(row, ref, i), found: false, pending: true }
          : sharedLoad(labelOf(row, ref, i), found.get(ref), row, kept),
      ),
    };
    return c.json(body);
  });
}
