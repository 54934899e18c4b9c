// `npx tsx bench/heap-summary.ts <file.heapsnapshot>`: what a V8 heap snapshot holds, by constructor
// (count and self size), and the array buffers' backing stores by what holds them (the typed array or
// Buffer over each, and the property of the object that keeps that), so off-heap memory is named too.
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[], ...unknown[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

const MIB = 1024 * 1024;

function summarize(s: Snapshot, top: number): string {
  const { meta } = s.snapshot;
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const [TYPE, NAME, SIZE, EDGES] = ['type', 'name', 'self_size', 'edge_count'].map((f) =>
    meta.node_fields.indexOf(f),
  ) as [number, number, number, number];
  const [E_TYPE, E_NAME, E_TO] = ['type', 'name_or_index', 'to_node'].map((f) =>
    meta.edge_fields.indexOf(f),
  ) as [number, number, number];
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const n = s.nodes.length / nf;
  const typeOf = (i: number) => nodeTypes[s.nodes[i * nf + TYPE]!]!;
  const nameOf = (i: number) => s.strings[s.nodes[i * nf + NAME]!]!;
  const sizeOf = (i: number) => s.nodes[i * nf + SIZE]!;
  const label = (i: number) =>
    typeOf(i) === 'object' ? nameOf(i) : `(${typeOf(i)}) ${nameOf(i).slice(0, 40)}`;

  // Each node's first edge, and one strong retainer per node (the first met) with its edge's name.
  const retainer = new Int32Array(n).fill(-1);
  const retainedAs = new Array<string>(n);
  let e = 0;
  for (let i = 0; i < n; i++) {
    const count = s.nodes[i * nf + EDGES]!;
    for (let k = 0; k < count; k++, e++) {
      const type = edgeTypes[s.edges[e * ef + E_TYPE]!]!;
      if (type === 'weak' || type === 'shortcut') continue;
      const to = s.edges[e * ef + E_TO]! / nf;
      const nameOrIndex = s.edges[e * ef + E_NAME]!;
      const edgeName = type === 'element' || type === 'hidden' ? `[${nameOrIndex}]` : s.strings[nameOrIndex]!;
      // Prefer a retainer that is an object of the program over V8's own (maps, code, roots).
      if (retainer[to] === -1 || (typeOf(retainer[to]!) !== 'object' && typeOf(i) === 'object')) {
        retainer[to] = i;
        retainedAs[to] = edgeName;
      }
    }
  }

  const byConstructor = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < n; i++) {
    const key = label(i);
    const entry = byConstructor.get(key) ?? { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += sizeOf(i);
    byConstructor.set(key, entry);
  }

  // A backing store's holder: up from the store past the ArrayBuffer and the view over it.
  const byHolder = new Map<string, { count: number; bytes: number }>();
  let backing = 0;
  for (let i = 0; i < n; i++) {
    if (!nameOf(i).includes('JSArrayBufferData')) continue;
    backing += sizeOf(i);
    const path: string[] = [];
    let at = i;
    // A large one alone is followed further: it is rarely one of many alike.
    const depthOf = sizeOf(i) >= MIB ? 12 : 4;
    for (let depth = 0; depth < depthOf && retainer[at] !== -1; depth++) {
      const up = retainer[at]!;
      path.push(`${label(up)}.${retainedAs[at]}`);
      at = up;
    }
    const key = path.join(' ← ') || '(no retainer)';
    const entry = byHolder.get(key) ?? { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += sizeOf(i);
    byHolder.set(key, entry);
  }

  const table = (rows: Map<string, { count: number; bytes: number }>) =>
    [...rows]
      .sort((a, b) => b[1].bytes - a[1].bytes)
      .slice(0, top)
      .map(([k, v]) => `${(v.bytes / MIB).toFixed(1).padStart(8)} MiB ${String(v.count).padStart(9)}  ${k}`)
      .join('\n');
  const total = [...byConstructor.values()].reduce((a, v) => a + v.bytes, 0);
  return [
    `${n} nodes, ${(total / MIB).toFixed(1)} MiB self size in all, of which array buffers' backing stores ${(backing / MIB).toFixed(1)} MiB`,
    '',
    'by constructor (self size, count):',
    table(byConstructor),
    '',
    'backing stores by holder (bytes, count):',
    table(byHolder),
  ].join('\n');
}

const file = process.argv[2];
if (!file) throw new Error('usage: npx tsx bench/heap-summary.ts <file.heapsnapshot> [rows]');
console.log(summarize(JSON.parse(readFileSync(file, 'utf8')) as Snapshot, Number(process.argv[3] ?? 30)));
