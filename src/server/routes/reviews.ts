import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import * as z from 'zod/mini';
import { LoadRefText, ReviewRequest, type ReviewsAnswer } from '@/contract/proxy-api';
import type { AppEnv } from '../app-env';
import { requireStore, storeUnavailable } from '../errors';
import { requireRole } from '../middleware/access';
import { decideReview, listReviews } from '../reviews/reviews';
import type { Database } from '../store/database';
import { validate } from '../validation';

const unavailable = storeUnavailable('document reviews cannot be read or saved now');

/**
 * `/api/documents/reviews`: every role reads the team's reviews; brokers and admins decide, each
 * decision audited with their name.
 */
export function reviewRoutes(db: Kysely<Database> | undefined) {
  const store = () => requireStore(db);
  return new Hono<AppEnv>()
    .get('/', validate('query', z.strictObject({ load: z.optional(LoadRefText) })), async (c) => {
      const { load } = c.req.valid('query');
      const reviews = await listReviews(store(), load).catch(unavailable);
      return c.json({ reviews } satisfies ReviewsAnswer);
    })
    .put('/', requireRole('broker', 'admin'), validate('json', ReviewRequest), async (c) => {
      const answer = await decideReview(store(), c.req.valid('json'), c.get('user').name).catch(unavailable);
      return c.json(answer);
    });
}
