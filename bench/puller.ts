// `npx tsx bench/run.ts puller` (issue 35): the puller's memory as the watched loads' trips grow, the
// full pull of every watched load, and the store's size per million pings. Simulators and the puller
// (TRACKS=store, a throwaway PostgreSQL from Debian's binaries or DATABASE_URL's server) each in a
// process of their own; the simulators' clock stands still and is moved on between measurements.
// The proxy runs as `npm start` runs it (bundled, plain `node`): under tsx it would carry the loader.
// `BENCH_PULLER_PREVIOUS=<commit>` measures that commit's puller beside this one, and
// `BENCH_PULLER_BESIDE='MALLOC_ARENA_MAX=2'` this one with those process variables (several sets
// separated by `;`, a proxy each), each at the same time on a twin of the fleet;
// `BENCH_PULLER_MAX_ITEMS` sets the proxies' UPSTREAM_MAX_ITEMS.
// `BENCH_PULLER_REST_SECONDS` (default 60, 0: none) reads each proxy again after that long with no
// request from the bench, no collection asked for (what V8 gives back by itself at rest).
// `BENCH_PULLER_SNAPSHOT=<dir>` writes a heap snapshot of each proxy there after each step (read with
// bench/heap-summary.ts); its writing is not in the step's figures.
// `BENCH_PULLER_PROFILE=<dir>` writes each proxy's CPU profile and allocations (garbage included) over
// each rest there: what its empty refreshes cost (read with bench/profile-summary.ts); with
// `BENCH_PULLER_PROFILE_SURVIVORS=1` the allocations only of what outlived a scavenge (promoted).
// `BENCH_PULLER_REFRESH_SECONDS` (default 30, REFRESH_SECONDS' own default) is the proxies' refresh:
// each refresh's garbage is what V8's collections and its memory reducer see, so the figure is
// production's only at production's period; 5 is the stress the earlier runs used (six times the churn).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { startPostgresCluster } from '@/testing/postgres-cluster';
import { TEST_CREDENTIALS } from '@/testing/stack';
import { bundleProxyChild } from './bundle-child';
import { envAssignments } from './env-assignments';
import type { Figure } from './figures';
import { startChild, type Child } from './processes';
import { residentBytesOfPid, samplePeak } from './rss-sampler';
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
const PEAK_SAMPLE_MS = 200;
const REST_SECONDS = Number(process.env.BENCH_PULLER_REST_SECONDS ?? 60);
const REFRESH_SECONDS = process.env.BENCH_PULLER_REFRESH_SECONDS ?? '30';
/** The process environment `npm start` gives the server. */
const PRODUCTION_ENV: Record<string, string | undefined> = { MALLOC_MMAP_THRESHOLD_: '131072' };

interface Step {
  pings: number;
  /** Seconds from the clock's move (or the first watch) until every load's answer was stored. */
  pullSeconds: number;
  heapMiB: number;
  rssMiB: number;
  /** The largest RSS sampled every 200 ms from the step's start until all was stored. */
  peakRssMiB: number;
  /** RSS and heap total after `REST_SECONDS` more with no request and no forced collection. */
  restRssMiB?: number;
  restHeapTotalMiB?: number;
}

/** A proxy measured on the fleet, beside the others (each on a twin simulator of its own). */
interface Variant {
  name: string;
  /** The bundle of its child (bench/bundle-child.ts). */
  bundle: string;
  /** Another checkout's root (a previous release). */
  root?: string;
  processEnv?: Record<string, string | undefined>;
}

interface Run {
  name: string;
  steps: Step[];
  /** RSS and heap after GC once started, before any load is watched. */
  idle: { rssMiB: number; heapMiB: number };
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

const proxyEnv = (databaseUrl: string): Record<string, string> => ({
  DATABASE_URL: databaseUrl,
  TRACKS: 'store',
  MAX_IDS: String(BROWSER_CHUNK),
  REFRESH_SECONDS,
  // No full resync in the middle of a measurement: the first pull is the full one.
  RESYNC_MINUTES: '1440',
  WATCH_MINUTES: '1440',
  // A budget other than the default, to see what it buys (`BENCH_PULLER_MAX_ITEMS`).
  ...(process.env.BENCH_PULLER_MAX_ITEMS ? { UPSTREAM_MAX_ITEMS: process.env.BENCH_PULLER_MAX_ITEMS } : {}),
});

/** One variant's proxy, its database and its figures. */
interface Measured {
  variant: Variant;
  run: Run;
  dbName: string;
  db: pg.Client;
  proxy?: Child;
}

/** Every variant's proxy on a twin of one fleet, measured step by step at the same time. */
async function measure(variants: Variant[], admin: pg.Client, serverUrl: string): Promise<Run[]> {
  const sims = await startChild({
    kind: 'simulators',
    count: variants.length,
    seed: 35,
    loads: LOADS,
    credentials: TEST_CREDENTIALS,
    frozenAt: FROZEN_AT,
    tripPings: STEPS[0],
  });
  const all: Measured[] = [];
  try {
    for (const [i, variant] of variants.entries()) {
      const dbName = `haulview_bench_puller_${process.pid}_${i}`;
      await admin.query(`create database ${dbName}`);
      const databaseUrl = siblingDatabaseUrl(serverUrl, dbName);
      const m: Measured = {
        variant,
        dbName,
        db: new pg.Client({ connectionString: databaseUrl }),
        run: {
          name: variant.name,
          steps: [],
          idle: { rssMiB: NaN, heapMiB: NaN },
          storeBytesPerPing: 0,
          pingsStored: 0,
          terms: 0,
        },
      };
      all.push(m);
      await m.db.connect();
      m.proxy = await startChild(
        {
          kind: 'proxy',
          upstreamUrl: sims.urls[i] as string,
          credentials: TEST_CREDENTIALS,
          env: proxyEnv(databaseUrl),
        },
        variant.root,
        { bundle: variant.bundle, processEnv: variant.processEnv },
      );
      const idle = await m.proxy.stats(true);
      m.run.idle = { rssMiB: round(idle.rss / MIB), heapMiB: round(idle.heapUsed / MIB) };
      console.error(
        `  ${variant.name}: started: RSS ${m.run.idle.rssMiB} MiB, heap ${m.run.idle.heapMiB} MiB`,
      );
    }
    for (const [k, pings] of STEPS.entries()) {
      if (k > 0) await sims.advance((pings - (STEPS[k - 1] as number)) * MS_PER_PING);
      await Promise.all(
        all
          .filter((m) => !m.run.failed)
          .map((m) =>
            measureStep(m, k === 0 ? sims.ids : undefined, pings).catch((error: unknown) => {
              m.run.failed = error instanceof Error ? error.message : String(error);
            }),
          ),
      );
    }
  } finally {
    for (const { run, db, proxy, dbName } of all) {
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
      await db.end().catch(() => undefined);
      await admin.query(`drop database ${dbName}`).catch(() => undefined);
    }
    await sims.close();
  }
  return all.map((m) => m.run);
}

/** Until every load holds about `pings` pings: RSS and heap after GC, the peak RSS and the time. */
async function measureStep(m: Measured, watch: string[] | undefined, pings: number): Promise<void> {
  const proxy = m.proxy as Child;
  const peak = samplePeak(() => residentBytesOfPid(proxy.pid), PEAK_SAMPLE_MS);
  const pullStarted = performance.now();
  const cpuBefore = (await proxy.stats(false)).cpuMs;
  if (watch) await watchEveryLoad(proxy, watch);
  await waitUntilStored(m.db, LOADS, pings);
  // The last quiet check is not the pull's.
  const pullSeconds = (performance.now() - pullStarted) / 1000 - 2;
  const peakBytes = peak.stop();
  const cpu = (await proxy.stats(false)).cpuMs;
  const stats = await proxy.stats(true);
  m.run.steps.push({
    pings,
    pullSeconds: round(pullSeconds),
    heapMiB: round(stats.heapUsed / MIB),
    rssMiB: round(stats.rss / MIB),
    peakRssMiB: round(peakBytes / MIB),
  });
  const mib = (n: number) => round(n / MIB);
  console.error(
    `  ${m.variant.name}: ${pings} pings a load: ${JSON.stringify(m.run.steps.at(-1))}, heap total ${mib(stats.heapTotal)}, external ${mib(stats.external)}, array buffers ${mib(stats.arrayBuffers)} MiB, CPU ${round((cpu - cpuBefore) / 1000)} s`,
  );
  console.error(`  ${m.variant.name}: ${smapsRollup(proxy.pid)}`);
  const spaces = Object.entries(stats.spaces ?? {})
    .filter(([, x]) => x.size >= MIB)
    .map(([name, x]) => `${name} ${mib(x.size)} (${mib(x.used)})`);
  console.error(`  ${m.variant.name}: V8's spaces, held (used) MiB: ${spaces.join(', ')}`);
  if (REST_SECONDS > 0) {
    // The puller's own refreshes go on (the clock stands still, so their deltas are empty).
    const profiles = process.env.BENCH_PULLER_PROFILE;
    const profiling = profiles
      ? proxy.profile({ heap: true, survivorsOnly: process.env.BENCH_PULLER_PROFILE_SURVIVORS === '1' })
      : undefined;
    await sleep(REST_SECONDS * 1000);
    if (profiles && profiling) {
      const file = join(profiles, `${m.variant.name.replace(/[^\w.=-]+/g, '_')}-${pings}.cpuprofile`);
      await profiling.stop(file);
      console.error(
        `  ${m.variant.name}: the rest's CPU and allocations in ${file} (bench/profile-summary.ts)`,
      );
    }
    const rest = await proxy.stats(false);
    const step = m.run.steps.at(-1) as Step;
    step.restRssMiB = mib(rest.rss);
    step.restHeapTotalMiB = mib(rest.heapTotal);
    const old = rest.spaces?.old_space;
    console.error(
      `  ${m.variant.name}: after ${REST_SECONDS} s at rest: RSS ${mib(rest.rss)}, heap ${mib(rest.heapUsed)} / total ${mib(rest.heapTotal)}, old space ${old ? `${mib(old.size)} (${mib(old.used)})` : '?'}, array buffers ${mib(rest.arrayBuffers)} MiB; ${smapsRollup(proxy.pid)}`,
    );
  }
  const snapshots = process.env.BENCH_PULLER_SNAPSHOT;
  if (snapshots)
    console.error(`  ${m.variant.name}: heap snapshot ${await heapSnapshot(proxy.pid, snapshots)}`);
}

/** The resident set by kind (anonymous, file-backed) from /proc/<pid>/smaps_rollup, in MiB. */
function smapsRollup(pid: number): string {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
    return ['Rss', 'Anonymous', 'Shared_Clean', 'Private_Dirty', 'Swap']
      .map((k) => `${k} ${round(kib(k) / 1024)}`)
      .join(', ')
      .concat(' MiB (smaps_rollup)');
  } catch {
    return 'no smaps_rollup';
  }
}

/**
 * Signals the proxy (started with `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=<dir>` in
 * `BENCH_PROXY_NODE_FLAGS`) and waits until its new snapshot is written: the file's size holds.
 */
async function heapSnapshot(pid: number, dir: string): Promise<string> {
  const mine = () =>
    new Set(readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot') && f.includes(`.${pid}.`)));
  const before = mine();
  process.kill(pid, 'SIGUSR2');
  for (let size = -1; ;) {
    await sleep(2000);
    const file = [...mine()].find((f) => !before.has(f));
    if (!file) continue;
    const now = statSync(join(dir, file)).size;
    if (now === size && now > 0) return join(dir, file);
    size = now;
  }
}

/** A dispatcher's board of every load: watched, and pulled by the puller in full. */
async function watchEveryLoad(proxy: Child, ids: string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += BROWSER_CHUNK) {
    const response = await fetch(`${proxy.urls[0]}/api/pull/by-external-id`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'haulview' },
      body: JSON.stringify({ ids: ids.slice(i, i + BROWSER_CHUNK), include: { locations: false } }),
    });
    if (response.status !== 200) throw new Error(`the board's pull answered ${response.status}`);
    // Read as a browser reads it: a body left unread holds the proxy's write (megabytes) for good.
    await response.arrayBuffer();
  }
}

/** A checkout of `commit` beside this one, sharing its node_modules, with this checkout's bench child. */
function checkout(commit: string): { root: string; remove: () => void } {
  const root = `/tmp/haulview-bench-previous-${commit}`;
  if (!existsSync(root))
    execFileSync('git', ['worktree', 'add', '--detach', root, commit], { stdio: 'ignore' });
  if (!existsSync(join(root, 'node_modules')))
    execFileSync('ln', ['-s', join(process.cwd(), 'node_modules'), join(root, 'node_modules')]);
  for (const file of ['proxy-child.ts', 'proxy-role.ts', 'child-runtime.ts', 'processes.ts'])
    copyFileSync(join(process.cwd(), 'bench', file), join(root, 'bench', file));
  return {
    root,
    remove: () => {
      execFileSync('git', ['worktree', 'remove', '--force', root], { stdio: 'ignore' });
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The proxy's RSS and heap after GC once started with a store, before any load: bundled or under tsx. */
async function idleOf(admin: pg.Client, serverUrl: string, bundle: string | undefined) {
  const dbName = `haulview_bench_puller_${process.pid}_idle`;
  await admin.query(`create database ${dbName}`);
  try {
    const proxy = await startChild(
      {
        kind: 'proxy',
        // Nothing is watched, so nothing is pulled.
        upstreamUrl: 'http://127.0.0.1:9',
        credentials: TEST_CREDENTIALS,
        env: proxyEnv(siblingDatabaseUrl(serverUrl, dbName)),
      },
      undefined,
      { bundle, processEnv: PRODUCTION_ENV },
    );
    const stats = await proxy.stats(true).finally(() => proxy.close());
    return { rssMiB: round(stats.rss / MIB), heapMiB: round(stats.heapUsed / MIB) };
  } finally {
    await admin.query(`drop database ${dbName}`);
  }
}

export async function benchPuller(): Promise<Figure[]> {
  const given = process.env.DATABASE_URL;
  const cluster = given ? undefined : await startPostgresCluster();
  const serverUrl = (given ?? cluster?.url) as string;
  const previousCommit = process.env.BENCH_PULLER_PREVIOUS;
  const previous = previousCommit ? checkout(previousCommit) : undefined;
  const bundled = await bundleProxyChild();
  const previousBundle = previous ? await bundleProxyChild(previous.root) : undefined;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    if (bundled.simulatorModules.length > 0)
      console.error(`  the proxy's bundle holds simulator code: ${bundled.simulatorModules.join(', ')}`);
    const idleTsx = await idleOf(admin, serverUrl, undefined);
    const idleBundled = await idleOf(admin, serverUrl, bundled.entry);
    console.error(
      `  idle, after GC: bundled RSS ${idleBundled.rssMiB} MiB (heap ${idleBundled.heapMiB}), under tsx RSS ${idleTsx.rssMiB} MiB (heap ${idleTsx.heapMiB})`,
    );
    console.error(`  the proxies refresh every ${REFRESH_SECONDS} s (BENCH_PULLER_REFRESH_SECONDS)`);
    const beside = process.env.BENCH_PULLER_BESIDE;
    const variants: Variant[] = [
      { name: 'this', bundle: bundled.entry, processEnv: PRODUCTION_ENV },
      // Several sets of variables, each a proxy of its own, separated by `;`.
      ...(beside ?? '')
        .split(';')
        .filter((set) => set.trim() !== '')
        .map((set) => ({
          name: `this, ${set.trim()}`,
          bundle: bundled.entry,
          processEnv: { ...PRODUCTION_ENV, ...envAssignments(set) },
        })),
      ...(previous && previousBundle
        ? [
            {
              name: previousCommit as string,
              bundle: previousBundle.entry,
              root: previous.root,
              processEnv: PRODUCTION_ENV,
            },
          ]
        : []),
    ];
    const [now, ...others] = await measure(variants, admin, serverUrl);
    if (!now) throw new Error('no run');
    const loads = LOADS.toLocaleString('en-US');
    const figures: Figure[] = [];
    if (now.failed) throw new Error(`the puller bench failed: ${now.failed}`);
    const peerOf = (pick: (s: Step) => number, pings: number) =>
      others.length > 0
        ? others.map((other) => ({
            name: `${other.name}${other.failed ? ' (died)' : ''}`,
            value: ((s) => (s ? pick(s) : Number.NaN))(other.steps.find((s) => s.pings === pings)),
          }))
        : undefined;
    figures.push({
      figure: "puller: the proxy's RSS after GC before any load, bundled as `npm start` runs it",
      value: idleBundled.rssMiB,
      unit: 'MiB',
      goal: '-',
      pass: true,
      peers: [{ name: 'under tsx', value: idleTsx.rssMiB }],
    });
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
        figure: `puller: peak RSS (sampled every ${PEAK_SAMPLE_MS} ms) until all stored, ${loads} loads × ${step.pings.toLocaleString('en-US')} pings`,
        value: step.peakRssMiB,
        unit: 'MiB',
        goal: `<= ${GOAL_MIB}`,
        pass: step.peakRssMiB <= GOAL_MIB,
        peers: peerOf((s) => s.peakRssMiB, step.pings),
      });
      if (step.restRssMiB !== undefined)
        figures.push({
          figure: `puller: RSS after ${REST_SECONDS} s at rest (no request, no forced GC), ${loads} loads × ${step.pings.toLocaleString('en-US')} pings`,
          value: step.restRssMiB,
          unit: 'MiB',
          goal: `<= ${GOAL_MIB}`,
          pass: step.restRssMiB <= GOAL_MIB,
          peers: peerOf((s) => s.restRssMiB ?? Number.NaN, step.pings),
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
      peers: others.length > 0 ? others.map((o) => ({ name: o.name, value: o.terms })) : undefined,
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
    await admin.end();
    bundled.remove();
    previousBundle?.remove();
    previous?.remove();
    cluster?.stop();
  }
}
