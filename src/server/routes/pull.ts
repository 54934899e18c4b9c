import { Hono } from 'hono';
import { pullQuerySchema, type ProxyPullAnswer } from '@/contract/proxy-api';
import type { LoadBy } from '@/domain/model';
import type { AppEnv } from '../app-env';
import type { TrackCache } from '../track-cache';
import { validate } from '../validation';

export interface PullRouteOptions {
  cache: TrackCache;
  maxIds: number;
}

/** `POST /api/pull/by-external-id` and `/by-load-number`, answered from the track cache. */
export function pullRoutes(o: PullRouteOptions) {
  const schema = pullQuerySchema(o.maxIds);
  const app = new Hono<AppEnv>();
  for (const [path, by] of [
    ['/by-external-id', 'external-id'],
    ['/by-load-number', 'load-number'],
  ] as const satisfies readonly (readonly [string, LoadBy])[]) {
    app.post(path, validate('json', schema), async (c) => {
      const query = c.req.valid('json');
      const served = await o.cache.get(by, query.ids, query.include, query.since);
      c.set('upstreamCalls', served.upstreamCalls);
      c.set('loadsServed', served.details.length);
      const answer: ProxyPullAnswer = {
        status: true,
        timeStamp: served.timeStamp,
        cursor: served.cursor,
        details: served.details,
        missing: served.missing,
        issues: served.issues,
      };
      return c.json(answer);
    });
  }
  return app;
}
