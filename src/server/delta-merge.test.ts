import { describe, expect, it } from 'vitest';
import { ProxyPullAnswer } from '@/contract/proxy-api';
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

function loadsOf(json: unknown): Map<string, Load> {
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
      env: { REFRESH_SECONDS: '30' },
      faults: {
        errorRate: 0.05,
        tooManyRequestsRate: 0.05,
        retryAfterSeconds: 20,
        truncateRate: 0.05,
        resetRate: 0.05,
      },
    });
    try {
      const ids = stack.sim.fleet.map((p) => String(p.externalId));
      const statuses = new Map<number, number>();
      for (let poll = 0; poll < 200; poll++) {
        clock.advance(30_000); // a refresh window: half an hour of driving at 60x
        const response = await stack.post('/api/pull/by-external-id', {
          ids,
          include: { locations: false, events: false, documents: false, comments: false },
        });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        await response.arrayBuffer();
      }
      // Faults of every kind were met, and most polls went through.
      expect(statuses.get(200) ?? 0).toBeGreaterThan(100);
      expect([...statuses.keys()].some((s) => s === 429)).toBe(true);
      expect([...statuses.keys()].some((s) => s === 502)).toBe(true);

      // The faults stop; one more poll after the window settles whatever was pending.
      stack.sim.setFaults({});
      clock.advance(60_000);
      const final = await stack.post('/api/pull/by-external-id', { ids });
      expect(final.status).toBe(200);
      const fromProxy = loadsOf(ProxyPullAnswer.parse(await final.json()));

      // Ground truth: the simulator's full answer at the same moment.
      const truth = await fetch(`${stack.sim.url}/loadtrackservice/getLoadTrackDetailsServiceV2`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...TEST_CREDENTIALS, loadTrackExternalIds: ids, sendNewData: 'no' }),
      });
      const expected = loadsOf(await truth.json());
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
