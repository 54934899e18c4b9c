import { Hono } from 'hono';
import type { Health } from '@/contract/proxy-api';
import type { UpstreamStats } from '../upstream-client';

/** `GET /api/health`: liveness, and when the upstream last answered. */
export function healthRoutes(mode: Health['upstream']['mode'], stats: UpstreamStats) {
  return new Hono().get('/', (c) => {
    const body: Health = {
      ok: true,
      upstream: {
        mode,
        lastReachableAt:
          stats.lastReachableAt === null ? null : new Date(stats.lastReachableAt).toISOString(),
      },
    };
    return c.json(body);
  });
}
