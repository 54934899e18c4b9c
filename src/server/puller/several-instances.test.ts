import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoadView, ProxyPullAnswer } from '@/contract/load-view';
import { loadOutlook } from '@/domain/outlook';
import { manualClock, startStack, TEST_CREDENTIALS, type Stack } from '@/testing/stack';
import { openMigratedTestStore, STORE_KINDS } from '@/testing/test-store';
import { outlookOptionsOf, parseEnv } from '../config';
import type { Store } from '../store/store';
import type { Puller } from './puller';

/** The simulator's own answer for these loads, in full: what every instance must end up serving. */
async function truth(stack: Stack, ids: string[]) {
  const response = await fetch(`${stack.sim.url}/loadtrackservice/getLoadTrackDetailsServiceV2`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...TEST_CREDENTIALS, loadTrackExternalIds: ids, sendNewData: 'no' }),
  });
  const { details } = (await response.json()) as {
    details: { loadTrackExternalId: number; locations: unknown[]; events: unknown[] }[];
  };
  return new Map(details.map((d) => [String(d.loadTrackExternalId), d]));
}

const pull = async (url: string, body: unknown) => {
  const response = await fetch(`${url}/api/pull/by-external-id`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'haulview' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return ProxyPullAnswer.parse(await response.json());
};

/** A browser's view: each answer merged by item key, as the page's worker does with applyDelta. */
function merge(view: Map<string, Map<string, unknown>>, answer: ProxyPullAnswer) {
  for (const raw of answer.loads) {
    const load = LoadView.parse(raw);
    let pings = view.get(load.id);
    if (!pings) view.set(load.id, (pings = new Map()));
    for (const p of load.pings) pings.set(p.key, p);
  }
  for (const id of answer.missing) view.delete(id);
}

describe.each(STORE_KINDS)('several instances on %s (TRACKS=store)', (kind) => {
  let store: Store;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await openMigratedTestStore(kind));
  }, 60_000);
  afterAll(async () => close?.());

  it('one pulls for all, each serves the same tracks, a cursor holds on any, a takeover pulls in full', async () => {
    const clock = manualClock();
    const stack = await startStack({
      loads: 8,
      now: clock.now,
      store,
      // The in-memory cache's limit is not the puller's (PULLER_MAX_LOADS): all eight are pulled.
      env: { TRACKS: 'store', REFRESH_SECONDS: '30', UPSTREAM_MAX_IDS: '100', CACHE_MAX_LOADS: '4' },
    });
    try {
      const other = await stack.addInstance();
      const a = stack.puller as Puller;
      const b = other.puller as Puller;
      expect(await a.renew()).toBe('leader');
      expect(await b.renew()).toBe('standby');
      // The lease names the account by a hash: its id is a credential, kept out of the store.
      const leases = await store.db.selectFrom('puller_leases').select('account').execute();
      expect(leases).toHaveLength(1);
      expect(leases[0]?.account).toMatch(/^[0-9a-f]{32}$/);
      expect(JSON.stringify(leases)).not.toContain(TEST_CREDENTIALS.accountId);
      const ids = stack.sim.fleet.map((p) => String(p.externalId));
      const unknownId = '424242';

      // The standby is asked first: the store holds nothing yet, so every id is pending, none missing.
      const first = await pull(other.proxy.url, { ids: [...ids, unknownId] });
      expect(first.loads).toEqual([]);
      expect(first.missing).toEqual([]);
      expect(first.pending).toEqual([...ids, unknownId]);
      // The standby never calls the service; the leader's round pulls what was asked, in one call.
      expect(stack.sim.pulls()).toBe(0);
      expect(await b.pull()).toBe(0);
      expect(await a.pull()).toBe(1);
      expect(stack.sim.pulls()).toBe(1);

      // Both instances now serve the same tracks; the id the service does not know is missing.
      const view = new Map<string, Map<string, unknown>>();
      const onB = await pull(other.proxy.url, { ids: [...ids, unknownId] });
      expect(onB.missing).toEqual([unknownId]);
      expect(onB.pending).toBeUndefined();
      merge(view, onB);
      const onA = await pull(stack.proxy.url, { ids: [...ids, unknownId] });
      expect(onA.loads).toEqual(onB.loads);

      // Time passes: a round pulls the delta once for both instances (not once per instance).
      clock.advance(30_000);
      expect(await a.pull()).toBe(1);
      expect(await a.pull()).toBe(0);
      expect(stack.sim.pulls()).toBe(2);
      // A cursor from one instance holds on the other: only what changed after it comes.
      const delta = await pull(stack.proxy.url, { ids, since: onB.cursor });
      expect(delta.loads.length).toBeGreaterThan(0);
      for (const raw of delta.loads) {
        const load = LoadView.parse(raw);
        for (const p of load.pings) expect(view.get(load.id)?.has(p.key), `${load.id} ${p.key}`).toBe(false);
      }
      merge(view, delta);

      // A deploy: the leader gives its lease up; the other takes over at once and starts in full.
      await a.release();
      expect(await b.renew()).toBe('leader');
      expect(await a.renew()).toBe('standby');
      clock.advance(30_000);
      expect(await b.pull()).toBe(1);
      const afterDeploy = await pull(stack.proxy.url, { ids, since: delta.cursor });
      merge(view, afterDeploy);

      // B is paused past its term (a long pause of the process): A takes over...
      await store.db
        .updateTable('puller_leases')
        .set({ expires_at: sql<Date>`clock_timestamp() - interval '1 second'` })
        .execute();
      expect(await a.renew()).toBe('leader');
      expect(await a.pull()).toBe(1);
      // ...and B, awake and still thinking it leads, takes the service's next delta, which it may not
      // store: its write is refused, and it steps down.
      clock.advance(30_000);
      const taken = stack.sim.pulls();
      await b.pull();
      expect(stack.sim.pulls()).toBe(taken + 1);
      expect(b.role()).toBe('standby');
      // A pulls those loads in full at its next round (one call; the id the service does not know is
      // asked by delta in another): what B took from the service is not lost.
      expect(await a.pull()).toBe(2);
      merge(view, await pull(other.proxy.url, { ids, since: afterDeploy.cursor }));

      // Every load as the service has it: no ping lost, none twice.
      const expected = await truth(stack, ids);
      for (const id of ids) expect(view.get(id)?.size, `load ${id}`).toBe(expected.get(id)?.locations.length);

      // The puller holds no load's pings, only what its outlook reads of them; the outlooks it
      // stores are those of the whole track, after a delta too.
      clock.advance(30_000);
      expect(await a.pull()).toBe(1);
      const served = await pull(other.proxy.url, { ids });
      const held = new Map(a.cache.held().map((l) => [l.id, l]));
      expect(held.size).toBe(ids.length);
      let outlooks = 0;
      for (const raw of served.loads) {
        const load = LoadView.parse(raw);
        expect(held.get(load.id)?.pings).toEqual([]);
        const whole = loadOutlook(load, outlookOptionsOf(parseEnv({ TILE_URL: 'none' }), 'simulator'));
        expect(load.outlook && { ...load.outlook, asOf: 0 }).toEqual(whole && { ...whole, asOf: 0 });
        if (whole) outlooks++;
      }
      expect(outlooks).toBeGreaterThan(0);
    } finally {
      await stack.close();
    }
  }, 60_000);
});
