import { describe, expect, it } from 'vitest';
import { Diagnostics } from '@/contract/diagnostics-api';
import { LoadView, ProxyPullAnswer } from '@/contract/load-view';
import { manualClock, startStack, TEST_CREDENTIALS } from '@/testing/stack';
import { openMigratedTestStore } from '@/testing/test-store';
import { TOO_LARGE_TRIES } from './track-cache';
import type { Puller } from './puller/puller';

/** The `upstreamCalls` of each `/api/pull` request, from the proxy's request log. */
/**
 * A stack that keeps tracks in a fresh PGlite store, on a clock the test moves, with the service's
 * answers capped at `maxBytes`; the first load's track is long. `close` ends both.
 */
async function storeStack(loads: number, maxBytes: number) {
  const clock = manualClock();
  const { store, close } = await openMigratedTestStore('pglite');
  const stack = await startStack({
    loads,
    now: clock.now,
    longTrackPings: 2000,
    store,
    // The lease runs on the store's real clock: a pull slowed by a busy machine must not outlast it
    // (leases are not what these tests are about).
    env: {
      TRACKS: 'store',
      UPSTREAM_MAX_BYTES: String(maxBytes),
      REFRESH_SECONDS: '30',
      LEASE_SECONDS: '300',
    },
  });
  return {
    clock,
    stack,
    close: async () => {
      await stack.close();
      await close();
    },
  };
}

/** A browser's pull of these loads from one instance. */
async function pullFrom(url: string, ids: string[]) {
  const response = await fetch(`${url}/api/pull/by-external-id`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'haulview' },
    body: JSON.stringify({ ids }),
  });
  return ProxyPullAnswer.parse(await response.json());
}

/** What the service holds of these loads (the ground truth): each one's pings, in full. */
async function serviceHolds(simUrl: string, ids: string[]) {
  const truth = await fetch(`${simUrl}/loadtrackservice/getLoadTrackDetailsServiceV2`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...TEST_CREDENTIALS, loadTrackExternalIds: ids, sendNewData: 'no' }),
  });
  return ((await truth.json()) as { details: { loadTrackExternalId: number; locations: unknown[] }[] })
    .details;
}

function upstreamCallsLogged(logs: string[]): number[] {
  return logs
    .map((l) => JSON.parse(l) as { path?: string; upstreamCalls?: number })
    .filter((l) => l.path?.startsWith('/api/pull/'))
    .map((l) => l.upstreamCalls ?? -1);
}

describe('answers larger than UPSTREAM_MAX_BYTES', () => {
  it('are pulled again in halves; the one load too large alone is retried, then noted once, the others served', async () => {
    const clock = manualClock();
    // The simulator's first load carries a long track, larger alone than the cap below; the other
    // eleven together fit under it: the cap refuses the whole chunk and every half holding the first.
    const stack = await startStack({
      loads: 12,
      now: clock.now,
      longTrackPings: 2000,
      env: { UPSTREAM_MAX_BYTES: String(2 ** 20), REFRESH_SECONDS: '30', RESYNC_MINUTES: '10' },
    });
    try {
      const ids = stack.sim.fleet.map((p) => String(p.externalId));
      const [huge, ...others] = ids;
      const first = await stack.post('/api/pull/by-external-id', { ids });
      expect(first.status).toBe(200);
      const firstAnswer = ProxyPullAnswer.parse(await first.json());
      expect(firstAnswer.missing).toEqual([]);
      // Never read yet and perhaps a passing burst: pending, not reported, while it is tried again.
      expect(firstAnswer.pending).toEqual([huge]);
      expect(firstAnswer.loads.map((l) => LoadView.parse(l).id).sort()).toEqual([...others].sort());
      // 12 → 6 + 6 → 3 + 3 → 2 + 1 → 1 + 1: each half with the huge load pulled in halves again.
      expect(upstreamCallsLogged(stack.logs)).toEqual([9]);
      const driftKinds = async () =>
        Diagnostics.parse(await (await fetch(`${stack.proxy.url}/api/diagnostics`)).json()).entries.filter(
          (e) => e.kind === 'too_large',
        );
      expect(await driftKinds()).toEqual([]);
      // Tried alone at each next refresh (the others in one call of their own) until reported.
      let answer = firstAnswer;
      for (let refresh = 2; refresh <= TOO_LARGE_TRIES; refresh++) {
        clock.advance(30_000);
        answer = ProxyPullAnswer.parse(await (await stack.post('/api/pull/by-external-id', { ids })).json());
      }
      expect(upstreamCallsLogged(stack.logs)).toEqual([9, ...Array<number>(TOO_LARGE_TRIES - 1).fill(2)]);
      expect(answer.missing).toEqual([]);
      expect(answer.pending).toBeUndefined();
      const loads = new Map(answer.loads.map((l) => LoadView.parse(l)).map((l) => [l.id, l]));
      expect([...loads.keys()].sort()).toEqual([...ids].sort());

      // Every other load is whole: the pings the simulator has for it, none lost in the halving.
      const expected = await serviceHolds(stack.sim.url, others);
      expect(expected).toHaveLength(11);
      for (const d of expected) {
        const load = loads.get(String(d.loadTrackExternalId));
        expect(load?.pings.length, `load ${d.loadTrackExternalId}`).toBe(d.locations.length);
        expect(load?.issues.some((i) => i.kind === 'too_large')).toBe(false);
      }
      // The huge one is served by its id with a note that says why it is empty.
      const alone = loads.get(huge!);
      expect(alone?.externalId).toBe(huge);
      expect(alone?.pings).toEqual([]);
      expect(alone?.issues).toEqual([
        expect.objectContaining({ kind: 'too_large', path: '(load)', skipped: true }),
      ]);
      expect(alone?.issues[0]?.message).toMatch(/larger than 1048576 bytes.*UPSTREAM_MAX_BYTES/);

      // The drift report names it for whoever runs the proxy.
      const report = Diagnostics.parse(await (await fetch(`${stack.proxy.url}/api/diagnostics`)).json());
      expect(report.entries).toContainEqual(
        expect.objectContaining({ operation: 'external-id', path: 'details[]', kind: 'too_large', count: 1 }),
      );
      expect(report.entries.find((e) => e.kind === 'too_large')?.example).toContain(`load ${huge}`);
      // Answers too large are no outage: calls are not paused.
      expect(report.upstream?.pausedUntil).toBeNull();

      // The next refresh pulls the others in one call and leaves the huge one until the resync.
      const before = upstreamCallsLogged(stack.logs);
      clock.advance(30_000);
      const second = await stack.post('/api/pull/by-external-id', { ids, since: answer.cursor });
      expect(second.status).toBe(200);
      await second.arrayBuffer();
      expect(upstreamCallsLogged(stack.logs)).toEqual([...before, 1]);
      // After the resync interval it is tried again (alone: the others are fresh): still noted on
      // the load, not reported again.
      clock.advance(10 * 60_000);
      const later = ProxyPullAnswer.parse(
        await (await stack.post('/api/pull/by-external-id', { ids: [huge] })).json(),
      );
      expect(upstreamCallsLogged(stack.logs)).toEqual([...before, 1, 1]);
      expect(LoadView.parse(later.loads[0]).issues.map((i) => i.kind)).toEqual(['too_large']);
      expect((await driftKinds()).map((e) => e.count)).toEqual([1]);
    } finally {
      await stack.close();
    }
  }, 60_000);

  it('with tracks in the store, the load too large alone is served with its note by every instance', async () => {
    const { clock, stack, close } = await storeStack(4, 2 ** 20);
    try {
      const other = await stack.addInstance();
      const puller = stack.puller as Puller;
      expect(await puller.renew()).toBe('leader');
      const ids = stack.sim.fleet.map((p) => String(p.externalId));
      const [huge] = ids;
      const pull = (url: string) => pullFrom(url, ids);
      expect((await pull(other.proxy.url)).pending).toEqual(ids);
      await puller.pull();
      // Refused once: perhaps a passing burst, so still pending while it is tried again.
      expect((await pull(other.proxy.url)).pending).toEqual([huge]);
      for (let round = 2; round <= TOO_LARGE_TRIES; round++) {
        clock.advance(30_000);
        await puller.pull();
      }
      // Not pending for ever, nor missing: the instance that did not pull it says why it is empty.
      const answer = await pull(other.proxy.url);
      expect(answer.pending).toBeUndefined();
      expect(answer.missing).toEqual([]);
      const loads = new Map(answer.loads.map((l) => LoadView.parse(l)).map((l) => [l.id, l]));
      expect(loads.size).toBe(ids.length);
      expect(loads.get(huge!)?.issues).toEqual([
        expect.objectContaining({ kind: 'too_large', path: '(load)', skipped: true }),
      ]);
      for (const id of ids.slice(1)) expect(loads.get(id)?.pings.length, id).toBeGreaterThan(0);
    } finally {
      await close();
    }
  }, 60_000);

  it("a new term's first pull, of every load in full, is sized by what the store holds: no answer refused", async () => {
    // One long track among 39 short ones: the cap refuses all 40 in one call, not the long one
    // alone nor the short ones together.
    const { stack, close } = await storeStack(40, 2.5 * 2 ** 20);
    try {
      const other = await stack.addInstance();
      const first = stack.puller as Puller;
      const next = other.puller as Puller;
      expect(await first.renew()).toBe('leader');
      const ids = stack.sim.fleet.map((p) => String(p.externalId));
      await stack.post('/api/pull/by-external-id', { ids });
      await first.pull();
      // The first holder's deltas may not all have been stored: it goes, another takes over.
      await first.release();
      expect(await next.renew()).toBe('leader');
      const diagnostics = async () =>
        Diagnostics.parse(await (await fetch(`${other.proxy.url}/api/diagnostics`)).json());
      expect((await diagnostics()).upstream?.lastSuccessAt).toBeNull();

      const pullsBefore = stack.sim.pulls();
      const calls = await next.pull();
      expect(stack.sim.pulls() - pullsBefore, JSON.stringify(stack.logs.slice(-3))).toBe(calls);
      // Every load pulled in full, no call refused (so none pulled again in halves)…
      const report = await diagnostics();
      expect(report.upstream?.lastError).toBeNull();
      expect(report.upstream?.lastSuccessAt).not.toBeNull();
      expect(calls).toBeGreaterThanOrEqual(2);
      // …and every load whole in the store, as the service has it.
      const expected = await serviceHolds(stack.sim.url, ids);
      const answer = await pullFrom(other.proxy.url, ids);
      const loads = new Map(answer.loads.map((l) => LoadView.parse(l)).map((l) => [l.id, l]));
      expect(expected).toHaveLength(ids.length);
      for (const d of expected)
        expect(loads.get(String(d.loadTrackExternalId))?.pings.length, String(d.loadTrackExternalId)).toBe(
          d.locations.length,
        );
    } finally {
      await close();
    }
  }, 120_000);
});
