import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARE_NOT_VALID, ShareView, CreateShareRequest } from '@/contract/share-api';
import { json, startFakeUpstream } from '@/testing/fake-upstream';
import { manualClock, startStack, type Stack } from '@/testing/stack';
import { openMigratedTestStore, STORE_KINDS } from '@/testing/test-store';
import { wireEvent } from '@/testing/wire-fixtures';
import type { Store } from '../store/store';
import { startKeepPulled } from '../watch/keep-pulled';
import { testEvent } from '@/testing/loads';
import { afterDeliveryEnd, createShare, liveShareLoads, liveShares } from './shares';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** When the delivered load left its delivery stop: 08:00 CST on the test clock's first day. */
const LEFT_DELIVERY = Date.parse('2026-11-22T14:00:00Z');

/** A POD taken at Denver during the first trip, and one of the next trip under the same id. */
const POD_FIRST = 'https://docs.example.com/first-pod.pdf';
const POD_NEXT = 'https://docs.example.com/next-pod.pdf';
const pod = (url: string, local: string) => ({
  type: 'POD',
  timestamp: local,
  url,
  location: {},
  stopOrderNumber: 2,
});
const locatedAt = (lat: string, lon: string, utc: string, city: string, state: string) => ({
  lat,
  lon,
  accuracy: 20,
  timestampUTC: utc,
  city,
  state,
  country: 'US',
});

/** A trip from Omaha to Denver whose delivery stop was left at `LEFT_DELIVERY`. */
const deliveredTrip = (id: number) => ({
  loadTrackExternalId: id,
  latestLocation: locatedAt('39.74', '-104.99', '11/22/2026 14:00:00 UTC', 'Denver', 'CO'),
  documents: [pod(POD_FIRST, '11/22/2026 07:30 CST')],
  stops: [
    { orderNumber: 1, stopType: 'PICKUP', city: 'Omaha', state: 'NE', lat: 41.25, lon: -95.93 },
    {
      orderNumber: 2,
      stopType: 'DELIVERY',
      city: 'Denver',
      state: 'CO',
      lat: 39.74,
      lon: -104.99,
      datetime: '11/22/2026 05:30',
      stopGMTDiff: '-7',
    },
  ],
  events: [
    wireEvent(1, 'Departed pickup', null, '11/21/2026 20:00:00 CST'),
    wireEvent(2, 'Arrived at delivery', null, '11/22/2026 06:00:00 CST'),
    wireEvent(3, 'Departed delivery', null, '11/22/2026 08:00:00 CST'),
  ],
});

/** Loads 1001 and 1003 delivered (a test dispatches 1003 again); load 1002 is still on the road. */
const DETAILS: Record<string, unknown> = {
  1001: deliveredTrip(1001),
  1003: deliveredTrip(1003),
  1002: {
    loadTrackExternalId: 1002,
    stops: [
      { orderNumber: 1, stopType: 'PICKUP', city: 'Omaha', state: 'NE', lat: 41.25, lon: -95.93 },
      { orderNumber: 2, stopType: 'DELIVERY', city: 'Denver', state: 'CO', lat: 39.74, lon: -104.99 },
    ],
    events: [wireEvent(1, 'Departed pickup', null, '11/22/2026 07:00:00 CST')],
  },
};

describe.each(STORE_KINDS)('a share link that ends N days after delivery, on %s', (kind) => {
  let store: Store;
  let close: () => Promise<void>;
  let stack: Stack;
  let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
  const clock = manualClock();

  beforeAll(async () => {
    ({ store, close } = await openMigratedTestStore(kind));
    upstream = await startFakeUpstream((req, res) => {
      const ids = (JSON.parse(req.body) as { loadTrackExternalIds?: number[] }).loadTrackExternalIds ?? [];
      json(res, 200, { status: true, details: ids.flatMap((id) => DETAILS[id] ?? []) });
    });
    stack = await startStack({ store, now: clock.now, upstream: { baseUrl: upstream.url } });
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await upstream?.close();
    await close?.();
  });

  const share = async (loads: string[], days: number) =>
    (
      await createShare(
        store.db,
        CreateShareRequest.parse({
          loads,
          expiry: { kind: 'after-delivery', days },
          shows: { map: true, status: true, stops: true, pod: true },
        }),
        'Bo',
        clock.now(),
      )
    ).token;
  const open = (token: string) => fetch(`${stack.proxy.url}/api/share/${token}?poll=1`);
  /** The link's view once its loads are in (a load new to the proxy comes back pending at first). */
  const viewOf = async (token: string) => {
    for (let tries = 0; ; tries++) {
      const view = ShareView.parse(await (await open(token)).json());
      if (view.loads.every((l) => l.found) || tries === 100) return view;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('works until a day after the delivery stop was left, then gets the "not valid" page', async () => {
    clock.set(Date.parse('2026-11-22T15:00:00Z'));
    const token = await share(['e:1001'], 1);
    const before = await open(token);
    expect(before.status).toBe(200);
    const view = ShareView.parse(await before.json());
    expect(view.loads[0]?.stops?.at(-1)).toMatchObject({
      type: 'delivery',
      departedAt: LEFT_DELIVERY,
      // 05:30 at GMT-7: the page writes it in the customer's zone, as every other time.
      appointment: '11/22/2026 05:30',
      appointmentAt: Date.parse('2026-11-22T12:30:00Z'),
    });

    clock.set(LEFT_DELIVERY + DAY - MINUTE);
    expect((await open(token)).status).toBe(200);

    clock.set(LEFT_DELIVERY + DAY + MINUTE);
    const after = await open(token);
    expect(after.status).toBe(404);
    expect(await after.json()).toEqual(SHARE_NOT_VALID);
    // Ended for good: its loads are no longer watched.
    expect(await liveShareLoads(store.db, clock.now())).not.toContain('e:1001');
  });

  it('keeps working while one of its loads is not delivered yet', async () => {
    clock.set(Date.parse('2026-11-22T15:00:00Z'));
    const token = await share(['e:1001', 'e:1002'], 1);
    clock.set(LEFT_DELIVERY + 3 * DAY);
    expect((await open(token)).status).toBe(200);
  });

  it('is ended by the job that keeps its loads pulled, though nobody opens it', async () => {
    clock.set(Date.parse('2026-11-22T15:00:00Z'));
    const { link } = await createShare(
      store.db,
      CreateShareRequest.parse({ loads: ['e:1001'], expiry: { kind: 'after-delivery', days: 2 } }),
      'Bo',
      clock.now(),
    );
    const live = async () => (await liveShares(store.db, clock.now())).map((s) => s.id);
    const job = startKeepPulled({
      db: store.db,
      cache: stack.cache,
      maxLoads: 100,
      everyMs: HOUR,
      now: clock.now,
      log: () => undefined,
    });
    try {
      // Its load is delivered: the first round learns when the link ends, the next has nothing to add.
      expect(await job.running()).toMatchObject({ dated: 1 });
      clock.set(LEFT_DELIVERY + 2 * DAY - MINUTE);
      expect(await job.pass()).toMatchObject({ dated: 0 });
      expect(await live()).toContain(link.id);
      clock.set(LEFT_DELIVERY + 2 * DAY + MINUTE);
      await job.pass();
      expect(await live()).not.toContain(link.id);
    } finally {
      job.stop();
      await job.running();
    }
  });

  it('shows only the trip it was made for, its stops kept, and a next trip under the same id neither shows nor moves it', async () => {
    // Later than the tests above: the proxy's cache keeps what it pulled at their instants.
    clock.set(LEFT_DELIVERY + 3 * DAY);
    const token = await share(['e:1003'], 5);
    const delivered = await viewOf(token);
    expect(delivered.loads[0]).toMatchObject({
      found: true,
      place: { city: 'Denver' },
      pod: [{ url: POD_FIRST }],
    });
    expect(delivered.loads[0]?.ended).toBeUndefined();
    expect(delivered.expiresAt).toBe(new Date(LEFT_DELIVERY + 5 * DAY).toISOString());

    // The service dispatches the truck again under the same id, for another customer.
    const firstTrip = DETAILS[1003];
    DETAILS[1003] = {
      loadTrackExternalId: 1003,
      latestLocation: locatedAt('41.10', '-108.00', '11/26/2026 13:00:00 UTC', 'Rawlins', 'WY'),
      stops: [
        { orderNumber: 1, stopType: 'PICKUP', city: 'Denver', state: 'CO', lat: 39.74, lon: -104.99 },
        { orderNumber: 2, stopType: 'DELIVERY', city: 'Boise', state: 'ID', lat: 43.62, lon: -116.2 },
      ],
      events: [wireEvent(4, 'Load track created', null, '11/25/2026 12:00:00 CST')],
      documents: [pod(POD_NEXT, '11/26/2026 06:00 CST')],
    };
    try {
      clock.set(LEFT_DELIVERY + 4 * DAY);
      const next = await viewOf(token);
      // The link's trip as it ended: its last status and its POD, none of the next trip's places.
      expect(next.loads[0]).toMatchObject({
        found: true,
        ended: true,
        status: { name: 'Departed delivery', at: LEFT_DELIVERY },
        pod: [{ url: POD_FIRST }],
      });
      expect(next.loads[0]?.position).toBeUndefined();
      expect(next.loads[0]?.place).toBeUndefined();
      // Its stops as they were kept while it was current: the service now sends the next trip's.
      expect(next.loads[0]?.stops?.map((s) => [s.type, s.place?.city, s.progress])).toEqual([
        ['pickup', 'Omaha', 'departed'],
        ['delivery', 'Denver', 'departed'],
      ]);
      expect(next.loads[0]?.stops?.at(-1)).toMatchObject({
        departedAt: LEFT_DELIVERY,
        appointment: '11/22/2026 05:30',
        appointmentAt: Date.parse('2026-11-22T12:30:00Z'),
      });
      expect(next.loads[0]?.stops?.some((s) => s.eta !== undefined)).toBe(false);
      expect(next.expiresAt).toBe(new Date(LEFT_DELIVERY + 5 * DAY).toISOString());

      // A link made during the next trip is of that trip alone.
      const later = (await viewOf(await share(['e:1003'], 5))).loads[0];
      expect(later).toMatchObject({ place: { city: 'Rawlins' }, status: { name: 'Load track created' } });
      expect(later?.stops?.at(-1)).toMatchObject({ type: 'delivery', place: { city: 'Boise' } });
      expect(later?.pod?.map((p) => p.url)).toEqual([POD_NEXT]);
      expect(later?.ended).toBeUndefined();

      clock.set(LEFT_DELIVERY + 5 * DAY + MINUTE);
      expect((await open(token)).status).toBe(404);
    } finally {
      // The next store's run starts from the first trip again.
      DETAILS[1003] = firstTrip;
    }
  });
});

describe('when an after-delivery link ends, for a load dispatched again before anyone looked', () => {
  const made = LEFT_DELIVERY - 10 * HOUR;
  const load = (events: ReturnType<typeof testEvent>[]) => ({ by: 'external-id' as const, id: '9', events });
  const firstTrip = [
    testEvent(made - HOUR, 'Dispatched', 'DSP'),
    testEvent(LEFT_DELIVERY, 'Delivered', 'DLV'),
  ];

  it('counts from the link trip’s last status, not from the next trip’s stops', () => {
    const next = [...firstTrip, testEvent(LEFT_DELIVERY + DAY, 'Dispatched', 'DSP')];
    expect(afterDeliveryEnd(2, [load(next)], 1, made)).toBe(LEFT_DELIVERY + 2 * DAY);
  });

  it('waits while the link’s trip is the load’s current one and its delivery stop was not left', () => {
    expect(afterDeliveryEnd(2, [load(firstTrip)], 1, made)).toBeUndefined();
  });
});
