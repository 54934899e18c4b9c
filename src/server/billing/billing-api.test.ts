import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OverdueAnswer, PaperworkAnswer, ReadyAnswer } from '@/contract/billing-api';
import { ProxyErrorBody } from '@/contract/proxy-api';
import { LoadView, ProxyPullAnswer } from '@/contract/load-view';
import { type ReviewRequest } from '@/contract/review-api';
import type { Load } from '@/domain/model';
import { tripStarts } from '@/domain/geofence';
import { deliveredAt, deliveredTrips, podsOf } from '@/domain/paperwork';
import { podQuirk } from '@/simulator/track';
import { loginAs } from '@/testing/login';
import { manualClock, startStack, type Stack } from '@/testing/stack';
import { openMigratedTestStore, STORE_KINDS } from '@/testing/test-store';
import type { Store } from '../store/store';

const errorOf = async (response: Response) => ProxyErrorBody.parse(await response.json()).error;

/**
 * Issue 37 parts 3 and 4 over real HTTP: the simulator's fleet (seed 7) at a clock the test holds,
 * watched by a broker so the proxy holds its loads, PODs reviewed through the reviews route.
 */
describe.each(STORE_KINDS)('/api/billing, on %s', (kind) => {
  const clock = manualClock();
  let store: Store;
  let close: () => Promise<void>;
  let stack: Stack;
  let ana: { name: string; cookie: string };
  let ops: { name: string; cookie: string };
  let loads: Load[];
  let delivered: Load[];
  /** The loads whose POD the ready test approved, as they were then. */
  let billed: Load[] = [];

  const send = (method: 'GET' | 'PUT' | 'POST', path: string, cookie: string, body?: unknown) =>
    fetch(`${stack.proxy.url}${path}`, {
      method,
      headers: {
        Cookie: cookie,
        'X-Requested-With': 'haulview',
        'Content-Type': 'application/json',
        Origin: stack.proxy.url,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const get = async (path: string, cookie = ana.cookie) => {
    const response = await send('GET', path, cookie);
    expect(response.status, await response.clone().text()).toBe(200);
    return response;
  };
  const decide = async (body: ReviewRequest) =>
    expect((await send('PUT', '/api/documents/reviews', ana.cookie, body)).status).toBe(200);

  beforeAll(async () => {
    ({ store, close } = await openMigratedTestStore(kind));
    // 300 loads: a few of them delivered at the clock's start, with a POD, without, and one far away.
    stack = await startStack({ store, loads: 300, now: clock.now });
    ana = await loginAs(stack, store.db, 'broker', 'Ana');
    ops = await loginAs(stack, store.db, 'dispatcher', 'Ops');
    const ids = stack.sim.fleet.map((p) => String(p.externalId));
    const pulled = await send('POST', '/api/pull/by-external-id', ana.cookie, {
      ids,
      include: { extras: true },
    });
    expect(pulled.status).toBe(200);
    loads = ProxyPullAnswer.parse(await pulled.json()).loads.map((l) => LoadView.parse(l));
    delivered = loads.filter((l) => deliveredAt(l) !== undefined);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await close?.();
  });

  const quirkOf = (load: Load) =>
    podQuirk(
      stack.sim.fleet.find((p) => String(p.externalId) === load.id)!,
      7,
    );

  it('counts each held load’s paperwork and flags the POD taken far from its delivery stop', async () => {
    const answer = PaperworkAnswer.parse(await (await get('/api/billing/paperwork')).json());
    expect(answer.held).toBe(loads.length);
    // Each load's current trip, and the earlier deliveries of the trucks the simulator dispatched again.
    const earlier = loads.flatMap((l) => deliveredTrips(l).filter((t) => !t.current));
    expect(earlier.length, 'the fleet has loads on their second trip').toBeGreaterThan(0);
    expect(Object.values(answer.counts).reduce((a, b) => a + b, 0)).toBe(loads.length + earlier.length);
    expect(answer.counts.complete).toBe(0);
    // Loads without papers are counted, not listed.
    expect(answer.loads.length).toBeLessThan(loads.length);
    expect(answer.loads.every((l) => l.checks.length > 0)).toBe(true);
    const far = delivered.find((l) => quirkOf(l) === 'far');
    expect(far, 'the fleet has a delivered load whose POD was taken far away').toBeDefined();
    const row = answer.loads.find((l) => l.id === far!.id)!;
    expect(row.state).toBe('to-review');
    const podCheck = row.checks.find((c) => c.kind === 'POD')!;
    expect(podCheck.flags).toContainEqual({
      kind: 'far-from-stop',
      text: 'taken 38 km from the delivery stop',
    });
    // The worst flags first: a far POD is at the top of the list.
    expect(answer.loads[0]?.checks.some((c) => c.flags.some((f) => f.kind === 'far-from-stop'))).toBe(true);
  });

  it('ready to bill: exactly the delivered loads with an approved POD, as JSON and as CSV', async () => {
    const withPod = delivered.filter((l) => podsOf(l).length > 0);
    expect(withPod.length).toBeGreaterThanOrEqual(3);
    const [approved1, approved2, rejected] = withPod as [Load, Load, Load];
    billed = [approved1, approved2];
    for (const load of [approved1, approved2])
      await decide({ load: `e:${load.id}`, url: podsOf(load)[0]!.url, decision: 'approved' });
    await decide({
      load: `e:${rejected.id}`,
      url: podsOf(rejected)[0]!.url,
      decision: 'rejected',
      reason: 'unsigned',
    });
    // An approved POD of a load still on the road is not billed.
    const rolling = loads.find((l) => deliveredAt(l) === undefined && podsOf(l).length > 0);
    if (rolling)
      await decide({ load: `e:${rolling.id}`, url: podsOf(rolling)[0]!.url, decision: 'approved' });

    const ready = ReadyAnswer.parse(await (await get('/api/billing/ready')).json());
    expect(ready.loads.map((l) => l.id).sort()).toEqual([approved1.id, approved2.id].sort());
    const line = ready.loads.find((l) => l.id === approved1.id)!;
    expect(line).toMatchObject({
      ref: `e:${approved1.id}`,
      externalId: approved1.id,
      deliveredAt: new Date(deliveredAt(approved1)!).toISOString(),
      podUrl: podsOf(approved1)[0]!.url,
      reviewedBy: 'Ana',
      deliveryStop: { order: 2 },
    });
    expect(line.deliveredAtStop).toMatch(/^\d\d\/\d\d\/\d{4} \d\d:\d\d$/);
    expect(line.stopZone).toMatch(/^GMT[-+]\d/);

    const csv = await get('/api/billing/ready?format=csv');
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="ready-to-bill.csv"');
    const lines = (await csv.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'load_external_id,load_number,delivery_stop,facility,city,state,delivered_at_stop,stop_zone,delivered_at_utc,pod_url,reviewed_by,reviewed_at,earlier_trip',
    );
    expect(
      lines
        .slice(1)
        .map((l) => l.split(',')[0])
        .sort(),
    ).toEqual([approved1.id, approved2.id].sort());
    const paperwork = PaperworkAnswer.parse(await (await get('/api/billing/paperwork')).json());
    expect(paperwork.loads.find((l) => l.id === rejected.id)?.state).toBe('rejected');
    expect(paperwork.loads.find((l) => l.id === approved1.id)?.state).toBe('complete');
  });

  it('filters by the day of delivery, both ends included', async () => {
    const day = new Date(clock.now()).toISOString().slice(0, 10);
    const next = new Date(clock.now() + 86_400_000).toISOString().slice(0, 10);
    const all = ReadyAnswer.parse(await (await get('/api/billing/ready')).json()).loads;
    const today = ReadyAnswer.parse(
      await (await get(`/api/billing/ready?from=${day}&to=${day}`)).json(),
    ).loads;
    expect(today.map((l) => l.id)).toEqual(all.filter((l) => l.deliveredAt.startsWith(day)).map((l) => l.id));
    expect(ReadyAnswer.parse(await (await get(`/api/billing/ready?from=${next}`)).json()).loads).toEqual([]);
    const csv = await get(`/api/billing/ready?format=csv&from=${next}`);
    expect(await csv.text()).toBe(
      'load_external_id,load_number,delivery_stop,facility,city,state,delivered_at_stop,stop_zone,delivered_at_utc,pod_url,reviewed_by,reviewed_at,earlier_trip\r\n',
    );
  });

  it('with flagged=1, lists only the papers flagged or not decided yet, and counts every load', async () => {
    const paperwork = async (query: string) =>
      PaperworkAnswer.parse(await (await get(`/api/billing/paperwork${query}`)).json());
    const before = await paperwork('');
    // A load whose papers are clean, its POD decided (the test before may have approved it already).
    const clean = before.loads.find(
      (l) => l.checks.some((c) => c.kind === 'POD') && l.checks.every((c) => c.flags.length === 0),
    );
    expect(clean, 'the fleet has a delivered load whose papers are not flagged').toBeDefined();
    const pod = clean!.checks.find((c) => c.kind === 'POD')!;
    await decide({ load: clean!.ref, url: pod.url, decision: 'approved' });
    const far = before.loads.find((l) =>
      l.checks.some((c) => c.flags.some((f) => f.kind === 'far-from-stop')),
    )!;
    const farPod = far.checks.find((c) => c.flags.length > 0)!;
    await decide({ load: far.ref, url: farPod.url, decision: 'rejected', reason: 'wrong_load' });

    const all = await paperwork('?flagged=0');
    const flagged = await paperwork('?flagged=1');
    const shown = flagged.loads.flatMap((l) => l.checks.map((c) => c.url));
    expect(all.loads.find((l) => l.ref === clean!.ref)?.state).toBe('complete');
    // The approved clean POD is left out; the rejected one stays, as it is flagged.
    expect(shown).not.toContain(pod.url);
    expect(shown).toContain(farPod.url);
    const reviews = (await (await get('/api/documents/reviews')).json()) as {
      reviews: { url: string; decision: string }[];
    };
    const decided = new Set(reviews.reviews.filter((r) => r.decision !== 'pending').map((r) => r.url));
    expect(flagged.loads).toEqual(
      all.loads
        .map((l) => ({ ...l, checks: l.checks.filter((c) => c.flags.length > 0 || !decided.has(c.url)) }))
        .filter((l) => l.checks.length > 0),
    );
    expect(flagged.counts).toEqual(all.counts);
    expect(flagged.held).toBe(all.held);
  });

  it('refuses a bad flagged value naming it, and unknown parameters of the paperwork', async () => {
    for (const query of ['flagged=yes', 'flagged=2', 'flagged=', 'flagged=1&flagged=0']) {
      const response = await send('GET', `/api/billing/paperwork?${query}`, ana.cookie);
      expect(response.status, query).toBe(400);
      const error = await errorOf(response);
      expect(error.code, query).toBe('invalid_request');
      expect(error.message, query).toMatch(/^flagged: /);
    }
    expect((await send('GET', '/api/billing/paperwork?since=1', ana.cookie)).status).toBe(400);
  });

  it('refuses bad dates naming the field, and unknown parameters', async () => {
    for (const [query, field] of [
      ['from=2026-02-30', 'from'],
      ['to=yesterday', 'to'],
      ['from=2026-11-24&to=2026-11-23', 'to'],
      ['format=xlsx', 'format'],
    ] as const) {
      const response = await send('GET', `/api/billing/ready?${query}`, ana.cookie);
      expect(response.status, query).toBe(400);
      const error = await errorOf(response);
      expect(error.code).toBe('invalid_request');
      expect(error.message, query).toMatch(new RegExp(`^${field}: `));
    }
    expect((await send('GET', '/api/billing/ready?since=1', ana.cookie)).status).toBe(400);
  });

  it('lists delivered loads with no POD once the due hours have passed', async () => {
    const missing = delivered.filter((l) => podsOf(l).length === 0);
    expect(missing.length, 'the fleet has delivered loads without POD').toBeGreaterThan(0);
    const before = OverdueAnswer.parse(await (await get('/api/billing/overdue')).json());
    expect(before).toMatchObject({ dueHours: 24, loads: [] });
    // 30 real minutes are 30 hours on the demo's clock: every one of them is overdue now.
    clock.advance(30 * 60_000);
    const after = OverdueAnswer.parse(await (await get('/api/billing/overdue')).json());
    expect(after.loads.map((l) => l.id).sort()).toEqual(missing.map((l) => l.id).sort());
    expect(after.loads.every((l) => l.hoursSince >= 30)).toBe(true);
    expect(after.loads[0]?.deliveryStop?.order).toBe(2);
  });

  it('keeps each delivery to bill once its load is dispatched again under the same ids', async () => {
    // After the test above, 30 hours on the demo's clock: its trucks took their next trips since.
    const pulled = await send('POST', '/api/pull/by-external-id', ana.cookie, {
      ids: billed.map((l) => l.id),
      include: { extras: true },
    });
    const now = ProxyPullAnswer.parse(await pulled.json()).loads.map((l) => LoadView.parse(l));
    expect(now.some((l) => tripStarts(l.events).length > tripStarts(billed[0]!.events).length)).toBe(true);
    const ready = ReadyAnswer.parse(await (await get('/api/billing/ready')).json()).loads;
    // Their stops were kept while that trip was current: each line names its own delivery stop.
    const stopOf = (load: Load) => load.outlook!.stops.findLast((s) => s.type === 'delivery')!;
    for (const load of billed)
      expect(ready).toContainEqual(
        expect.objectContaining({
          id: load.id,
          deliveredAt: new Date(deliveredAt(load)!).toISOString(),
          podUrl: podsOf(load)[0]!.url,
          earlierTrip: true,
          deliveryStop: {
            order: 2,
            name: stopOf(load).name,
            city: stopOf(load).place?.city,
            state: stopOf(load).place?.state,
          },
          deliveredAtStop: expect.stringMatching(/^\d\d\/\d\d\/\d{4} \d\d:\d\d$/),
          stopZone: expect.stringMatching(/^GMT[-+]\d/),
        }),
      );
    // The CSV says so in its last column, as the page does, with the stop's columns filled.
    const csv = (await (await get('/api/billing/ready?format=csv')).text()).split('\r\n');
    for (const load of billed) {
      const line = csv.find((l) => l.includes(podsOf(load)[0]!.url));
      expect(line?.endsWith(',yes')).toBe(true);
      expect(line?.split(',')[2]).toBe('2');
    }
    // Their papers are checked against that trip's stops, not set aside as an earlier trip's.
    const paperwork = PaperworkAnswer.parse(await (await get('/api/billing/paperwork')).json());
    for (const load of billed) {
      const check = paperwork.loads
        .find((l) => l.id === load.id)
        ?.checks.find((c) => c.url === podsOf(load)[0]!.url);
      expect(check?.stopOrder).toBe(2);
      expect(check?.flags.map((f) => f.kind)).not.toContain('earlier-trip');
    }
    // A trip delivered before the proxy first pulled the load: its stops were never seen.
    const before = loads.flatMap((l) =>
      deliveredTrips(l)
        .filter((t) => !t.current)
        .flatMap((t) => t.pods.map((p) => p.url)),
    );
    expect(before.length, 'the fleet has PODs of trips delivered before the first pull').toBeGreaterThan(0);
    const unseen = paperwork.loads.flatMap((l) => l.checks).filter((c) => before.includes(c.url));
    expect(unseen.length).toBe(before.length);
    for (const check of unseen) expect(check.flags.map((f) => f.kind)).toEqual(['earlier-trip']);
  });

  it('keeps the earlier trips’ stops across a restart', async () => {
    // Sessions are in the store: Ana's cookie holds across the restart.
    await stack.restartProxy();
    // The new process holds only what a browser asks for again: the loads' current (next) trips.
    const pulled = await send('POST', '/api/pull/by-external-id', ana.cookie, {
      ids: billed.map((l) => l.id),
      include: { extras: true },
    });
    expect(pulled.status).toBe(200);
    const ready = ReadyAnswer.parse(await (await get('/api/billing/ready')).json()).loads;
    for (const load of billed)
      expect(ready.find((l) => l.podUrl === podsOf(load)[0]!.url)).toMatchObject({
        earlierTrip: true,
        deliveryStop: { order: 2 },
      });
  });

  it('is for brokers and admins: a dispatcher is refused', async () => {
    for (const path of [
      '/api/billing/ready',
      '/api/billing/ready?format=csv',
      '/api/billing/overdue',
      '/api/billing/paperwork',
    ]) {
      const response = await send('GET', path, ops.cookie);
      expect(response.status, path).toBe(403);
      expect((await errorOf(response)).code).toBe('forbidden_role');
    }
    expect((await send('GET', '/api/billing/ready', '')).status).toBe(401);
  });
});
