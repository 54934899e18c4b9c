import { performance } from 'node:perf_hooks';
import { manualClock, startStack, TEST_CREDENTIALS } from '@/testing/stack';
import type { Figure } from './figures';

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
}
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * Fan-in: 50 browser clients refreshing the same 500 loads at once cost the upstream one call per
 * chunk. Overhead: one load through the proxy (which pulls it from the simulator) against the same
 * call made to the simulator directly, interleaved at about 200 requests per second.
 */
export async function benchProxy(): Promise<Figure[]> {
  const board = { locations: false, events: false, documents: false, comments: false };
  // Fan-in, on a clock of its own: warm the cache, let a refresh window pass, then 50 clients at once.
  const clock = manualClock(Date.now());
  const fanIn = await startStack({ loads: 500, now: clock.now });
  let calls: number;
  try {
    const ids = fanIn.sim.fleet.map((p) => String(p.externalId));
    await (await fanIn.post('/api/pull/by-external-id', { ids, include: board })).arrayBuffer();
    clock.advance(30_000);
    const before = fanIn.logs.length;
    await Promise.all(
      Array.from({ length: 50 }, async () =>
        (await fanIn.post('/api/pull/by-external-id', { ids, include: board })).arrayBuffer(),
      ),
    );
    calls = fanIn.logs
      .slice(before)
      .map((l) => JSON.parse(l) as { upstreamCalls?: number })
      .reduce((n, l) => n + (l.upstreamCalls ?? 0), 0);
  } finally {
    await fanIn.close();
  }

  const stack = await startStack({ loads: 500, env: { REFRESH_SECONDS: '2' } });
  try {
    const ids = stack.sim.fleet.map((p) => String(p.externalId));
    const direct: number[] = [];
    const proxied: number[] = [];
    const url = `${stack.sim.url}/loadtrackservice/getLoadTrackDetailsServiceV2`;
    const started = performance.now();
    for (let i = 0; i < 600; i++) {
      // Each id comes round every 3 s, past the 1 s fresh window: every proxied request pulls.
      const id = ids[i % ids.length] as string;
      let t = performance.now();
      const d = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          ...TEST_CREDENTIALS,
          loadTrackExternalIds: [id],
          sendNewData: 'yes',
          includeLocations: false,
          includeEvents: false,
          includeDocuments: false,
          includeComments: false,
        }),
      });
      await d.arrayBuffer();
      direct.push(performance.now() - t);
      t = performance.now();
      const p = await stack.post('/api/pull/by-external-id', { ids: [id], include: board });
      await p.arrayBuffer();
      proxied.push(performance.now() - t);
      const due = started + (i + 1) * 5; // 200 requests per second in all
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    const overheadP50 = percentile(proxied, 50) - percentile(direct, 50);
    const overheadP99 = percentile(proxied, 99) - percentile(direct, 99);
    return [
      {
        figure: 'proxy: upstream calls for 50 clients x 500 loads (chunks of 100)',
        value: calls,
        unit: 'calls',
        goal: '5',
        pass: calls <= 5,
      },
      {
        figure: 'proxy: one load, direct to simulator p50',
        value: round(percentile(direct, 50)),
        unit: 'ms',
        goal: '-',
        pass: true,
      },
      {
        figure: 'proxy: one load, through the proxy p50',
        value: round(percentile(proxied, 50)),
        unit: 'ms',
        goal: '-',
        pass: true,
      },
      {
        figure: 'proxy: overhead p50 (proxy - direct)',
        value: round(overheadP50),
        unit: 'ms',
        goal: '-',
        pass: true,
      },
      {
        figure: 'proxy: overhead p99 (proxy - direct) at ~200 req/s',
        value: round(overheadP99),
        unit: 'ms',
        goal: '< 5',
        pass: overheadP99 < 5,
      },
      {
        figure: 'proxy: p99 ratio proxy / direct',
        value: round(percentile(proxied, 99) / percentile(direct, 99), 2),
        unit: 'x',
        goal: '-',
        pass: true,
      },
    ];
  } finally {
    await stack.close();
  }
}
