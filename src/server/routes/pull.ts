import { Hono } from 'hono';
import { pullQuerySchema } from '@/contract/proxy-api';
import type { LoadBy } from '@/domain/model';
import type { AppEnv } from '../app-env';
import type { TrackCache } from '../track-cache';
import { validate } from '../validation';

const COMMA = Buffer.from(',');

export interface PullRouteOptions {
  cache: TrackCache;
  maxIds: number;
}

/**
 * `POST /api/pull/by-external-id` and `/by-load-number`, answered from the track cache. The answer is
 * assembled from the details the cache keeps serialized, not serialized again for every browser.
 */
export function pullRoutes(o: PullRouteOptions) {
  const schema = pullQuerySchema(o.maxIds);
  const app = new Hono<AppEnv>();
  for (const [path, by] of [
    ['/by-external-id', 'external-id'],
    ['/by-load-number', 'load-number'],
  ] as const satisfies readonly (readonly [string, LoadBy])[]) {
    app.post(path, validate('json', schema), async (c) => {
      const query = c.req.valid('json');
      const served = await o.cache.getJson(by, query.ids, query.include, query.since);
      c.set('upstreamCalls', served.upstreamCalls);
      c.set('loadsServed', served.details.length);
      // The ProxyPullAnswer shape, with the details spliced in as the cache serialized them.
      const head = JSON.stringify({ status: true, timeStamp: served.timeStamp, cursor: served.cursor });
      const tail = JSON.stringify({ missing: served.missing, issues: served.issues });
      const parts: Buffer[] = [Buffer.from(`${head.slice(0, -1)},"details":[`)];
      served.details.forEach((detail, i) => {
        if (i > 0) parts.push(COMMA);
        parts.push(detail);
      });
      parts.push(Buffer.from(`],${tail.slice(1)}`));
      return c.body(Buffer.concat(parts), 200, { 'Content-Type': 'application/json' });
    });
  }
  return app;
}
