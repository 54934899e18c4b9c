import autocannon from 'autocannon';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { constants, performance, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createTransport } from '@/server/upstream-transport';
import { startSimulator } from '@/simulator/start';
import { manualClock, startStack, TEST_CREDENTIALS } from '@/testing/stack';
import { chosenParts, type Figure } from './figures';
import { startChild, type ChildStats } from './processes';

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
}
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const mib = (bytes: number) => round(bytes / 2 ** 20);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const SEED = 7;
const LOADS = 500;
/** Requests per second, to the proxy or to the simulator direct. */
const RATE = 200;
/**
 * Requests measured on each side: 30 s at 200 req/s. The p99 then rests on the 60 slowest, not 20:
 * with 2,000 a side, one stall of a few milliseconds anywhere moved it by a millisecond or more.
 */
const MEASURED = 6_000;
const BOARD = { locations: false, events: false, documents: false, comments: false };
const SPA_HEADERS = { 'Content-Type': 'application/json', 'X-Requested-With': 'haulview' };
/**
 * `PROXY_BENCH_CPU_PROF=<dir>` writes CPU profiles of the proxy's process and of the simulators'
 * during the measured blocks of the overhead there (`proxy.cpuprofile`, `upstreams.cpuprofile`).
 */
const cpuProfDir = process.env.PROXY_BENCH_CPU_PROF;

/**
 * Fan-in: 50 browser clients refreshing the same 500 loads at once cost the upstream one call per
 * chunk. On a clock of its own: warm the cache, let a refresh window pass, then 50 clients at once.
 */
async function fanIn(): Promise<number> {
  const clock = manualClock(Date.now());
  const stack = await startStack({ loads: LOADS, now: clock.now });
  try {
    const ids = stack.sim.fleet.map((p) => String(p.externalId));
    await (await stack.post('/api/pull/by-external-id', { ids, include: BOARD })).arrayBuffer();
    clock.advance(30_000);
    const before = stack.logs.length;
    await Promise.all(
      Array.from({ length: 50 }, async () =>
        (await stack.post('/api/pull/by-external-id', { ids, include: BOARD })).arrayBuffer(),
      ),
    );
    return stack.logs
      .slice(before)
      .map((l) => JSON.parse(l) as { upstreamCalls?: number })
      .reduce((n, l) => n + (l.upstreamCalls ?? 0), 0);
  } finally {
    await stack.close();
  }
}

interface Overhead {
  direct: { p50: number; p99: number };
  proxied: { p50: number; p99: number };
  /** Requests that were not a 200 (either way). */
  failed: number;
  /** CPU time of the proxy's process per proxied request, when it runs in one of its own. */
  proxyCpuMs?: number;
  /**
   * Cores kept busy by all three processes (load generator, proxy, upstreams) during each side's
   * measured blocks: near the machine's core count, requests queue for a core and the tail grows.
   */
  coresBusy?: { direct: number; proxied: number };
  /** The load generator's GC pauses within the measured blocks (collected before each, so few). */
  generatorGcPauses?: number;
}

/** What the bench reads of its processes: CPU time (ms), the proxy's GC pauses and loop lateness, profiles. */
interface CpuProbe {
  proxy: () => Promise<
    Pick<ChildStats, 'cpuMs' | 'gcPauses' | 'loopDelayMs' | 'waitedForCoreMs' | 'involuntarySwitches'>
  >;
  upstreams: () => Promise<number>;
  /** Starts CPU profiles of the proxy and the upstreams; the function returned writes them. */
  profile?: () => () => Promise<void>;
}
const ownCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * A full collection of this process's heap (the load generator's), whether or not node was started
 * with `--expose-gc` (`npx tsx bench/run.ts` is not).
 */
export const collectGarbage: () => void =
  (globalThis as { gc?: () => void }).gc ??
  (() => {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  })();

/**
 * The load generator's client: node:http with kept-alive connections, as the proxy's own upstream
 * client. Node's fetch cost the generator about 2 ms of CPU per request, taken from the same two
 * cores the proxy and the upstream run on (it stands for browsers on other machines).
 */
const client = createTransport({ timeoutMs: 60_000, maxBytes: 2 ** 28 });

async function timed(
  url: string,
  headers: Record<string, string>,
  body: string,
  into: number[],
  failures: { n: number },
) {
  const t = performance.now();
  try {
    const r = await client.post(url, headers, body);
    if (r.status !== 200) failures.n++;
    into.push(performance.now() - t);
  } catch {
    failures.n++;
  }
}

/**
 * One load per request, `RATE` requests per second on a fixed schedule (open loop: a slow answer does
 * not delay the next request), in blocks of one second that alternate between the proxy and a twin of
 * its upstream (same seed, fleet and clock, cursors of its own) called directly with the very request
 * the proxy sends upstream: the same load, every include flag on, `sendNewData: yes`. So both sides
 * see the same rate and the same machine, and the overhead is what the proxy adds to its own upstream
 * call. Each id comes round every 2.5 s of its side's blocks, past the proxy's 1 s fresh window
 * (REFRESH_SECONDS=2): every proxied request pulls.
 */
async function overhead(twinUrl: string, proxyUrl: string, ids: string[], cpu?: CpuProbe): Promise<Overhead> {
  const directUrl = `${twinUrl}/loadtrackservice/getLoadTrackDetailsServiceV2`;
  const pullUrl = `${proxyUrl}/api/pull/by-external-id`;
  const direct = (some: string[]) =>
    JSON.stringify({
      ...TEST_CREDENTIALS,
      loadTrackExternalIds: some,
      sendNewData: 'yes',
      includeLocations: true,
      includeEvents: true,
      includeDocuments: true,
      includeComments: true,
    });
  const proxied = (some: string[]) => JSON.stringify({ ids: some, include: BOARD });
  const JSON_ONLY = { 'Content-Type': 'application/json' };
  // Warm-up: the first pull of a load is a full one on both sides (the twin's first `yes` is
  // everything); from then on both pull deltas only.
  await client.post(pullUrl, SPA_HEADERS, proxied(ids));
  await client.post(directUrl, JSON_ONLY, direct(ids));

  const period = 1000 / RATE;
  const next = { direct: 0, proxied: 0 };
  const block = async (side: 'direct' | 'proxied', into: number[], failures: { n: number }) => {
    const pending: Promise<void>[] = [];
    const started = performance.now();
    for (let i = 0; i < RATE; i++) {
      const id = ids[next[side]++ % ids.length] as string;
      const wait = started + i * period - performance.now();
      if (wait > 0) await sleep(wait);
      pending.push(
        side === 'direct'
          ? timed(directUrl, JSON_ONLY, direct([id]), into, failures)
          : timed(pullUrl, SPA_HEADERS, proxied([id]), into, failures),
      );
    }
    await Promise.all(pending);
  };
  // A pass over the loads on each side warms the code paths; then the measured blocks.
  const none = { n: 0 };
  for (let b = 0; b < Math.ceil(ids.length / RATE); b++) {
    await block('proxied', [], none);
    await block('direct', [], none);
  }
  const d: number[] = [];
  const p: number[] = [];
  const failures = { n: 0 };
  // CPU of each process and wall time, summed over each side's measured blocks.
  const zero = () => ({ generator: 0, proxy: 0, upstreams: 0, wall: 0 });
  const spent = { direct: zero(), proxied: zero() };
  /** The proxy's garbage collection pauses during the proxied blocks. */
  const proxyGc: number[] = [];
  const loopLate: ChildStats['loopDelayMs'][] = [];
  /** The proxy's event loop waiting for a core during the proxied blocks (ms), and times preempted. */
  const preempted = { waited: 0, switches: 0 };
  const sample = async () => {
    const proxy = await cpu?.proxy();
    return {
      generator: ownCpuMs(),
      proxy: proxy?.cpuMs ?? 0,
      gcPauses: proxy?.gcPauses ?? [],
      loopDelayMs: proxy?.loopDelayMs ?? { p99: 0, max: 0 },
      waited: proxy?.waitedForCoreMs ?? 0,
      switches: proxy?.involuntarySwitches ?? 0,
      upstreams: (await cpu?.upstreams()) ?? 0,
      wall: performance.now(),
    };
  };
  // The load generator stands for browsers on other machines: its own garbage collection is not the
  // proxy's. A pause of it during a block (8–16 ms, a few times a run) delayed the answers in flight
  // and then sent the requests it owed at once, a burst that queued at the proxy: most of the p99's
  // spread from run to run. So its heap is collected before each measured block, on both sides
  // alike, and its pauses within the blocks are counted. (Only with the proxy in its own process: in
  // one process the collection would be the proxy's too.)
  const ownGc: PerformanceEntry[] = [];
  const windows: { side: 'direct' | 'proxied'; from: number; to: number }[] = [];
  const observer = new PerformanceObserver((list) => void ownGc.push(...list.getEntries()));
  if (cpu) observer.observe({ entryTypes: ['gc'] });
  const writeProfiles = cpu?.profile?.();
  for (let b = 0; b < MEASURED / RATE; b++) {
    for (const [side, into] of [
      ['proxied', p],
      ['direct', d],
    ] as const) {
      if (cpu) collectGarbage();
      const before = await sample();
      const from = performance.now();
      await block(side, into, failures);
      windows.push({ side, from, to: performance.now() });
      const after = await sample();
      if (side === 'proxied') {
        proxyGc.push(...after.gcPauses);
        loopLate.push(after.loopDelayMs);
        preempted.waited += after.waited - before.waited;
        preempted.switches += after.switches - before.switches;
      }
      for (const k of ['generator', 'proxy', 'upstreams', 'wall'] as const)
        spent[side][k] += after[k] - before[k];
    }
  }
  await writeProfiles?.();
  await sleep(10); // the observer's last entries
  observer.disconnect();
  // Pauses (scavenges and the final pauses of major collections, not incremental steps) that
  // overlap a measured block, per side.
  const pauseKinds = new Set<number>([
    constants.NODE_PERFORMANCE_GC_MINOR,
    constants.NODE_PERFORMANCE_GC_MAJOR,
  ]);
  const generatorGc = { direct: [] as number[], proxied: [] as number[] };
  for (const e of ownGc) {
    if (!pauseKinds.has((e as { detail?: { kind?: number } }).detail?.kind ?? -1)) continue;
    const w = windows.find((w) => e.startTime < w.to && e.startTime + e.duration > w.from);
    if (w) generatorGc[w.side].push(e.duration);
  }
  if (process.env.BENCH_VERBOSE && cpu) {
    for (const side of ['direct', 'proxied'] as const) {
      const per = (k: 'generator' | 'proxy' | 'upstreams') => round(spent[side][k] / MEASURED, 2);
      console.error(
        `proxy bench, ${side} blocks: CPU per request: load generator ${per('generator')} ms, proxy ${per('proxy')} ms, upstreams ${per('upstreams')} ms`,
      );
    }
    console.error(
      `proxy bench, proxied blocks: proxy event loop late p99 ${loopLate.map((l) => round(l.p99)).join(', ')} ms; most ${loopLate.map((l) => round(l.max)).join(', ')} ms`,
    );
    console.error(
      `proxy bench, proxied blocks: the proxy's event loop waited ${round(preempted.waited)} ms for a core (runnable, not running), preempted ${preempted.switches} times`,
    );
    console.error(
      `proxy bench, measured blocks: load generator GC pauses, proxied ${generatorGc.proxied.length} (${round(generatorGc.proxied.reduce((a, b) => a + b, 0))} ms), direct ${generatorGc.direct.length} (${round(generatorGc.direct.reduce((a, b) => a + b, 0))} ms)`,
    );
    const sorted = proxyGc.sort((a, b) => b - a).map((ms) => round(ms));
    console.error(
      `proxy bench, proxied blocks: proxy GC pauses ${sorted.length}, ${round(sorted.reduce((a, b) => a + b, 0))} ms in all, longest ${sorted.slice(0, 8).join(', ')} ms`,
    );
  }
  const cores = (side: 'direct' | 'proxied') =>
    (spent[side].generator + spent[side].proxy + spent[side].upstreams) / spent[side].wall;
  return {
    direct: { p50: percentile(d, 50), p99: percentile(d, 99) },
    proxied: { p50: percentile(p, 50), p99: percentile(p, 99) },
    failed: failures.n,
    ...(cpu
      ? {
          proxyCpuMs: spent.proxied.proxy / MEASURED,
          generatorGcPauses: generatorGc.proxied.length + generatorGc.direct.length,
          coresBusy: { direct: cores('direct'), proxied: cores('proxied') },
        }
      : {}),
  };
}

/** The old set-up: load generator, proxy and both simulators share one event loop. */
async function overheadInOneProcess(): Promise<Overhead> {
  const stack = await startStack({ loads: LOADS, env: { REFRESH_SECONDS: '2' } });
  const twin = await startSimulator({ port: 0, seed: SEED, loads: LOADS, speed: 60, ...TEST_CREDENTIALS });
  try {
    const ids = stack.sim.fleet.map((p) => String(p.externalId));
    return await overhead(twin.url, stack.proxy.url, ids);
  } finally {
    await stack.close();
    await twin.close();
  }
}

/** As in production: the upstream, the proxy and the browsers (load generator) are processes of their own. */
async function overheadInProcesses(): Promise<Overhead> {
  const sims = await startChild({
    kind: 'simulators',
    count: 2,
    seed: SEED,
    loads: LOADS,
    credentials: TEST_CREDENTIALS,
  });
  try {
    const [simUrl, twinUrl] = sims.urls as [string, string];
    const proxy = await startChild({
      kind: 'proxy',
      upstreamUrl: simUrl,
      env: { REFRESH_SECONDS: '2' },
      credentials: TEST_CREDENTIALS,
    });
    try {
      return await overhead(twinUrl, proxy.urls[0] as string, sims.ids, {
        proxy: () => proxy.stats(false),
        ...(cpuProfDir
          ? {
              profile: () => {
                const [p, u] = [proxy.profile(), sims.profile()];
                return async () => {
                  mkdirSync(cpuProfDir, { recursive: true });
                  await p.stop(join(cpuProfDir, 'proxy.cpuprofile'));
                  await u.stop(join(cpuProfDir, 'upstreams.cpuprofile'));
                };
              },
            }
          : {}),
        upstreams: async () => (await sims.stats(false)).cpuMs,
      });
    } finally {
      await proxy.close();
    }
  } finally {
    await sims.close();
  }
}

interface Soak {
  requests: number;
  errors: number;
  non2xx: number;
  p50: number;
  p99: number;
  before: ChildStats;
  after: ChildStats;
}

/**
 * 100 connections for 30 s against the proxy in its own process (default REFRESH_SECONDS), each
 * request a board poll of 50 loads out of 500, the window moving by 10 loads each request. Memory is
 * the proxy's, after a full collection, before (cache warm) and after the run.
 */
async function hundredConnections(): Promise<Soak> {
  const sims = await startChild({
    kind: 'simulators',
    count: 1,
    seed: SEED,
    loads: LOADS,
    credentials: TEST_CREDENTIALS,
  });
  try {
    const proxy = await startChild({
      kind: 'proxy',
      upstreamUrl: sims.urls[0] as string,
      env: {},
      credentials: TEST_CREDENTIALS,
    });
    try {
      const url = proxy.urls[0] as string;
      const ids = sims.ids;
      await (
        await fetch(`${url}/api/pull/by-external-id`, {
          method: 'POST',
          headers: SPA_HEADERS,
          body: JSON.stringify({ ids, include: BOARD }),
        })
      ).arrayBuffer();
      const before = await proxy.stats(true);
      let n = 0;
      const result = await autocannon({
        url: `${url}/api/pull/by-external-id`,
        connections: 100,
        duration: 30,
        method: 'POST',
        headers: SPA_HEADERS,
        requests: [
          {
            setupRequest: (request) => {
              const from = (n++ * 10) % ids.length;
              const window = [...ids, ...ids].slice(from, from + 50);
              return { ...request, body: JSON.stringify({ ids: window, include: BOARD }) };
            },
          },
        ],
      });
      const after = await proxy.stats(true);
      const refused = Object.entries(result.statusCodeStats ?? {}).filter(([code]) => code !== '200');
      if (refused.length > 0 || result.errors > 0) {
        console.log(
          `proxy, 100 connections: answers other than 200 ${JSON.stringify(Object.fromEntries(refused))}, ${result.errors} errors (${result.timeouts} time-outs)`,
        );
      }
      return {
        requests: result.requests.total,
        errors: result.errors + result.timeouts,
        non2xx: result.non2xx,
        p50: result.latency.p50,
        p99: result.latency.p99,
        before,
        after,
      };
    } finally {
      await proxy.close();
    }
  } finally {
    await sims.close();
  }
}

function overheadFigures(where: string, o: Overhead, withGoal: boolean): Figure[] {
  const p50 = o.proxied.p50 - o.direct.p50;
  const p99 = o.proxied.p99 - o.direct.p99;
  const info = (figure: string, value: number, unit = 'ms'): Figure => ({
    figure: `proxy (${where}): ${figure}`,
    value,
    unit,
    goal: '-',
    pass: true,
  });
  return [
    info('one load direct to simulator p50', round(o.direct.p50)),
    info('... p99', round(o.direct.p99)),
    info('one load through the proxy p50', round(o.proxied.p50)),
    info('... p99', round(o.proxied.p99)),
    info('overhead p50 (proxy - direct)', round(p50)),
    {
      figure: `proxy (${where}): overhead p99 (proxy - direct) at ${RATE} req/s`,
      value: round(p99),
      unit: 'ms',
      goal: withGoal ? '< 5' : '-',
      pass: withGoal ? p99 < 5 : true,
    },
    info('failed requests', o.failed, 'req'),
    ...(o.proxyCpuMs === undefined ? [] : [info('proxy process CPU per request', round(o.proxyCpuMs, 2))]),
    ...(o.coresBusy === undefined
      ? []
      : [
          info('cores busy (all processes), direct blocks', round(o.coresBusy.direct, 2), 'core'),
          info('... proxied blocks', round(o.coresBusy.proxied, 2), 'core'),
        ]),
    ...(o.generatorGcPauses === undefined
      ? []
      : [info('load generator GC pauses within the measured blocks', o.generatorGcPauses, 'pause')]),
  ];
}

/** The parts of this bench, in the order they run; `BENCH_PROXY_PARTS=processes` runs some. */
const PARTS = ['fan-in', 'one-process', 'processes', 'soak'] as const;

/**
 * Fan-in; overhead over the simulator direct, measured side by side in one run in one process (as
 * before) and with the upstream, the proxy and the load generator in processes of their own; and
 * 100 connections for 30 s.
 */
export async function benchProxy(): Promise<Figure[]> {
  const parts = chosenParts('BENCH_PROXY_PARTS', PARTS);
  const figures: Figure[] = [];
  if (parts.includes('fan-in')) {
    const calls = await fanIn();
    figures.push({
      figure: 'proxy: upstream calls for 50 clients x 500 loads (chunks of 100)',
      value: calls,
      unit: 'calls',
      goal: '5',
      pass: calls <= 5,
    });
  }
  if (parts.includes('one-process'))
    figures.push(...overheadFigures('one process', await overheadInOneProcess(), false));
  if (parts.includes('processes'))
    figures.push(...overheadFigures('own processes', await overheadInProcesses(), true));
  if (parts.includes('soak')) figures.push(...soakFigures(await hundredConnections()));
  client.close();
  return figures;
}

function soakFigures(s: Soak): Figure[] {
  const info = (figure: string, value: number, unit: string): Figure => ({
    figure: `proxy: 100 connections 30 s, ${figure}`,
    value,
    unit,
    goal: '-',
    pass: true,
  });
  return [
    info('requests', s.requests, 'req'),
    { ...info('errors + non-2xx', s.errors + s.non2xx, 'req'), goal: '0', pass: s.errors + s.non2xx === 0 },
    info('latency p50', s.p50, 'ms'),
    info('latency p99', s.p99, 'ms'),
    info('RSS before', mib(s.before.rss), 'MiB'),
    info('RSS after', mib(s.after.rss), 'MiB'),
    info('heap used before (after GC)', mib(s.before.heapUsed), 'MiB'),
    info('heap used after (after GC)', mib(s.after.heapUsed), 'MiB'),
    info('RSS peak', mib(s.after.maxRss), 'MiB'),
    info('proxy process CPU per request', round((s.after.cpuMs - s.before.cpuMs) / s.requests, 2), 'ms'),
  ];
}
