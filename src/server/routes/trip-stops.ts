import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { TripStopsQuery, type TripStopsAnswer } from '@/contract/trip-stops';
import type { AppEnv } from '../app-env';
import { storeUnavailable } from '../errors';
import type { Database } from '../store/database';
import { keptStopsOf } from '../tracks/trip-stops';
import { validate } from '../validation';

const unavailable = storeUnavailable('the trips’ kept stops cannot be read now');

/**
 * `GET /api/trips/stops?load=`, every role: the stops kept of each of a load's trips (the replay
 * draws an earlier trip's). Without a store none are kept: an empty list.
 */
export function tripStopsRoutes(db: Kysely<Database> | undefined) {
  return new Hono<AppEnv>().get('/', validate('query', TripStopsQuery), async (c) => {
    const ref = c.req.valid('query').load;
    const load = {
      by: ref.startsWith('n:') ? ('load-number' as const) : ('external-id' as const),
      id: ref.slice(2),
    };
    const kept = db ? await keptStopsOf(db, [load]).catch(unavailable) : [];
    const trips = kept.map(({ by: _by, id: _id, from, ...trip }) => ({
      ...(from !== -Infinity && { from }),
      ...trip,
    }));
    return c.json({ trips } satisfies TripStopsAnswer);
  });
}
