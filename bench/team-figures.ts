import type { Figure } from './figures';
import { median, percentile } from './peer-figures';

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** What the team bench measured on one store at its full size. */
export interface StoreSample {
  /** `pglite` or `postgres`. */
  kind: string;
  /** How many reviews the store held while measured. */
  reviews: number;
  /** Each PUT /api/documents/reviews, sent to answered (ms). */
  putMs: number[];
  /** Each GET /api/documents/reviews (every review), sent to body read (ms). */
  getMs: number[];
  /** The size of that GET's body (bytes). */
  getBytes: number;
  /** Each refresh's GET `?since=` the last cursor after one change elsewhere (ms), and its size (bytes). */
  sinceMs?: number[];
  sinceBytes?: number;
}

/**
 * The store's figures at its size: PUT p50 and p95, GET all median and its size, and a refresh's
 * GET since its cursor. No goals: recorded only.
 */
export function storeFigures(s: StoreSample): Figure[] {
  const at = `${s.reviews.toLocaleString('en-US')} reviews, ${s.kind}`;
  const figure = (name: string, value: number, unit: string): Figure => ({
    figure: `team: ${name} (${at})`,
    value: round(value),
    unit,
    goal: '-',
    pass: Number.isFinite(value),
  });
  return [
    figure(`review PUT p50 of ${s.putMs.length}`, percentile(s.putMs, 50), 'ms'),
    figure(`review PUT p95 of ${s.putMs.length}`, percentile(s.putMs, 95), 'ms'),
    figure(`GET all reviews, median of ${s.getMs.length}`, median(s.getMs), 'ms'),
    figure('GET all reviews, answer size', s.getBytes / 1000, 'kB'),
    ...(s.sinceMs
      ? [
          figure(`GET ?since= after one change, median of ${s.sinceMs.length}`, median(s.sinceMs), 'ms'),
          figure('GET ?since= after one change, answer size', (s.sinceBytes ?? NaN) / 1000, 'kB'),
        ]
      : []),
  ];
}

/**
 * The URL of a throwaway database beside the one `url` names, on the same server, with the same
 * user: the bench fills it and drops it, and never writes into the database it was given.
 */
export function siblingDatabaseUrl(url: string, name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.href;
}
