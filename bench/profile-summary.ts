// `npx tsx bench/profile-summary.ts <dir> [top]`: sums up the profiles a bench wrote
// (BENCH_PROFILE=<dir> npm run bench -- browser): each function's self time and its total time (its
// own and its callees') from the CPU profiles, and the bytes each function allocated (garbage
// included) from the heap profiles, per profile on average, the largest first. A build made with
// `npx vite build --minify false` keeps the app's function names.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface HeapNode {
  callFrame: ProfileNode['callFrame'];
  selfSize: number;
  children: HeapNode[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [dir, topText] = process.argv.slice(2);
if (!dir) {
  console.error('usage: npx tsx bench/profile-summary.ts <dir of .cpuprofile files> [how many rows]');
  process.exit(2);
}
const top = Number(topText ?? 40);
const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
const heapFiles = readdirSync(dir).filter((f) => f.endsWith('.heapprofile'));
if (files.length === 0) {
  console.error(`no .cpuprofile file in ${dir}`);
  process.exit(1);
}

const self = new Map<string, number>();
const total = new Map<string, number>();
const add = (m: Map<string, number>, key: string, ms: number) => m.set(key, (m.get(key) ?? 0) + ms);
const nameOf = (n: ProfileNode) => {
  const f = n.callFrame;
  const where = f.url ? ` ${basename(f.url).replace(/\?.*$/, '')}:${f.lineNumber + 1}` : '';
  return `${f.functionName || '(anonymous)'}${where}`;
};

for (const file of files) {
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // A sample's time is the delta to the next sample.
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const node = byId.get(id);
    if (!node) return;
    add(self, nameOf(node), ms);
    // Each function on the stack once, however deep its recursion.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const key = nameOf(byId.get(at) as ProfileNode);
      if (!seen.has(key)) add(total, key, ms);
      seen.add(key);
    }
  });
}

const busy = [...self].filter(([k]) => !k.startsWith('(idle)')).reduce((sum, [, ms]) => sum + ms, 0);
const per = (ms: number) => (ms / files.length).toFixed(1).padStart(7);
console.log(`${files.length} profiles; busy (not idle) ${per(busy)} ms per profile`);
console.log(`\n${'self ms'.padStart(7)}  function`);
for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${per(ms)}  ${key}`);
console.log(`\n${'total'.padStart(7)}  function`);
for (const [key, ms] of [...total]
  .filter(([k]) => !k.startsWith('(root)'))
  .sort((a, b) => b[1] - a[1])
  .slice(0, top))
  console.log(`${per(ms)}  ${key}`);

if (heapFiles.length > 0) {
  const bytes = new Map<string, number>();
  const below = new Map<string, number>();
  // Returns the subtree's bytes; each function counted once per stack in `below`.
  const walk = (node: HeapNode, stack: Set<string>): number => {
    const key = nameOf(node as unknown as ProfileNode);
    add(bytes, key, node.selfSize);
    const inner = new Set(stack).add(key);
    let sum = node.selfSize;
    for (const c of node.children) sum += walk(c, inner);
    if (!stack.has(key)) add(below, key, sum);
    return sum;
  };
  let all = 0;
  for (const file of heapFiles) {
    const { head } = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { head: HeapNode };
    all += walk(head, new Set());
  }
  const kb = (b: number) => (b / heapFiles.length / 1024).toFixed(0).padStart(7);
  console.log(`\n${heapFiles.length} heap profiles; allocated ${kb(all)} kB per profile`);
  console.log(`\n${'self kB'.padStart(7)}  function`);
  for (const [key, b] of [...bytes].sort((x, y) => y[1] - x[1]).slice(0, top))
    console.log(`${kb(b)}  ${key}`);
  console.log(`\n${'total'.padStart(7)}  function`);
  for (const [key, b] of [...below]
    .filter(([k]) => !k.startsWith('(root)'))
    .sort((x, y) => y[1] - x[1])
    .slice(0, top))
    console.log(`${kb(b)}  ${key}`);
}
