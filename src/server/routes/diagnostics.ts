import { Hono } from 'hono';
import type { Diagnostics, UpstreamState } from '@/contract/diagnostics-api';
import type { AppEnv } from '../app-env';
import type { DriftReport } from '../drift-report';
import type { UpstreamStats } from '../upstream-client';

const iso = (t: number | null): string | null => (t === null ? null : new Date(t).toISOString());

/** The service's state at `now`: a 429's wait and a pause are said only while they last. */
export function upstreamState(stats: UpstreamStats, now: number): UpstreamState {
  const limit = stats.rateLimit;
  return {
    lastSuccessAt: iso(stats.lastSuccessAt),
    lastError: stats.lastError && { ...stats.lastError, at: new Date(stats.lastError.at).toISOString() },
    rateLimited:
      limit && limit.until > now
        ? { retryAfterSeconds: limit.retryAfterSeconds, until: new Date(limit.until).toISOString() }
        : null,
    consecutiveFailures: stats.consecutiveFailures,
    pauseAfterFailures: stats.pauseAfterFailures,
    pausedUntil: stats.pausedUntil !== null && stats.pausedUntil > now ? iso(stats.pausedUntil) : null,
  };
}

/** `GET /api/diagnostics`: the drift report of the upstream's answers since start, and its state. */
export function diagnosticsRoutes(report: DriftReport, stats: UpstreamStats, now: () => number) {
  return new Hono<AppEnv>().get('/', (c) => {
    const body: Diagnostics = { ...report.snapshot(), upstream: upstreamState(stats, now()) };
    return c.json(body);
  });
}
