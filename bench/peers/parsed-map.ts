// The server peer a team would write (issue 40): the upstream's answers parsed with JSON.parse and
// kept in a Map by load id, in a process of its own with no Haulview code. Started by bench/memory.ts
// with `--expose-gc` and a file of raw answers, one a line; it sends back its memory before and after.
import { readFileSync } from 'node:fs';

interface Detail {
  ltExternalId?: unknown;
  loadTrackExternalId?: unknown;
}

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('bench/peers/parsed-map.ts needs node --expose-gc');

const memory = () => {
  gc();
  const m = process.memoryUsage();
  return { heapUsed: m.heapUsed, rss: m.rss };
};

const before = memory();
const loads = new Map<string, Detail>();
for (const line of readFileSync(process.argv[2] ?? '', 'utf8').split('\n')) {
  if (!line) continue;
  const answer = JSON.parse(line) as { details?: Detail[] };
  for (const d of answer.details ?? []) loads.set(String(d.ltExternalId ?? d.loadTrackExternalId), d);
}
const after = memory();
process.send?.({ before, after, loads: loads.size });
process.disconnect?.();
