import { describe, expect, it } from 'vitest';
import { LoadView, ProxyPullAnswer } from '@/contract/load-view';
import { parsePullAnswer } from '@/contract/parse-pull';
import type { Load } from '@/domain/model';
import { normalizeLoad } from '@/domain/normalize';
import { manualClock, startStack, TEST_CREDENTIALS } from '@/testing/stack';

/** Every item key of a load, per list: what "the same track" means. */
function keysOf(load: Load | undefined) {
  return {
    latest: load?.latestLocation?.key,
    pings: load?.pings.map((p) => p.key),
    events: load?.events.map((e) => e.key),
    comments: load?.comments.map((c) => c.key),
    documents: load?.documents.map((d) => d.key),
    readings: load?.readings.map((r) => r.key),
  };
}

function upstreamLoads(json: unknown): Map<string, Load> {
  const parsed = parsePullAnswer(json);
  if ('error' in parsed) throw new Error(parsed.error);
  const out = new Map<string, Load>();
  parsed.data.details.forEach((d, i) => {
    const load = normalizeLoad(d, 'external-id', `details[${i}]`);
    if (load) out.set(load.id, load);
  });
  return out;
}

describe('the proxy under upstream faults', () => {
  it('after 200 polls of 50 loads with 20% faults of every kind, each track equals the ground truth', async () => {
    const clock = manualClock();
    const stack = await startStack({
      loads: 50,
      now: clock.now,
      // A deadline the slow answers miss (held 3 s after the cursors moved); a size cap of 16 MiB, four
      // times the largest whole answer of this run (4.4 MB), which the answers without end pass soon;
      // and no periodic full resync within the run's 100 minutes: only the proxy's doubt about a
      // failed call may heal what the faults lost.
      env: {
        REFRESH_SECONDS: '30',
        // Well under the slow fault's 3 s, with room for a busy machine's full answers.
        UPSTREAM_TIMEOUT_MS: '2000',
        UPSTREAM_MAX_BYTES: String(16 * 2 ** 20),
        RESYNC_MINUTES: '1440',
      },
      faults: {
        // Before the pull: the cursors stay put.
        errorRate: 0.03,
        tooManyRequestsRate: 0.03,
        retryAfterSeconds: 20,
        invalidJsonRate: 0.03,
        statusFalseRate: 0.03,
        // After the pull: the cursors moved and the delta is lost unless the proxy pulls in full.
        truncateRate: 0.03,
        resetRate: 0.03,
        slowRate: 0.02,
        slowMs: 3000,
        oversizeRate: 0.02,
      },
    });
    try {
      const ids = stack.sim.fleet.map((p) => String(p.externalId));
      const statuses = new Map<number, number>();
      const codes = new Set<string>();
      for (let poll = 0; poll < 200; poll++) {
        clock.advance(30_000); // a refresh window: half an hour of driving at 60x
        const response = await stack.post('/api/pull/by-external-id', {
          ids,
          include: { locations: false, events: false, documents: false, comments: false },
        });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status === 200) await response.arrayBuffer();
        else codes.add(((await response.json()) as { error: { code: string } }).error.code);
      }
      // Faults of every kind were met (each by its own error code), and most polls went through.
      expect(statuses.get(200) ?? 0).toBeGreaterThan(100);
      for (const code of [
        'upstream_rate_limited', // 429
        'upstream_error', // 500
        'upstream_bad_json', // a page that is no JSON, and JSON cut short
        'upstream_refused', // a 200 whose envelope says status: false
        'upstream_timeout', // held past the deadline
        'upstream_unreachable', // reset
      ])
        expect(codes.has(code), `${code} in ${[...codes].join(', ')}`).toBe(true);
      // An answer without end is pulled again in halves: no poll fails for it, and some made more
      // calls than their two chunks (one full, one delta) would.
      expect(codes.has('upstream_too_large')).toBe(false);
      const calls = stack.logs.map((l) => (JSON.parse(l) as { upstreamCalls?: number }).upstreamCalls ?? 0);
      expect(Math.max(...calls)).toBeGreaterThan(2);

      // The faults stop; one more poll after the window settles whatever was pending.
      stack.sim.setFaults({});
      clock.advance(60_000);
      // As the page would, it polls again after a time-out (a busy machine's full answer of 50 tracks).
      let final = await stack.post('/api/pull/by-external-id', { ids });
      for (let retry = 0; retry < 3 && final.status === 504; retry++) {
        await final.arrayBuffer();
        final = await stack.post('/api/pull/by-external-id', { ids });
      }
      expect(final.status).toBe(200);
      const answer = ProxyPullAnswer.parse(await final.json());
      const fromProxy = new Map(answer.loads.map((l) => LoadView.parse(l)).map((l) => [l.id, l]));

      // Ground truth: the simulator's full answer at the same moment.
      const truth = await fetch(`${stack.sim.url}/loadtrackservice/getLoadTrackDetailsServiceV2`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...TEST_CREDENTIALS, loadTrackExternalIds: ids, sendNewData: 'no' }),
      });
      const expected = upstreamLoads(await truth.json());
      expect(fromProxy.size).toBe(expected.size);
      let items = 0;
      for (const [id, load] of expected) {
        expect(keysOf(fromProxy.get(id)), `load ${id}`).toEqual(keysOf(load));
        items += load.pings.length + load.events.length;
      }
      expect(items).toBeGreaterThan(1000);
    } finally {
      await stack.close();
    }
  }, 120_000);
});
