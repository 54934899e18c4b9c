// `npm run bench`: runs every benchmark, prints one table and writes bench-results.json.
// Benchmarks never run inside `npm test` and never fail it.
import { execSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { chromiumPath } from '../scripts/chromium';
import { benchContract } from './contract';
import { benchExceptions } from './exceptions';
import type { Figure } from './figures';
import { benchBrowser } from './browser';
import { benchBundle } from './bundle';
import { benchMerge } from './merge';
import { benchMapPeers } from './map-peers';
import { benchInstances } from './instances';
import { benchPuller } from './puller';
import { benchMemory } from './memory';
import { ratioOf } from './peer-figures';
import { benchPodInbox } from './pod-inbox';
import { benchProxy } from './proxy';
import { benchReplay } from './replay';
import { benchSimulator } from './simulator';
import { benchStream } from './stream';
import { benchTeam } from './team';
import { benchTracks } from './tracks';

/** The CPU's model as `lscpu` names it (os.cpus() may name it otherwise, or not at all). */
function cpuModel(): string {
  try {
    const line = execSync('lscpu', { encoding: 'utf8' })
      .split('\n')
      .find((l) => l.startsWith('Model name:'));
    if (line) return line.slice('Model name:'.length).trim();
  } catch {
    // No lscpu: os.cpus() below.
  }
  return os.cpus()[0]?.model ?? 'unknown';
}

function chromiumVersion(): string {
  try {
    return execSync(`${chromiumPath()} --version 2>/dev/null`, { encoding: 'utf8' }).trim();
  } catch {
    return 'not found';
  }
}

const machine = {
  cores: os.cpus().length,
  cpu: cpuModel(),
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  chromium: chromiumVersion(),
};

// `npm run bench -- browser proxy`: only the named groups, while working on one of them.
const benches: [string, () => Figure[] | Promise<Figure[]>][] = [
  ['contract', benchContract],
  ['merge', benchMerge],
  ['simulator', benchSimulator],
  ['proxy', benchProxy],
  ['memory', benchMemory],
  ['bundle', benchBundle],
  ['browser', benchBrowser],
  ['replay', benchReplay],
  ['peers', benchMapPeers],
  ['team', benchTeam],
  ['tracks', benchTracks],
  ['instances', benchInstances],
  ['puller', benchPuller],
  ['inbox', benchPodInbox],
  ['exceptions', benchExceptions],
  ['stream', benchStream],
];
const only = process.argv.slice(2);
const unknown = only.filter((name) => !benches.some(([n]) => n === name));
if (unknown.length > 0) {
  console.error(
    `Unknown bench ${unknown.join(', ')}; the benches are ${benches.map(([n]) => n).join(', ')}.`,
  );
  process.exit(2);
}
/** Run only when named: at its full size it stores 20 million pings, most of an hour. */
const namedOnly = new Set(['puller']);
const figures: Figure[] = [];
for (const [name, run] of benches)
  if (only.includes(name) || (only.length === 0 && !namedOnly.has(name))) figures.push(...(await run()));

console.log(
  `Machine: ${machine.cores} cores (${machine.cpu}), ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.chromium}`,
);
const width = Math.max(...figures.map((f) => f.figure.length));
console.log(`${'figure'.padEnd(width)}  ${'value'.padStart(10)}  unit  ${'goal'.padEnd(8)}  result`);
for (const f of figures) {
  // Peers measured beside a figure: each one's value and the ratio (this figure / the peer's).
  const peers = (f.peers ?? []).map((p) => `${p.name} ${p.value} (${ratioOf(f.value, p.value)}x)`).join(', ');
  console.log(
    `${f.figure.padEnd(width)}  ${String(f.value).padStart(10)}  ${f.unit.padEnd(4)}  ${f.goal.padEnd(8)}  ${f.pass ? 'pass' : 'FAIL'}${peers ? `  peers: ${peers}` : ''}`,
  );
}
// The machine is shared: how busy it was says how far these figures can be trusted.
console.log(`Load average (1 min) at the end: ${os.loadavg()[0]?.toFixed(2)}`);
if (only.length === 0) writeFileSync('bench-results.json', JSON.stringify({ machine, figures }, null, 2));
console.log(
  only.length === 0
    ? 'Written to bench-results.json'
    : 'Only some benches ran: bench-results.json left as it was.',
);
