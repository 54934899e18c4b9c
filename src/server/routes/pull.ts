import { Hono } from 'hono';
import { detailId } from '@/contract/parse-pull';
import { pullQuerySchema, type ProxyPullAnswer, type PullQuery } from '@/contract/proxy-api';
import type { LoadDetail } from '@/contract/load-detail';
import type { LoadBy } from '@/domain/model';
import type { AppEnv } from '../app-env';
import type { DriftReport } from '../drift-report';
import type { UpstreamClient } from '../upstream-client';
import { validate } from '../validation';

export interface PullRouteOptions {
  upstream: UpstreamClient;
  maxIds: number;
  upstreamMaxIds: number;
  drift: DriftReport;
}

/** At most this many upstream calls of one browser request run at once. */
const MAX_IN_FLIGHT = 4;

async function inChunks<T, R>(items: T[], size: number, run: (chunk: T[]) => Promise<R>): Promise<R[]> {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  const results: R[] = new Array<R>(chunks.length);
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const i = next++;
      results[i] = await run(chunks[i] as T[]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(MAX_IN_FLIGHT, chunks.length) }, worker));
  return results;
}

/** `POST /api/pull/by-external-id` and `/by-load-number`. */
export function pullRoutes(o: PullRouteOptions) {
  const schema = pullQuerySchema(o.maxIds);
  const app = new Hono<AppEnv>();

  const handle = (by: LoadBy) =>
    async function (
      query: PullQuery,
      count: (calls: number, loads: number) => void,
    ): Promise<ProxyPullAnswer> {
      const answers = await inChunks(query.ids, o.upstreamMaxIds, (chunk) =>
        o.upstream.pull(by, chunk, query.include, 'no'),
      );
      for (const answer of answers) o.drift.record(by, answer.issues);
      const wanted = new Set(query.ids);
      const byId = new Map<string, LoadDetail>();
      for (const answer of answers) {
        for (const detail of answer.data.details) {
          const id = detailId(detail, by);
          if (id !== undefined && wanted.has(id) && !byId.has(id)) byId.set(id, detail);
        }
      }
      count(answers.length, byId.size);
      return {
        status: true,
        timeStamp: answers[answers.length - 1]?.data.timeStamp,
        cursor: `full.${Date.now()}`,
        details: query.ids.flatMap((id) => byId.get(id) ?? []),
        missing: query.ids.filter((id) => !byId.has(id)),
      };
    };

  for (const [path, by] of [
    ['/by-external-id', 'external-id'],
    ['/by-load-number', 'load-number'],
  ] as const) {
    const run = handle(by);
    app.post(path, validate('json', schema), async (c) => {
      const answer = await run(c.req.valid('json'), (calls, loads) => {
        c.set('upstreamCalls', calls);
        c.set('loadsServed', loads);
      });
      return c.json(answer);
    });
  }
  return app;
}
