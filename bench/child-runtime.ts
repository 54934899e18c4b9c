// What every benchmark child shares, whether it runs under tsx (serve-child.ts) or bundled as
// production runs (proxy-child.ts): its stats, profiles and the parent's messages over IPC.
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import type { ChildReady, ChildRequest } from './processes';

/** Run at the parent's `close`, before the process exits. */
export const closers: (() => Promise<void>)[] = [];
/** How far the parent moved the simulators' frozen clock. */
let advanced = 0;
export const advancedMs = () => advanced;

/** Run-queue wait of the main thread, the event loop's (ns, the second field of its schedstat). */
function waitedForCoreMs(): number {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6 || 0;
  } catch {
    return 0;
  }
}

/** Starts the child's servers and answers the parent's messages until it says `close`. */
export function runChild(start: () => Promise<ChildReady>): void {
  // Garbage collection pauses, for the bench to read with the other stats.
  const gcPauses: number[] = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcPauses.push(entry.duration);
  }).observe({ entryTypes: ['gc'] });
  // How late the event loop ran its turns (a stall delays every request waiting on it).
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  loopDelay.enable();
  // CPU profiles of a part of the run (the measured part, not the warm-up), on the parent's word.
  const profiler = new Session();
  profiler.connect();
  let heapSampling = false;

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
        spaces: Object.fromEntries(
          getHeapSpaceStatistics().map((x) => [
            x.space_name,
            { size: x.space_size, used: x.space_used_size },
          ]),
        ),
        maxRss: process.resourceUsage().maxRSS * 1024,
        gcPauses: gcPauses.splice(0),
        loopDelayMs: { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
        waitedForCoreMs: waitedForCoreMs(),
        involuntarySwitches: process.resourceUsage().involuntaryContextSwitches,
      });
      loopDelay.reset();
    } else if (message.type === 'profile-start') {
      heapSampling = message.heap === true;
      void profiler.post('Profiler.enable').then(() => profiler.post('Profiler.start'));
      // Every allocation's stack, garbage included: what a part of the run allocates, not what it keeps.
      // With `survivorsOnly`, what scavenges freed is left out: what outlived the young generation
      // (promoted to the old space, or still live).
      if (heapSampling)
        void profiler.post('HeapProfiler.enable').then(() =>
          profiler.post('HeapProfiler.startSampling', {
            samplingInterval: 4096,
            includeObjectsCollectedByMajorGC: true,
            includeObjectsCollectedByMinorGC: message.survivorsOnly !== true,
          }),
        );
    } else if (message.type === 'profile-stop') {
      void (async () => {
        const { profile } = await profiler.post('Profiler.stop');
        writeFileSync(message.file, JSON.stringify(profile));
        if (heapSampling) {
          const heap = await profiler.post('HeapProfiler.stopSampling');
          writeFileSync(
            message.file.replace(/\.cpuprofile$/, '') + '.heapprofile',
            JSON.stringify(heap.profile),
          );
        }
        process.send?.({ type: 'profiled' });
      })();
    } else if (message.type === 'advance') {
      advanced += message.ms;
      process.send?.({ type: 'advanced' });
    } else if (message.type === 'close') {
      void Promise.all(closers.map((c) => c())).then(() => process.exit(0));
    }
  });

  // A parent that died without closing us (a crash, a kill) must not leave servers behind.
  process.on('disconnect', () => process.exit(0));

  start().then(
    (ready) => process.send?.({ type: 'ready', ...ready }),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
