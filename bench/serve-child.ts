// Entry of a benchmark child process (started by bench/processes.ts): either simulators or the proxy,
// each in a process of its own, as in production where the upstream is another service and the
// browsers are other machines. The parent learns the URLs over IPC and can ask for the memory figures.
import { parseEnv } from '@/server/config';
import { toStdout } from '@/server/middleware/logging';
import { buildProxy, listen, PULLER_ROUND_MS } from '@/server/start';
import { startPuller } from '@/server/puller/puller';
import { openAndMigrate } from '@/server/store/open-at-start';
import { startSimulator } from '@/simulator/start';
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import type { ChildReady, ChildRequest, ChildRole } from './processes';

const role = JSON.parse(process.argv[2] ?? '{}') as ChildRole;

// Garbage collection pauses, for the bench to read with the other stats.
const gcPauses: number[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcPauses.push(entry.duration);
}).observe({ entryTypes: ['gc'] });
// How late the event loop ran its turns (a stall delays every request waiting on it).
const loopDelay = monitorEventLoopDelay({ resolution: 1 });
loopDelay.enable();
const closers: (() => Promise<void>)[] = [];
/** How far the parent moved the simulators' frozen clock. */
let advanced = 0;

/** Run-queue wait of the main thread, the event loop's (ns, the second field of its schedstat). */
function waitedForCoreMs(): number {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6 || 0;
  } catch {
    return 0;
  }
}

async function start(): Promise<ChildReady> {
  if (role.kind === 'simulators') {
    const urls: string[] = [];
    let ids: string[] = [];
    // Identical twins (same seed, fleet and clock) with cursors of their own.
    for (let i = 0; i < role.count; i++) {
      const sim = await startSimulator({
        port: 0,
        seed: role.seed,
        loads: role.loads,
        speed: 60,
        tripPings: role.tripPings,
        ...role.credentials,
        ...(role.frozenAt === undefined ? {} : { now: () => (role.frozenAt as number) + advanced }),
      });
      closers.push(sim.close);
      urls.push(sim.url);
      ids = sim.fleet.map((p) => String(p.externalId));
    }
    return { urls, ids };
  }
  const env = parseEnv({ TILE_URL: 'none', ...role.env });
  // With DATABASE_URL (and TRACKS=store), as main.ts starts an instance of several: the store, and
  // the puller on its lease.
  const store = env.DATABASE_URL
    ? (await openAndMigrate({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })).store
    : undefined;
  const app = buildProxy(
    env,
    { baseUrl: role.upstreamUrl, ...role.credentials, mode: 'remote', demo: null },
    // As main.ts does: one line per request on stdout (here /dev/null: the parent ignores it).
    { log: toStdout, store },
  );
  const puller =
    app.puller && startPuller(app.puller, { leaseSeconds: env.LEASE_SECONDS, roundMs: PULLER_ROUND_MS });
  closers.push(async () => {
    await puller?.stop();
    await store?.close();
  });
  const server = await listen(app, '127.0.0.1', 0);
  closers.push(server.close);
  return { urls: [server.url], ids: [] };
}

process.on('message', (message: ChildRequest) => {
  if (message.type === 'stats') {
    if (message.gc) globalThis.gc?.();
    const m = process.memoryUsage();
    const cpu = process.cpuUsage();
    process.send?.({
      type: 'stats',
      cpuMs: (cpu.user + cpu.system) / 1000,
      systemMs: cpu.system / 1000,
      rss: m.rss,
      heapUsed: m.heapUsed,
      heapTotal: m.heapTotal,
      external: m.external,
      arrayBuffers: m.arrayBuffers,
      maxRss: process.resourceUsage().maxRSS * 1024,
      gcPauses: gcPauses.splice(0),
      loopDelayMs: { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
      waitedForCoreMs: waitedForCoreMs(),
      involuntarySwitches: process.resourceUsage().involuntaryContextSwitches,
    });
    loopDelay.reset();
  } else if (message.type === 'profile-start') {
    void profiler.post('Profiler.enable').then(() => profiler.post('Profiler.start'));
  } else if (message.type === 'profile-stop') {
    void profiler.post('Profiler.stop').then(({ profile }) => {
      writeFileSync(message.file, JSON.stringify(profile));
      process.send?.({ type: 'profiled' });
    });
  } else if (message.type === 'advance') {
    advanced += message.ms;
    process.send?.({ type: 'advanced' });
  } else if (message.type === 'close') {
    void Promise.all(closers.map((c) => c())).then(() => process.exit(0));
  }
});

// CPU profiles of a part of the run (the measured part, not the warm-up), on the parent's word.
const profiler = new Session();
profiler.connect();

// A parent that died without closing us (a crash, a kill) must not leave servers behind.
process.on('disconnect', () => process.exit(0));

start().then(
  (ready) => process.send?.({ type: 'ready', ...ready }),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
