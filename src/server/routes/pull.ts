import { Hono } from 'hono';
import { pullQuerySchema } from '@/contract/proxy-api';
import { PULL_ANSWER_VERSION } from '@/contract/load-view';
import type { LoadBy } from '@/domain/model';
import type { AppEnv } from '../app-env';
import type { TrackSource } from '../track-cache';
import { validate } from '../validation';

// Each load on a line of its own (`ProxyPullAnswer`): the page parses a board's loads a part at a time.
const FIRST_LOAD = Buffer.from('\n');
const NEXT_LOAD = Buffer.from('\n,');

export interface PullRouteOptions {
  cache: Pick<TrackSource, 'getJson'>;
  maxIds: number;
}

/**
 * `POST /api/pull/by-external-id` and `/by-load-number`, answered from the track cache in the proxy's
 * own shape (`ProxyPullAnswer`). The answer is assembled from the loads the cache keeps serialized,
 * not serialized again for every browser.
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
      c.set('loadsServed', served.loads.length);
      // The ProxyPullAnswer shape, with the loads spliced in as the cache serialized them.
      const head = JSON.stringify({
        version: PULL_ANSWER_VERSION,
        cursor: served.cursor,
        timeStamp: served.timeStamp,
      });
      const pending = served.pending?.length ? served.pending : undefined;
      const tail = JSON.stringify({ missing: served.missing, pending });
      const parts: Buffer[] = [Buffer.from(`${head.slice(0, -1)},"loads":[`)];
      served.loads.forEach((load, i) => {
        parts.push(i > 0 ? NEXT_LOAD : FIRST_LOAD);
        parts.push(load);
      });
      parts.push(Buffer.from(`\n],${tail.slice(1)}`));
      return c.body(Buffer.concat(parts), 200, { 'Content-Type': 'application/json' });
    });
  }
  return app;
}
