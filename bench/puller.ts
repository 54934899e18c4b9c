// `npx tsx bench/run.ts puller` (issue 35): the puller's memory as the watched loads' trips grow, the
// full pull of every watched load, and the store's size per million pings. Simulators and the puller
// (TRACKS=store, a throwaway PostgreSQL from Debian's binaries or DATABASE_URL's server) each in a
// process of their own; the simulators' clock stands still and is moved on between measurements.
// `BENCH_PULLER_PREVIOUS=<commit>` measures that commit's puller beside this one, on the same fleet;
// `BENCH_PULLER_MAX_ITEMS` sets the proxies' UPSTREAM_MAX_ITEMS.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { startPostgresCluster } from '@/testing/postgres-cluster';
import { TEST_CREDENTIALS } from '@/testing/stack';
import type { Figure } from './figures';
import { startChild, type Child } from './processes';
import { siblingDatabaseUrl } from './team-figures';

/** `BENCH_PULLER_LOADS`, and the trip's pings at each measurement (`BENCH_PULLER_PINGS=500,1000,2000`). */
const LOADS = Number(process.env.BENCH_PULLER_LOADS ?? 10_000);
const STEPS = (process.env.BENCH_PULLER_PINGS ?? '500,1000,2000').split(',').map(Number);
const FROZEN_AT = Date.parse('2026-11-22T18:00:00Z');
/** The simulators run at 60x: a ping a simulated minute is one a real second. */
const MS_PER_PING = 1000;
const MIB = 1024 * 1024;
const BROWSER_CHUNK = 500;
const GOAL_MIB = 400;
const round = (n: number) => Math.round(n * 10) / 10;

interface Step {
  pings: number;
  /** Seconds from the clock's move (or the first watch) until every load's answer was stored. */
  pullSeconds: number;
  heapMiB: number;
  rssMiB: number;
}

interface Run {
  name: string;
  steps: Step[];
  /** Bytes of the track tables per stored ping, and the pings stored. */
  storeBytesPerPing: number;
  pingsStored: number;
  /** Terms of the puller's lease over the run: more than one means it lost its lease and started over. */
  terms: number;
  /** Why the run ended early (the process died), if it did. */
  failed?: string;
}

/** Until every load's trip has about `pings` pings stored and no write is under way (the count holds). */
async function waitUntilStored(db: pg.Client, loads: number, pings: number): Promise<void> {
  const stored = async () =>
    Number((await db.query("select count(*)::int as n from track_items where list = 'pings'")).rows[0].n);
  // A trip's pings so far are its count give or take one (the simulator's jitter).
  let last = await stored();
  while (last < loads * (pings - 1)) {
    await sleep(1000);
    last = await stored();
  }
  for (;;) {
    await sleep(2000);
    const now = await stored();
    if (now === last) return;
    last = now;
  }
}

async function measure(name: string, serverUrl: string, root: string | undefined): Promise<Run> {
  const dbName = `haulview_bench_puller_${process.pid}_${name.replace(/\W/g, '')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const databaseUrl = siblingDatabaseUrl(serverUrl, dbName);
  const sims = await startChild({
    kind: 'simulators',
    count: 1,
    seed: 35,
    loads: LOADS,
    credentials: TEST_CREDENTIALS,
    frozenAt: FROZEN_AT,
    tripPings: STEPS[0],
  });
  let proxy: Child | undefined;
  const db = new pg.Client({ connectionString: databaseUrl });
  const run: Run = { name, steps: [], storeBytesPerPing: 0, pingsStored: 0, terms: 0 };
  try {
    proxy = await startChild(
      {
        kind: 'proxy',
        upstreamUrl: sims.urls[0] as string,
        credentials: TEST_CREDENTIALS,
        env: {
          DATABASE_URL: databaseUrl,
          TRACKS: 'store',
          MAX_IDS: String(BROWSER_CHUNK),
          REFRESH_SECONDS: '5',
          // No full resync in the middle of a measurement: the first pull is the full one.
          RESYNC_MINUTES: '1440',
          WATCH_MINUTES: '1440',
          // A budget other than the default, to see what it buys (`BENCH_PULLER_MAX_ITEMS`).
          ...(process.env.BENCH_PULLER_MAX_ITEMS
            ? { UPSTREAM_MAX_ITEMS: process.env.BENCH_PULLER_MAX_ITEMS }
            : {}),
        },
      },
      root,
    );
    await db.connect();
    const idle = await proxy.stats(true);
    console.error(
      `  ${name}: started: RSS ${round(idle.rss / MIB)} MiB, heap ${round(idle.heapUsed / MIB)} MiB`,
    );
    const started = performance.now();
    // A dispatcher's board of every load: watched, and pulled by the puller in full.
    for (let i = 0; i < sims.ids.length; i += BROWSER_CHUNK) {
      const response = await fetch(`${proxy.urls[0]}/api/pull/by-external-id`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'haulview' },
        body: JSON.stringify({ ids: sims.ids.slice(i, i + BROWSER_CHUNK), include: { locations: false } }),
      });
      if (response.status !== 200) throw new Error(`the board's pull answered ${response.status}`);
    }
    let pullStarted = started;
    for (const [k, pings] of STEPS.entries()) {
      if (k > 0) {
        await sims.advance((pings - (STEPS[k - 1] as number)) * MS_PER_PING);
        pullStarted = performance.now();
      }
      const cpuBefore = [(await proxy.stats(false)).cpuMs, (await sims.stats(false)).cpuMs];
      await waitUntilStored(db, sims.ids.length, pings);
      // The last quiet check is not the pull's.
      const pullSeconds = (performance.now() - pullStarted) / 1000 - 2;
      const cpu = [(await proxy.stats(false)).cpuMs, (await sims.stats(false)).cpuMs];
      console.error(
        `  ${name}: CPU s: proxy ${round((cpu[0]! - cpuBefore[0]!) / 1000)}, simulator ${round((cpu[1]! - cpuBefore[1]!) / 1000)}`,
      );
      const stats = await proxy.stats(true);
      run.steps.push({
        pings,
        pullSeconds: round(pullSeconds),
        heapMiB: round(stats.heapUsed / MIB),
        rssMiB: round(stats.rss / MIB),
      });
      const mib = (n: number) => round(n / MIB);
      console.error(
        `  ${name}: ${pings} pings a load: ${JSON.stringify(run.steps.at(-1))}, heap total ${mib(stats.heapTotal)}, external ${mib(stats.external)}, array buffers ${mib(stats.arrayBuffers)} MiB`,
      );
    }
  } catch (error) {
    run.failed = error instanceof Error ? error.message : String(error);
  } finally {
    const { rows } = await db
      .query(
        `select (select count(*) from track_items where list = 'pings')::float8 as pings,
                (pg_total_relation_size('track_items') + pg_total_relation_size('track_loads'))::float8 as bytes`,
      )
      .catch(() => ({ rows: [{ pings: 0, bytes: 0 }] }));
    run.pingsStored = rows[0].pings;
    run.terms = Number(
      (
        await db
          .query('select max(epoch) as terms from puller_leases')
          .catch(() => ({ rows: [{ terms: 0 }] }))
      ).rows[0].terms,
    );
    run.storeBytesPerPing = rows[0].pings > 0 ? rows[0].bytes / rows[0].pings : 0;
    await proxy?.close().catch(() => undefined);
    await sims.close();
    await db.end().catch(() => undefined);
    await admin.query(`drop database ${dbName}`).catch(() => undefined);
    await admin.end();
  }
  return run;
}

/** A checkout of `commit` beside this one, sharing its node_modules, with this checkout's bench child. */
function checkout(commit: string): { root: string; remove: () => void } {
  const root = `/tmp/haulview-bench-previous-${commit}`;
  if (!existsSync(root))
    execFileSync('git', ['worktree', 'add', '--detach', root, commit], { stdio: 'ignore' });
  if (!existsSync(join(root, 'node_modules')))
    execFileSync('ln', ['-s', join(process.cwd(), 'node_modules'), join(root, 'node_modules')]);
  for (const file of ['serve-child.ts', 'processes.ts'])
    copyFileSync(join(process.cwd(), 'bench', file), join(root, 'bench', file));
  return {
    root,
    remove: () => {
      execFileSync('git', ['worktree', 'remove', '--force', root], { stdio: 'ignore' });
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export async function benchPuller(): Promise<Figure[]> {
  const given = process.env.DATABASE_URL;
  const cluster = given ? undefined : await startPostgresCluster();
  const serverUrl = (given ?? cluster?.url) as string;
  const previousCommit = process.env.BENCH_PULLER_PREVIOUS;
  const previous = previousCommit ? checkout(previousCommit) : undefined;
  try {
    const now = await measure('this', serverUrl, undefined);
    const before = previous ? await measure(previousCommit as string, serverUrl, previous.root) : undefined;
    const loads = LOADS.toLocaleString('en-US');
    const figures: Figure[] = [];
    if (now.failed) throw new Error(`the puller bench failed: ${now.failed}`);
    const peerOf = (pick: (s: Step) => number, pings: number) =>
      before
        ? [
            {
              name: `${previousCommit}${before.failed ? ' (died)' : ''}`,
              value: ((s) => (s ? pick(s) : Number.NaN))(before.steps.find((s) => s.pings === pings)),
            },
          ]
        : undefined;
    for (const step of now.steps) {
      figures.push({
        figure: `puller: RSS after GC, ${loads} watched loads × ${step.pings.toLocaleString('en-US')} pings on their trip`,
        value: step.rssMiB,
        unit: 'MiB',
        goal: `<= ${GOAL_MIB}, flat`,
        pass: step.rssMiB <= GOAL_MIB,
        peers: peerOf((s) => s.rssMiB, step.pings),
      });
      figures.push({
        figure: `puller: heap after GC, ${loads} loads × ${step.pings.toLocaleString('en-US')} pings`,
        value: step.heapMiB,
        unit: 'MiB',
        goal: '-',
        pass: true,
        peers: peerOf((s) => s.heapMiB, step.pings),
      });
    }
    const [first, ...later] = now.steps;
    if (first)
      figures.push({
        figure: `puller: full pull of ${loads} loads × ${first.pings.toLocaleString('en-US')} pings, watched → all stored`,
        value: first.pullSeconds,
        unit: 's',
        goal: '-',
        pass: true,
        peers: peerOf((s) => s.pullSeconds, first.pings),
      });
    for (const step of later)
      figures.push({
        figure: `puller: deltas up to ${step.pings.toLocaleString('en-US')} pings a load, clock moved → all stored`,
        value: step.pullSeconds,
        unit: 's',
        goal: '-',
        pass: true,
      });
    figures.push({
      figure: 'puller: terms of its lease over the run (more: it lost the lease and pulled everything again)',
      value: now.terms,
      unit: '',
      goal: '1',
      pass: now.terms === 1,
      peers: before ? [{ name: previousCommit as string, value: before.terms }] : undefined,
    });
    figures.push({
      figure: `store: bytes per ping stored (track tables, ${Math.round(now.pingsStored).toLocaleString('en-US')} pings), per million`,
      value: round((now.storeBytesPerPing * 1e6) / MIB),
      unit: 'MiB',
      goal: '-',
      pass: true,
    });
    return figures;
  } finally {
    previous?.remove();
    cluster?.stop();
  }
}
