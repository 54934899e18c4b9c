// `npx tsx bench/run.ts tracks`: tracks in the store (issue 35): its size per million pings, the time
// to store a full resync of 1,000 loads it holds already and one refresh delta of them, on PGlite and
// PostgreSQL (DATABASE_URL, or a throwaway cluster from Debian's binaries, run without fsync).
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { createLease } from '@/server/puller/lease';
import { storeDeltas } from '@/server/tracks/track-store';
import { generateFleet } from '@/simulator/fleet';
import { startPostgresCluster } from '@/testing/postgres-cluster';
import { benchStore } from './bench-store';
import type { Figure } from './figures';
import { median } from './peer-figures';
import { simulatedLoads } from '@/testing/simulated-answer';

const LOADS = 1000;
const startedAt = Date.parse('2026-11-22T12:00:00Z');
/** The fleet's tracks after this long: about 200 pings a load. */
const FILLED_AFTER = 3 * 60 * 60_000;
const REFRESHES = 5;
const REFRESH_MS = 5 * 60_000;
const round = (n: number) => Math.round(n * 10) / 10;

async function benchKind(kind: 'pglite' | 'postgres', serverUrl: string | undefined): Promise<Figure[]> {
  const { store, drop } = await benchStore(kind, serverUrl);
  try {
    const state = await createLease(store.db, { account: 'bench', seconds: 600 }).acquire();
    if (!state.held) throw new Error('the bench could not take the lease');
    const plans = generateFleet({ seed: 5, loads: LOADS, speed: 1, startedAt });
    const filledAt = startedAt + FILLED_AFTER;
    const full = simulatedLoads(plans, filledAt, { speed: 1, seed: 5 });
    const pings = full.reduce((n, l) => n + l.pings.length, 0);
    const items = full.reduce(
      (n, l) =>
        n + l.pings.length + l.events.length + l.comments.length + l.documents.length + l.readings.length,
      0,
    );
    // Stored as the first full pulls would: 100 loads an answer.
    for (let i = 0; i < full.length; i += 100)
      await storeDeltas(store.db, state.fence, full.slice(i, i + 100));
    await sql`vacuum analyze`.execute(store.db);
    const { rows } = await sql<{ bytes: string }>`
      select sum(pg_total_relation_size(c))::text as bytes
      from unnest(array['track_loads', 'track_items']::regclass[]) as c`.execute(store.db);
    const bytes = Number(rows[0]?.bytes ?? 0);
    // A full resync (RESYNC_MINUTES, a new lease holder) of tracks the store holds already: the same
    // answers again, nothing changed.
    const resyncStarted = performance.now();
    let resyncChanged = 0;
    for (let i = 0; i < full.length; i += 100)
      resyncChanged += (await storeDeltas(store.db, state.fence, full.slice(i, i + 100))).changed.length;
    const resyncMs = performance.now() - resyncStarted;
    // One refresh: every load's delta five minutes on (its new pings, events, readings).
    const times: number[] = [];
    let changed = 0;
    for (let r = 1; r <= REFRESHES; r++) {
      const delta = simulatedLoads(plans, filledAt + r * REFRESH_MS, {
        speed: 1,
        seed: 5,
        after: filledAt + (r - 1) * REFRESH_MS,
      });
      const t = performance.now();
      const stored = await storeDeltas(store.db, state.fence, delta);
      times.push(performance.now() - t);
      changed = stored.changed.length;
    }
    return [
      {
        figure: `tracks: store size per million pings (${pings.toLocaleString('en-US')} pings, ${items.toLocaleString('en-US')} items, ${kind})`,
        value: round(((bytes / pings) * 1e6) / 2 ** 20),
        unit: 'MiB',
        goal: '-',
        pass: true,
      },
      {
        figure: `tracks: store a full resync of ${LOADS.toLocaleString('en-US')} loads, nothing changed (${resyncChanged} changed, ${kind})`,
        value: round(resyncMs),
        unit: 'ms',
        goal: '-',
        pass: true,
      },
      {
        figure: `tracks: store one refresh delta of ${LOADS.toLocaleString('en-US')} loads (${changed} changed), median of ${REFRESHES} (${kind})`,
        value: round(median(times)),
        unit: 'ms',
        goal: '-',
        pass: true,
      },
    ];
  } finally {
    await drop();
  }
}

export async function benchTracks(): Promise<Figure[]> {
  const figures = await benchKind('pglite', undefined);
  const given = process.env.DATABASE_URL;
  const cluster = given ? undefined : await startPostgresCluster();
  try {
    figures.push(...(await benchKind('postgres', given ?? cluster?.url)));
  } finally {
    cluster?.stop();
  }
  return figures;
}
