// `npx tsx bench/trace-summary.ts <dir> [top]`: sums up the Chromium traces a bench wrote
// (BENCH_TRACE=<dir> npm run bench -- browser): the page's main thread, each trace event's self time
// (its time less that of the events inside it), per trace on average, the largest first. Where a CPU
// profile says "(program)", this says which of style, layout, paint, commit or GC it was. Before
// that, every thread of the page's process: its busy time (top-level slices) and CPU time, per trace;
// after it, where a trace has the V8 sampler's chunks, each thread's functions by their self time.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TraceEvent } from './peer-figures';

const [dir, topText] = process.argv.slice(2);
if (!dir) {
  console.error('usage: npx tsx bench/trace-summary.ts <dir of trace .json files> [how many rows]');
  process.exit(2);
}
const top = Number(topText ?? 30);
const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
const self = new Map<string, number>();
let busy = 0;
/** Per thread of the page's process: wall time in top-level slices and, where traced, CPU time (µs). */
const threads = new Map<string, { wall: number; cpu: number }>();
/** Per thread, each function's self time in the V8 sampler's samples (µs). */
const sampled = new Map<string, Map<string, number>>();
interface SampledNode {
  id: number;
  callFrame?: { functionName?: string; url?: string; lineNumber?: number };
}
for (const file of files) {
  const parsed = JSON.parse(readFileSync(join(dir, file), 'utf8')) as
    { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const main = events.find(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain',
  );
  if (!main) continue;
  const names = new Map<number, string>();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name' && e.pid === main.pid)
      names.set(e.tid, String(e.args?.name));
  const ends = new Map<number, number>();
  for (const e of [...events].sort((a, b) => a.ts - b.ts)) {
    if (e.pid !== main.pid || e.ph !== 'X' || !e.dur) continue;
    if ((ends.get(e.tid) ?? -1) > e.ts) continue;
    ends.set(e.tid, e.ts + e.dur);
    // Worker threads share a name: numbered apart by their id.
    const name = `${names.get(e.tid) ?? 'thread'} (${e.tid})`;
    const t = threads.get(name) ?? { wall: 0, cpu: 0 };
    t.wall += e.dur;
    t.cpu += e.tdur ?? 0;
    threads.set(name, t);
  }
  // The sampler's profiles: one per thread (by id), in chunks of nodes, samples and time deltas.
  const profiles = new Map<
    string,
    { thread: string; nodes: Map<number, SampledNode>; ids: number[]; deltas: number[] }
  >();
  for (const e of events as (TraceEvent & { id?: string; args?: { data?: Record<string, never> } })[]) {
    if (e.pid !== main.pid) continue;
    if (e.name === 'Profile')
      profiles.set(String(e.id), {
        thread: `${names.get(e.tid) ?? 'thread'} (${e.tid})`,
        nodes: new Map(),
        ids: [],
        deltas: [],
      });
    const data = e.args?.data as
      { cpuProfile?: { nodes?: SampledNode[]; samples?: number[] }; timeDeltas?: number[] } | undefined;
    const profile = e.name === 'ProfileChunk' ? profiles.get(String(e.id)) : undefined;
    if (!profile || !data) continue;
    for (const node of data.cpuProfile?.nodes ?? []) profile.nodes.set(node.id, node);
    profile.ids.push(...(data.cpuProfile?.samples ?? []));
    profile.deltas.push(...(data.timeDeltas ?? []));
  }
  for (const profile of profiles.values()) {
    const times = sampled.get(profile.thread) ?? new Map<string, number>();
    profile.ids.forEach((id, i) => {
      const frame = profile.nodes.get(id)?.callFrame;
      const name = `${frame?.functionName || '(anonymous)'} ${(frame?.url ?? '').split('/').pop()}:${frame?.lineNumber ?? ''}`;
      // A sample's time is the gap to the next one.
      times.set(name, (times.get(name) ?? 0) + (profile.deltas[i + 1] ?? 0));
    });
    sampled.set(profile.thread, times);
  }
  const slices = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && (e.dur ?? 0) > 0)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  // A stack of open slices: each slice's time is taken from its parent's self time.
  const stack: { end: number; name: string }[] = [];
  for (const e of slices) {
    const end = e.ts + (e.dur ?? 0);
    while (stack.length > 0 && (stack.at(-1) as { end: number }).end <= e.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - (e.dur ?? 0));
    else busy += e.dur ?? 0;
    self.set(e.name, (self.get(e.name) ?? 0) + (e.dur ?? 0));
    stack.push({ end, name: e.name });
  }
}
const n = Math.max(1, files.length);
console.log("busy ms  cpu ms  thread of the page's process");
for (const [name, t] of [...threads].sort((a, b) => b[1].wall - a[1].wall))
  console.log(
    `${(t.wall / 1000 / n).toFixed(1).padStart(7)} ${(t.cpu / 1000 / n).toFixed(1).padStart(7)}  ${name}`,
  );
console.log('');
console.log(`${files.length} traces; main thread busy ${(busy / 1000 / n).toFixed(1)} ms per trace\n`);
console.log('self ms  event');
for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${(us / 1000 / n).toFixed(1).padStart(7)}  ${name}`);
for (const [thread, times] of sampled) {
  const busyTimes = [...times].filter(([name]) => !name.startsWith('(idle)'));
  const sampledBusy = busyTimes.reduce((sum, [, us]) => sum + us, 0);
  console.log(
    `\n${thread}: ${(sampledBusy / 1000 / n).toFixed(1)} ms sampled busy per trace\nself ms  function`,
  );
  for (const [name, us] of busyTimes.sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${(us / 1000 / n).toFixed(1).padStart(7)}  ${name}`);
}
