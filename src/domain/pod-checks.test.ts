import { describe, expect, it } from 'vitest';
import type { Load, Outlook, StopOutlook } from './model';
import { emptyLoad, testDocument, testTime } from '@/testing/loads';
import { checkedStopsOf, distanceText, paperKind, podChecks } from './pod-checks';
import { keptTripStops } from './trip-stops';
import { flagRank, isFaultFlag } from './pod-flags';

// Dallas pickup, Chicago delivery (GMT-6 at both).
const PICKUP = { lat: 32.7767, lon: -96.797 };
const DELIVERY = { lat: 41.8781, lon: -87.6298 };
const ARRIVED = Date.parse('2026-11-24T20:05:00Z');
const DEPARTED = Date.parse('2026-11-24T21:40:00Z');

const rawStops = (delivery: Record<string, unknown> = {}) => [
  {
    stopOrderNumber: 1,
    stopExternalId: 'S-1',
    stopType: 'PICKUP',
    locationName: 'Acme DC',
    lat: String(PICKUP.lat),
    lon: String(PICKUP.lon),
    datetime: '11/23/2026 08:00',
    stopGMTDiff: '-6',
  },
  {
    stopOrderNumber: 2,
    stopExternalId: 'S-2',
    stopType: 'DELIVERY',
    locationName: 'Lakeside Foods',
    city: 'Chicago',
    state: 'IL',
    lat: String(DELIVERY.lat),
    lon: String(DELIVERY.lon),
    datetime: '11/24/2026 14:00',
    stopGMTDiff: '-6',
    ...delivery,
  },
];

const stopOutlook = (order: number, extra: Partial<StopOutlook>): StopOutlook => ({
  order,
  progress: 'departed',
  status: 'on-time',
  ...extra,
});

const outlook = (stops: StopOutlook[], extra: Partial<Outlook> = {}): Outlook => ({
  asOf: DEPARTED,
  stops,
  radiusMeters: 300,
  ...extra,
});

const delivered = (over: Partial<Load> = {}, deliveryStop: Record<string, unknown> = {}): Load =>
  emptyLoad('9001', 'external-id', {
    extras: { stops: rawStops(deliveryStop) },
    outlook: outlook([
      stopOutlook(1, { type: 'pickup', arrivedAt: ARRIVED - 86_400_000, departedAt: ARRIVED - 80_000_000 }),
      stopOutlook(2, { type: 'delivery', arrivedAt: ARRIVED, departedAt: DEPARTED }),
    ]),
    ...over,
  });

/** A POD at `offset` meters north of the delivery stop, uploaded at `at`. */
const pod = (at: number | null, northMeters: number, extra: Parameters<typeof testDocument>[2] = {}) =>
  testDocument(`https://files.example.com/pod-${at}-${northMeters}.jpg`, at, {
    type: 'POD',
    stopOrderNumber: 2,
    position: { lat: DELIVERY.lat + northMeters / 111_195, lon: DELIVERY.lon, accuracy: 20 },
    ...extra,
  });

const only = (load: Load) => {
  const checks = podChecks(load);
  expect(checks).toHaveLength(1);
  return checks[0]!;
};
const kinds = (load: Load) => only(load).flags.map((f) => f.kind);

describe('a POD against its delivery stop', () => {
  it('taken at the stop while the truck was there: no flag', () => {
    const check = only(delivered({ documents: [pod(ARRIVED + 30 * 60_000, 100)] }));
    expect(check.flags).toEqual([]);
    expect(check.stopOrder).toBe(2);
    expect(check.meters).toBeCloseTo(100, -1);
  });

  it('flags one taken far away, in words', () => {
    const check = only(delivered({ documents: [pod(ARRIVED + 30 * 60_000, 38_000)] }));
    expect(check.flags).toEqual([{ kind: 'far-from-stop', text: 'taken 38 km from the delivery stop' }]);
  });

  it('counts both accuracies: the fix’s circle and the stop’s fence', () => {
    // 300 m fence + 20 m accuracy: 310 m out is within, 330 m out is not.
    expect(kinds(delivered({ documents: [pod(ARRIVED + 60_000, 310)] }))).toEqual([]);
    expect(kinds(delivered({ documents: [pod(ARRIVED + 60_000, 330)] }))).toEqual(['far-from-stop']);
    // A fix known only to 2 km that lands 1.5 km out may well be at the dock.
    const unsure = pod(ARRIVED + 60_000, 1500);
    unsure.position = { ...unsure.position!, accuracy: 2000 };
    expect(kinds(delivered({ documents: [unsure] }))).toEqual([]);
    // A larger fence, as STOP_RADIUS_METERS sets it, widens the stop.
    const wide = delivered({ documents: [pod(ARRIVED + 60_000, 900)] });
    expect(kinds(wide)).toEqual(['far-from-stop']);
    expect(kinds({ ...wide, outlook: { ...wide.outlook!, radiusMeters: 1000 } })).toEqual([]);
  });

  it('flags an upload before arrival, and says the arrival on the stop’s clock', () => {
    // The first fix inside the fence comes minutes after the truck rolled in, and a time written to
    // the minute is a minute unsure: 16 minutes is no flag, 17 is.
    expect(kinds(delivered({ documents: [pod(ARRIVED - 16 * 60_000, 0)] }))).toEqual([]);
    expect(kinds(delivered({ documents: [pod(ARRIVED - 17 * 60_000, 0)] }))).toEqual(['before-arrival']);
    const check = only(delivered({ documents: [pod(ARRIVED - 90 * 60_000, 0)] }));
    expect(check.flags).toEqual([
      {
        kind: 'before-arrival',
        text: 'uploaded before arrival (1 h 30 min before; arrived 11/24/2026 14:05 GMT-6)',
      },
    ]);
  });

  it('says the arrival in the stop’s own zone, and in UTC when it sent none', () => {
    const east = delivered({ documents: [pod(ARRIVED - 3_600_000, 0)] }, { stopGMTDiff: '+05:30' });
    expect(only(east).flags[0]?.text).toMatch(/arrived 11\/25\/2026 01:35 GMT\+5:30\)$/);
    const unknown = delivered({ documents: [pod(ARRIVED - 3_600_000, 0)] }, { stopGMTDiff: undefined });
    expect(only(unknown).flags[0]?.text).toMatch(/arrived 11\/24\/2026 20:05 UTC\)$/);
  });

  it('holds no wall time of unknown zone against the arrival: it says the time is unsure', () => {
    // 13:00 read as UTC is before the 20:05 UTC arrival, but it may be 13:00 at the stop (19:00 UTC)
    // or anywhere else: no verdict on a guess.
    const doc = pod(Date.parse('2026-11-24T13:00:00Z'), 0, {
      time: { ...testTime(Date.parse('2026-11-24T13:00:00Z')), approximate: true, local: '11/24/2026 13:00' },
    });
    expect(only(delivered({ documents: [doc] })).flags).toEqual([
      { kind: 'time-unsure', text: 'uploaded at a time whose zone is unknown' },
    ]);
  });

  it('flags an upload long after departure, on the track’s clock', () => {
    expect(kinds(delivered({ documents: [pod(DEPARTED + 50 * 60_000, 0)] }))).toEqual([]);
    const late = only(delivered({ documents: [pod(DEPARTED + 3 * 3_600_000, 0)] }));
    expect(late.flags).toEqual([
      { kind: 'after-departure', text: 'uploaded 3 h after departure (left 11/24/2026 15:40 GMT-6)' },
    ]);
    // In the demo, a real minute is 60 track minutes: 3 real minutes after departure is 3 h. Times
    // written to the minute are a real minute unsure: 2 real minutes is within the hour and that.
    const fast = (realMinutes: number) => {
      const load = delivered({ documents: [pod(DEPARTED + realMinutes * 60_000, 0)] });
      return only({ ...load, outlook: { ...load.outlook!, clockScale: 60 } }).flags;
    };
    expect(fast(3)[0]?.text).toMatch(/^uploaded 3 h after departure/);
    expect(fast(2)).toEqual([]);
  });

  it('flags an upload at a stop the truck has not reached', () => {
    const load = delivered({ documents: [pod(ARRIVED, 0)] });
    load.outlook = outlook([stopOutlook(2, { type: 'delivery', progress: 'upcoming' })]);
    expect(only(load).flags).toEqual([
      { kind: 'before-arrival', text: 'uploaded before arrival (the truck has not reached the stop)' },
    ]);
  });

  it('flags a POD at a pickup stop and a BOL at a delivery stop', () => {
    const podAtPickup = pod(ARRIVED, 0, { stopOrderNumber: 1 });
    const bolAtDelivery = pod(ARRIVED, 0, { type: 'BOL', url: 'https://files.example.com/bol.jpg' });
    const checks = podChecks(delivered({ documents: [podAtPickup, bolAtDelivery] }));
    expect(checks.map((c) => c.flags.find((f) => f.kind === 'wrong-stop-type')?.text)).toEqual([
      'POD at a pickup stop',
      'BOL at a delivery stop',
    ]);
    // The POD is also far from the pickup stop it names: both flags are there.
    expect(checks[0]?.flags.map((f) => f.kind)).toContain('far-from-stop');
  });
});

describe('documents that name no stop, or one the load lacks', () => {
  it('flags a POD naming no stop, and checks nothing else', () => {
    const doc = pod(ARRIVED, 38_000, { stopOrderNumber: undefined });
    expect(only(delivered({ documents: [doc] })).flags).toEqual([
      { kind: 'no-stop-named', text: 'no stop named' },
    ]);
  });

  it('finds the stop by its external id when no order number is given', () => {
    const doc = pod(ARRIVED + 60_000, 38_000, { stopOrderNumber: undefined, stopExternalId: 'S-2' });
    expect(only(delivered({ documents: [doc] })).flags.map((f) => f.text)).toEqual([
      'taken 38 km from the delivery stop',
    ]);
  });

  it('flags a stop the load does not have, and a load with no stops at all', () => {
    const doc = pod(ARRIVED, 0, { stopOrderNumber: 7 });
    const unknown = [{ kind: 'unknown-stop', text: 'names stop 7, which the load does not have' }];
    expect(only(delivered({ documents: [doc] })).flags).toEqual(unknown);
    expect(only(emptyLoad('9002', 'external-id', { documents: [doc] })).flags).toEqual(unknown);
  });

  it('flags what cannot be checked: no location, no time; a stop without a point is not measured', () => {
    const doc = pod(null, 0, { position: undefined });
    expect(only(delivered({ documents: [doc] })).flags).toEqual([
      { kind: 'no-location', text: 'no location to check' },
      { kind: 'no-time', text: 'no time to check' },
    ]);
    const nowhere = delivered({ documents: [pod(ARRIVED + 60_000, 38_000)] }, { lat: 'n/a', lon: null });
    expect(only(nowhere).flags).toEqual([]);
    expect(only(nowhere)).not.toHaveProperty('meters');
  });

  it('leaves pictures and other papers out', () => {
    const picture = testDocument('https://files.example.com/p.jpg', ARRIVED, { type: 'PICTURE' });
    expect(podChecks(delivered({ documents: [picture] }))).toEqual([]);
  });
});

describe('helpers', () => {
  it('reads the spellings of POD and BOL', () => {
    expect(['POD', 'pod', 'Proof of Delivery', 'proof_of_delivery'].map(paperKind)).toEqual([
      'POD',
      'POD',
      'POD',
      'POD',
    ]);
    expect(['BOL', 'Bill of Lading', 'PICTURE', 'PODIUM', undefined].map(paperKind)).toEqual([
      'BOL',
      'BOL',
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('writes distances as a person would say them', () => {
    expect([40, 650, 4200, 38_400].map(distanceText)).toEqual(['40 m', '650 m', '4.2 km', '38 km']);
  });

  it('ranks the flags that hold payment first, a clean document last', () => {
    const far = {
      flags: [
        { kind: 'no-time' as const, text: '' },
        { kind: 'far-from-stop' as const, text: '' },
      ],
    };
    expect(flagRank(far)).toBeLessThan(flagRank({ flags: [{ kind: 'no-time', text: '' }] }));
    expect(flagRank({ flags: [{ kind: 'time-unsure', text: '' }] })).toBeLessThan(flagRank({ flags: [] }));
  });

  it('joins the stops’ places with the outlook’s arrivals by order', () => {
    const [pickup, delivery] = checkedStopsOf(delivered());
    expect(pickup).toMatchObject({ order: 1, type: 'pickup', externalId: 'S-1', offsetHours: -6 });
    expect(delivery).toMatchObject({ order: 2, arrivedAt: ARRIVED, departedAt: DEPARTED, radiusMeters: 300 });
  });
});

describe('a load whose ids were reused for its next trip', () => {
  const event = (name: string, code: string, instant: number) => ({
    key: `${code}-${instant}`,
    instant,
    time: testTime(instant),
    name,
    code,
  });

  it('checks the papers of the trip now against its stops, and tells an earlier trip’s apart', () => {
    const nextTrip = ARRIVED + 10 * 3_600_000;
    const earlier = pod(ARRIVED - 40 * 3_600_000, 900_000);
    const undated = pod(null, 0, { url: 'https://files.example.com/undated.jpg' });
    const load = delivered({
      events: [
        event('Dispatched', 'DSP', ARRIVED - 50 * 3_600_000),
        event('Delivered', 'DLV', ARRIVED - 39 * 3_600_000),
        event('Dispatched', 'DSP', nextTrip),
      ],
      documents: [earlier, undated],
    });
    const [first, now] = podChecks(load);
    // The earlier trip's POD (9 km from today's stop) is not checked against stops it was never at.
    expect(first).toEqual({
      url: earlier.url,
      kind: 'POD',
      instant: earlier.instant,
      flags: [
        {
          kind: 'earlier-trip',
          text: 'of an earlier trip under the same ids: its stops were not kept, so it was not checked',
        },
      ],
    });
    expect(isFaultFlag(first!.flags[0]!)).toBe(false);
    expect(now?.url).toBe(undated.url);
    expect(now?.flags.map((f) => f.kind)).not.toContain('earlier-trip');
  });

  it('checks an earlier trip’s papers against its own kept stops, when they were kept', () => {
    const start = ARRIVED - 50 * 3_600_000;
    // Taken at today's delivery stop during the earlier trip, whose delivery stop was in Dallas.
    const earlier = pod(ARRIVED - 40 * 3_600_000, 0);
    const load = delivered({
      events: [
        event('Dispatched', 'DSP', start),
        event('Delivered', 'DLV', ARRIVED - 39 * 3_600_000),
        event('Dispatched', 'DSP', ARRIVED + 10 * 3_600_000),
      ],
      documents: [earlier],
    });
    const kept = keptTripStops([
      {
        by: 'external-id',
        id: '9001',
        from: start,
        radiusMeters: 300,
        stops: [
          {
            order: 2,
            externalId: 'S-2',
            type: 'delivery',
            lat: PICKUP.lat,
            lon: PICKUP.lon,
            progress: 'departed',
            arrivedAt: ARRIVED - 41 * 3_600_000,
            departedAt: ARRIVED - 39.5 * 3_600_000,
            status: 'on-time',
          },
        ],
      },
    ]);
    const [check] = podChecks(load, undefined, kept);
    expect(check?.stopOrder).toBe(2);
    expect(check?.flags.map((f) => f.kind)).toEqual(['far-from-stop']);
    expect(check?.flags[0]?.text).toMatch(/^taken \d+ km from the delivery stop$/);
    // Another load's, or another trip's, kept stops are not this trip's.
    const other = keptTripStops([{ by: 'external-id', id: '9002', from: start, stops: [] }]);
    expect(podChecks(load, undefined, other)[0]?.flags.map((f) => f.kind)).toEqual(['earlier-trip']);
  });
});
