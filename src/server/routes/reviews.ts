import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { ReviewRequest, ReviewsQuery, type ReviewsAnswer } from '@/contract/review-api';
import type { AppEnv } from '../app-env';
import { requireStore, storeUnavailable } from '../errors';
import { requireRole } from '../middleware/access';
import { decideReview, listReviews } from '../reviews/reviews';
import type { Database } from '../store/database';
import { validate } from '../validation';

const unavailable = storeUnavailable('document reviews cannot be read or saved now');

/**
 * `/api/documents/reviews`: every role reads the team's reviews (`?since=` those changed after a
 * cursor); brokers and admins decide, each decision audited with their name.
 */
export function reviewRoutes(db: Kysely<Database> | undefined) {
  const store = () => requireStore(db);
  return new Hono<AppEnv>()
    .get('/', validate('query', ReviewsQuery), async (c) => {
      const answer = await listReviews(store(), c.req.valid('query')).catch(unavailable);
      return c.json(answer satisfies ReviewsAnswer);
    })
    .put('/', requireRole('broker', 'admin'), validate('json', ReviewRequest), async (c) => {
      const answer = await decideReview(store(), c.req.valid('json'), c.get('user').name).catch(unavailable);
      return c.json(answer);
    });
}
