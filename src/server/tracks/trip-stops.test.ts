import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReadyAnswer } from '@/contract/billing-api';
import { LoadView, ProxyPullAnswer } from '@/contract/load-view';
import type { Load } from '@/domain/model';
import { tripStarts } from '@/domain/geofence';
import { deliveredAt, podsOf } from '@/domain/paperwork';
import { tripStopsOf, type TripStops } from '@/domain/trip-stops';
import { TripStopsAnswer } from '@/contract/trip-stops';
import { loginAs } from '@/testing/login';
import { manualClock, startStack } from '@/testing/stack';
import { openMigratedTestStore, STORE_KINDS } from '@/testing/test-store';
import type { Puller } from '../puller/puller';
import type { Store } from '../store/store';
import { keepTripStops, keptStopsOf, keptTripsOf } from './trip-stops';

const trip = (from: number, city: string): TripStops => ({
  from,
  stops: [
    { order: 1, type: 'pickup', place: { city: 'Omaha' }, progress: 'departed', status: 'on-time' },
    {
      order: 2,
      type: 'delivery',
      place: { city },
      progress: 'arrived',
      arrivedAt: 5,
      status: 'late',
      lateMinutes: 20,
    },
  ],
  radiusMeters: 300,
});

describe.each(STORE_KINDS)('trips’ kept stops, on %s', (kind) => {
  let store: Store;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await openMigratedTestStore(kind));
  }, 60_000);
  afterAll(async () => close?.());

  it('keeps each trip’s stops by load and start, writing only what changed', async () => {
    const at = Date.parse('2026-11-22T15:00:00Z');
    expect(await keepTripStops(store.db, 'external-id', 'k1', trip(-Infinity, 'Denver'), at)).toBe(true);
    expect(await keepTripStops(store.db, 'external-id', 'k1', trip(1_000, 'Boise'), at)).toBe(true);
    expect(await keepTripStops(store.db, 'load-number', 'k1', trip(1_000, 'Reno'), at)).toBe(true);
    // The same stops again: no write, and the time they were last seen changing stays.
    expect(await keepTripStops(store.db, 'external-id', 'k1', trip(1_000, 'Boise'), at + 60_000)).toBe(false);
    const seen = await store.db
      .selectFrom('trip_stops')
      .select(['trip_from', 'seen_at'])
      .where('load_id', '=', 'k1')
      .where('load_by', '=', 'external-id')
      .orderBy('trip_from')
      .execute();
    expect(seen.map((r) => r.seen_at.getTime())).toEqual([at, at]);
    // Changed: the last seen is kept.
    expect(
      await keepTripStops(store.db, 'external-id', 'k1', trip(1_000, 'Salt Lake City'), at + 60_000),
    ).toBe(true);
    const kept = await keptStopsOf(store.db, [
      { by: 'external-id', id: 'k1' },
      { by: 'external-id', id: 'none' },
    ]);
    expect(kept).toEqual([
      { by: 'external-id', id: 'k1', ...trip(-Infinity, 'Denver') },
      { by: 'external-id', id: 'k1', ...trip(1_000, 'Salt Lake City') },
    ]);
    // Only the trips asked for, by load and start.
    const some = await keptTripsOf(store.db, [
      { by: 'external-id', id: 'k1', from: -Infinity },
      { by: 'load-number', id: 'k1', from: 1_000 },
      { by: 'load-number', id: 'k1', from: 2_000 },
    ]);
    expect(some.sort((a, b) => a.by.localeCompare(b.by))).toEqual([
      { by: 'external-id', id: 'k1', ...trip(-Infinity, 'Denver') },
      { by: 'load-number', id: 'k1', ...trip(1_000, 'Reno') },
    ]);
  });

  it('a delivered trip’s stops are not replaced by the next trip’s sent before its planning status', async () => {
    const at = Date.parse('2026-11-22T15:00:00Z');
    const upcoming = (from: number, city: string): TripStops => ({
      from,
      stops: trip(from, city).stops.map(({ order, type, place }) => ({
        order,
        type,
        place,
        progress: 'upcoming',
        status: 'unknown',
      })),
    });
    const kept = () => keptStopsOf(store.db, [{ by: 'external-id', id: 'k2' }]);
    // Planned, then reached: each replaces the last.
    expect(await keepTripStops(store.db, 'external-id', 'k2', upcoming(1_000, 'Boise'), at)).toBe(true);
    expect(await keepTripStops(store.db, 'external-id', 'k2', trip(1_000, 'Boise'), at)).toBe(true);
    // The next trip's stops, before its planning status: the delivered trip's stay.
    expect(await keepTripStops(store.db, 'external-id', 'k2', upcoming(1_000, 'Tulsa'), at)).toBe(false);
    expect(await kept()).toEqual([{ by: 'external-id', id: 'k2', ...trip(1_000, 'Boise') }]);
    // A stop reached later in the trip still replaces them; the next trip is kept under its own start.
    const departed = trip(1_000, 'Boise');
    departed.stops[1] = { ...departed.stops[1]!, progress: 'departed', departedAt: 9 };
    expect(await keepTripStops(store.db, 'external-id', 'k2', departed, at)).toBe(true);
    expect(await keepTripStops(store.db, 'external-id', 'k2', upcoming(2_000, 'Tulsa'), at)).toBe(true);
    expect(await kept()).toEqual([
      { by: 'external-id', id: 'k2', ...departed },
      { by: 'external-id', id: 'k2', ...upcoming(2_000, 'Tulsa') },
    ]);
  });

  it('TRACKS=store: the puller keeps each trip’s stops once, and billing reads them after the next dispatch', async () => {
    const clock = manualClock();
    const stack = await startStack({
      store,
      loads: 300,
      now: clock.now,
      env: { TRACKS: 'store', REFRESH_SECONDS: '2', LEASE_SECONDS: '600' },
    });
    try {
      const puller = stack.puller as Puller;
      expect(await puller.renew()).toBe('leader');
      const { cookie } = await loginAs(stack, store.db, 'broker');
      const ids = stack.sim.fleet.map((p) => String(p.externalId));
      const pullAll = async (wanted: string[]) => {
        const response = await stack.post(
          '/api/pull/by-external-id',
          { ids: wanted, include: { extras: true } },
          { Cookie: cookie, Origin: stack.proxy.url },
        );
        expect(response.status).toBe(200);
        return ProxyPullAnswer.parse(await response.json()).loads.map((l) => LoadView.parse(l));
      };
      await pullAll(ids);
      await puller.pull();
      const loads = await pullAll(ids);
      const load = loads.find((l) => deliveredAt(l) !== undefined && podsOf(l).length > 0) as Load;
      expect(load, 'the fleet has a delivered load with a POD').toBeDefined();
      const pod = podsOf(load)[0]!.url;
      const decided = await fetch(`${stack.proxy.url}/api/documents/reviews`, {
        method: 'PUT',
        headers: {
          Cookie: cookie,
          'X-Requested-With': 'haulview',
          'Content-Type': 'application/json',
          Origin: stack.proxy.url,
        },
        body: JSON.stringify({ load: `e:${load.id}`, url: pod, decision: 'approved' }),
      });
      expect(decided.status).toBe(200);
      const rows = () =>
        store.db
          .selectFrom('trip_stops')
          .select(['trip_from', 'seen_at'])
          .where('load_id', '=', load.id)
          .orderBy('trip_from')
          .execute();
      const first = await rows();
      expect(first).toHaveLength(1);

      // Refreshes (REFRESH_SECONDS apart) with nothing new of its stops write nothing.
      let calls = 0;
      for (let i = 0; i < 3; i++) {
        clock.advance(2_000);
        // The lease runs on the database's clock: renewed as the running puller does, on a slow machine too.
        await puller.renew();
        calls += await puller.pull();
      }
      expect(calls).toBeGreaterThan(0);
      expect(await rows()).toEqual(first);

      // 30 hours on the demo's clock: the truck is dispatched again under the same ids. Another
      // instance took the lease while this one was paused: what it merges now, the new trip's stops
      // among it, is not written under its term that is over.
      await store.db.updateTable('puller_leases').set({ holder: 'another instance' }).execute();
      clock.advance(30 * 60_000);
      await puller.pull();
      expect(await rows()).toHaveLength(1);
      expect(puller.role()).toBe('standby');
      // That term ended: this instance's new one keeps the trip's stops.
      await store.db
        .updateTable('puller_leases')
        .set({ expires_at: new Date(0) })
        .execute();
      expect(await puller.renew()).toBe('leader');
      await puller.pull();
      const [now] = await pullAll([load.id]);
      expect(tripStarts(now!.events).length).toBeGreaterThan(tripStarts(load.events).length);
      expect(await rows()).toHaveLength(2);
      // What the replay reads: every kept trip, parsed as strictly as the browser does.
      const stopsAnswer = await fetch(`${stack.proxy.url}/api/trips/stops?load=e:${load.id}`, {
        headers: { Cookie: cookie },
      });
      expect(stopsAnswer.status).toBe(200);
      const { trips } = TripStopsAnswer.parse(await stopsAnswer.json());
      // The trip seen at first and the one under way now (a trip between them was never seen current).
      expect(trips.map((t) => t.from)).toEqual([
        tripStarts(load.events).at(-1),
        tripStarts(now!.events).at(-1),
      ]);
      expect(trips[0]?.stops).toEqual(tripStopsOf(load)?.stops);
      const bad = await fetch(`${stack.proxy.url}/api/trips/stops?load=x`, { headers: { Cookie: cookie } });
      expect(bad.status).toBe(400);
      expect((await fetch(`${stack.proxy.url}/api/trips/stops?load=e:${load.id}`)).status).toBe(401);
      const response = await fetch(`${stack.proxy.url}/api/billing/ready`, { headers: { Cookie: cookie } });
      const ready = ReadyAnswer.parse(await response.json()).loads;
      const stop = load.outlook!.stops.findLast((s) => s.type === 'delivery')!;
      expect(ready.find((l) => l.podUrl === pod)).toMatchObject({
        earlierTrip: true,
        deliveryStop: { order: stop.order, city: stop.place?.city },
      });
    } finally {
      await stack.close();
    }
  }, 120_000);
});
