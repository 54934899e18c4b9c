// `npx tsx bench/run.ts memory` (issue 40 part 3): memory per tracked load. The proxy, in a process of
// its own, holds N simulator loads with their tracks in its track cache; its heap after a full
// collection and its RSS, per load, stand beside two peers for the same loads: the upstream's raw
// answer as received (its bytes) and that answer JSON.parsed and kept in a Map in a plain process.
import { fork } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTransport } from '@/server/upstream-transport';
import { TEST_CREDENTIALS } from '@/testing/stack';
import type { Figure } from './figures';
import { memoryFigures, type Memory, type MemoryRun } from './memory-figures';
import { startChild } from './processes';

const SEED = 7;
/** Fleet sizes; `BENCH_MEMORY_LOADS=1000,5000`. */
const SIZES = (process.env.BENCH_MEMORY_LOADS ?? '1000,5000').split(',').map(Number);
/** The simulators' clock stands still here, so the proxy and the direct pulls read the same tracks. */
const FROZEN_AT = Date.parse('2026-11-22T18:00:00Z');
/** Ids per upstream call, as the proxy's default (UPSTREAM_MAX_IDS). */
const CHUNK = 100;
/** Ids per browser request, as the proxy's default (MAX_IDS). */
const BROWSER_CHUNK = 500;
/** A dispatcher's board poll: the cache holds each whole track whatever the poll includes. */
const BOARD = { locations: false, events: false, documents: false, comments: false };
const SPA_HEADERS = { 'Content-Type': 'application/json', 'X-Requested-With': 'haulview' };
const peerEntry = fileURLToPath(new URL('./peers/parsed-map.ts', import.meta.url));

const chunks = <T>(list: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

/** The plain process's memory before and after JSON.parse of the answers in `file`, kept in a Map. */
function parsedPeer(file: string, loads: number): Promise<{ before: Memory; after: Memory }> {
  return new Promise((resolve, reject) => {
    const child = fork(peerEntry, [file], {
      execArgv: [...process.execArgv, '--expose-gc'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.once('message', (m: { before: Memory; after: Memory; loads: number }) => {
      if (m.loads !== loads) reject(new Error(`the parse peer kept ${m.loads} loads, not ${loads}`));
      else resolve(m);
    });
    child.once('exit', (code) => reject(new Error(`the parse peer exited (${code}) before answering`)));
  });
}

async function measure(loads: number): Promise<MemoryRun> {
  const client = createTransport({ timeoutMs: 120_000, maxBytes: 2 ** 30 });
  const sims = await startChild({
    kind: 'simulators',
    count: 1,
    seed: SEED,
    loads,
    credentials: TEST_CREDENTIALS,
    frozenAt: FROZEN_AT,
  });
  const dir = mkdtempSync(join(tmpdir(), 'haulview-bench-memory-'));
  try {
    const simUrl = sims.urls[0] as string;
    const ids = sims.ids;
    // The proxy first: the cache's first pull of a load is `sendNewData: no`, every list.
    const proxy = await startChild({
      kind: 'proxy',
      upstreamUrl: simUrl,
      env: { CACHE_MAX_LOADS: String(loads + 100), REFRESH_SECONDS: '3600' },
      credentials: TEST_CREDENTIALS,
    });
    let proxyMemory: MemoryRun['proxy'];
    try {
      const before = await proxy.stats(true);
      for (const some of chunks(ids, BROWSER_CHUNK)) {
        const r = await client.post(
          `${proxy.urls[0]}/api/pull/by-external-id`,
          SPA_HEADERS,
          JSON.stringify({ ids: some, include: BOARD }),
        );
        if (r.status !== 200) throw new Error(`the proxy answered ${r.status}`);
      }
      const after = await proxy.stats(true);
      // Only the memory: the stats carry CPU and GC pauses too.
      const memory = (m: Memory): Memory => ({ heapUsed: m.heapUsed, rss: m.rss });
      proxyMemory = { before: memory(before), after: memory(after) };
    } finally {
      await proxy.close();
    }
    // The same loads direct from the upstream, as the proxy asked for them (the clock stood still).
    // Written out one answer a line as they come: 5,000 loads' answers are hundreds of megabytes.
    const file = join(dir, 'answers.jsonl');
    let rawBytes = 0;
    let pings = 0;
    for (const some of chunks(ids, CHUNK)) {
      const r = await client.post(
        `${simUrl}/loadtrackservice/getLoadTrackDetailsServiceV2`,
        { 'Content-Type': 'application/json' },
        JSON.stringify({
          ...TEST_CREDENTIALS,
          loadTrackExternalIds: some,
          sendNewData: 'no',
          includeLocations: true,
          includeEvents: true,
          includeDocuments: true,
          includeComments: true,
        }),
      );
      if (r.status !== 200) throw new Error(`the simulator answered ${r.status}`);
      const text = r.text;
      // The answer's JSON as UTF-8 bytes (decoded, had it come compressed).
      rawBytes += Buffer.byteLength(text, 'utf8');
      for (const d of (JSON.parse(text) as { details?: { locations?: unknown[] }[] }).details ?? [])
        pings += d.locations?.length ?? 0;
      appendFileSync(file, `${text}\n`);
    }
    const parsed = await parsedPeer(file, ids.length);
    return { loads: ids.length, proxy: proxyMemory, rawBytes, parsed, pings };
  } finally {
    client.close();
    await sims.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchMemory(): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const loads of SIZES) {
    const run = await measure(loads);
    if (process.env.BENCH_VERBOSE) console.error(`memory bench, ${loads} loads: ${JSON.stringify(run)}`);
    figures.push(...memoryFigures(run));
  }
  return figures;
}
