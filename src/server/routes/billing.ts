import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import * as z from 'zod/mini';
import { PaperworkQuery, ReadyQuery, type OverdueAnswer, type ReadyAnswer } from '@/contract/billing-api';
import type { AppEnv } from '../app-env';
import {
  earlierTripsToRead,
  overdueLoads,
  paperworkOf,
  readyCsv,
  readyToBill,
  reviewsByUrl,
} from '../billing/billing';
import { requireStore, storeUnavailable } from '../errors';
import { requireRole } from '../middleware/access';
import { listReviews } from '../reviews/reviews';
import type { Database } from '../store/database';
import type { TrackSource } from '../track-cache';
import { keptTripsOf } from '../tracks/trip-stops';
import { validate } from '../validation';
import type { Load } from '@/domain/model';
import { keptTripStops, type KeptTripStops } from '@/domain/trip-stops';

const unavailable = storeUnavailable('paperwork cannot be reckoned without the document reviews');

/**
 * `/api/billing/*`, brokers and admins: paperwork per load, ready to bill (JSON or CSV), POD overdue.
 * The loads are those the proxy holds (`TrackSource.held`): the service has no list of all loads, so
 * a load no browser has watched since start, or one evicted past `CACHE_MAX_LOADS`, is not counted.
 */
export function billingRoutes(
  cache: Pick<TrackSource, 'held'>,
  db: Kysely<Database> | undefined,
  podDueHours: number,
  now: () => number,
) {
  const reviews = async () => reviewsByUrl((await listReviews(requireStore(db)).catch(unavailable)).reviews);
  // Earlier trips' stops, kept while each was current: only the trips a line or a check reads.
  const kept = async (loads: readonly Load[]): Promise<KeptTripStops> => {
    const trips = loads.flatMap((l) => earlierTripsToRead(l).map((from) => ({ by: l.by, id: l.id, from })));
    return keptTripStops(
      trips.length === 0 ? [] : await keptTripsOf(requireStore(db), trips).catch(unavailable),
    );
  };
  return new Hono<AppEnv>()
    .use(requireRole('broker', 'admin'))
    .get('/paperwork', validate('query', PaperworkQuery), async (c) => {
      const loads = await cache.held();
      const flagged = c.req.valid('query').flagged === '1';
      return c.json(paperworkOf(loads, await reviews(), { flagged, kept: await kept(loads) }));
    })
    .get('/ready', validate('query', ReadyQuery), async (c) => {
      const query = c.req.valid('query');
      const loads = await cache.held();
      const ready = readyToBill(loads, await reviews(), query, await kept(loads));
      if (query.format === 'csv') {
        const name = `ready-to-bill${query.from ? `-from-${query.from}` : ''}${query.to ? `-to-${query.to}` : ''}.csv`;
        return c.body(readyCsv(ready), 200, {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="${name}"`,
        });
      }
      return c.json({ held: loads.length, loads: ready } satisfies ReadyAnswer);
    })
    .get('/overdue', validate('query', z.strictObject({})), async (c) => {
      const loads = await cache.held();
      return c.json({
        held: loads.length,
        dueHours: podDueHours,
        loads: overdueLoads(loads, now(), podDueHours, await kept(loads)),
      } satisfies OverdueAnswer);
    });
}
