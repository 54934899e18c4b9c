import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyLoad, testEvent, testPing } from '@/testing/loads';
import type { Load, Ping, StatusEvent, StopOutlook } from './model';
import { DEFAULT_OUTLOOK_OPTIONS, loadOutlook, meters, type OutlookOptions } from './outlook';
import { darkAtStop, dwellText, stopDwell, stopEvidence } from './dwell';
import { openDwellText } from './open-dwell-text';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.parse('2026-11-24T12:00:00Z');
const O: OutlookOptions = { ...DEFAULT_OUTLOOK_OPTIONS, stopRadiusMeters: 300, freeMinutes: 120 };
/** The delivery dock, on the equator; pings are placed by their meters east of it. */
const DOCK = { lat: 0, lon: -95 };
const PER_METER = 1 / meters({ lat: 0, lon: 0 }, { lat: 0, lon: 1 });

const ping = (instant: number, metersEast: number, accuracy: number | null = 10): Ping =>
  testPing(instant, 0, DOCK.lon + metersEast * PER_METER, accuracy);
const event = testEvent;
const rolling = [event(T0 - 5 * HOUR, 'Dispatched', 'DSP'), event(T0 - 4 * HOUR, 'In transit', 'ITR')];
const delivery = {
  orderNumber: 2,
  stopType: 'DELIVERY',
  locationName: 'Receiver DC',
  lat: DOCK.lat,
  lon: DOCK.lon,
  datetime: '11/24/2026 06:00',
  stopGMTDiff: '-6',
};

/** Pings every 10 min from `from`: approaching from 20 km east, then at `metersEast` per step. */
function track(from: number, atDock: number[]): Ping[] {
  return [
    ping(from - 20 * MIN, 20_000),
    ping(from - 10 * MIN, 10_000),
    ...atDock.map((m, i) => ping(from + i * 10 * MIN, m)),
  ];
}

function deliveryLoad(pings: Ping[], events: StatusEvent[] = rolling, stop: object = delivery): Load {
  return emptyLoad('L1', 'external-id', {
    pings,
    events,
    extras: { stops: [stop] },
    latestStatus: events[events.length - 1],
    latestLocation: pings.length ? { ...pings[pings.length - 1]!, place: {} } : undefined,
  });
}

function deliveryStop(pings: Ping[], events: StatusEvent[] = rolling, o = O): StopOutlook {
  return loadOutlook(deliveryLoad(pings, events), o)!.stops[0]!;
}

/** `n` pings 10 min apart at the dock, 50 m from its point. */
const waiting = (n: number) => Array.from({ length: n }, () => 50);

describe('dwell and detention at a stop', () => {
  it('has none before the truck arrives', () => {
    const stop = deliveryStop([ping(T0 - 20 * MIN, 20_000), ping(T0, 10_000)]);
    expect(stop.progress).toBe('upcoming');
    expect(stopDwell(stop, T0 + HOUR)).toBeUndefined();
  });

  it('runs a clock from the first ping inside while the truck is there, within free time', () => {
    const stop = deliveryStop(track(T0, waiting(4)));
    expect(stop).toMatchObject({ progress: 'arrived', arrivedAt: T0, arrivedBy: 'pings', freeMinutes: 120 });
    const d = stopDwell(stop, T0 + 45 * MIN)!;
    expect(d).toEqual({ insideMinutes: 45, freeMinutes: 120, detentionMinutes: 0, running: true });
    expect(dwellText(d)).toBe('45 min of 2 h free');
  });

  it('counts detention once the free time is past, and keeps counting while there', () => {
    const stop = deliveryStop(track(T0, waiting(4)));
    expect(dwellText(stopDwell(stop, T0 + 3 * HOUR + 20 * MIN)!)).toBe('detention 1 h 20 min');
    expect(stopDwell(stop, T0 + 5 * HOUR)!.detentionMinutes).toBe(180);
  });

  it('stops the clock at the first ping outside once the truck left', () => {
    // 19 pings at the dock (3 h), then 5 km and 15 km away.
    const stop = deliveryStop(track(T0, [...waiting(19), 5_000, 15_000]));
    expect(stop).toMatchObject({ progress: 'departed', departedAt: T0 + 190 * MIN, departedBy: 'pings' });
    const d = stopDwell(stop, T0 + 10 * HOUR)!;
    expect(d).toEqual({ insideMinutes: 190, freeMinutes: 120, detentionMinutes: 70, running: false });
    expect(dwellText(d)).toBe('inside 3 h 10 min, detention 1 h 10 min');
  });

  it("takes arrival and departure from the service's status events", () => {
    const events = [
      ...rolling,
      event(T0 + 5 * MIN, 'Arrived at delivery', 'ADL'),
      event(T0 + 100 * MIN, 'Departed delivery', 'DDL'),
    ];
    const stop = deliveryStop([ping(T0 - 20 * MIN, 20_000)], events);
    expect(stop).toMatchObject({ arrivedAt: T0 + 5 * MIN, arrivedBy: 'event', departedBy: 'event' });
    expect(dwellText(stopDwell(stop, T0 + 5 * HOUR)!)).toBe('inside 1 h 35 min, within 2 h free');
  });

  it('takes the earlier of a late "arrived" tap and the first ping inside', () => {
    const events = [...rolling, event(T0 + 40 * MIN, 'Arrived at delivery', 'ADL')];
    const stop = deliveryStop(track(T0, waiting(6)), events);
    expect(stop).toMatchObject({ arrivedAt: T0, arrivedBy: 'pings' });
  });

  it('widens the fence by a ping accuracy: 450 m out known to 200 m is in, known to 100 m is out', () => {
    expect(
      deliveryStop(track(T0, [450]).map((p) => (p.instant === T0 ? { ...p, accuracy: 200 } : p))),
    ).toMatchObject({
      progress: 'arrived',
      arrivedAt: T0,
    });
    expect(
      deliveryStop(track(T0, [450]).map((p) => (p.instant === T0 ? { ...p, accuracy: 100 } : p))).progress,
    ).toBe('upcoming');
    // A cell-tower fix says nothing, however wide.
    expect(
      deliveryStop(track(T0, [450]).map((p) => (p.instant === T0 ? { ...p, accuracy: 2000 } : p))).progress,
    ).toBe('upcoming');
  });

  it('takes its radius from the options (STOP_RADIUS_METERS)', () => {
    expect(deliveryStop(track(T0, [450]), rolling, { ...O, stopRadiusMeters: 500 }).progress).toBe('arrived');
  });

  it('does not end the stay at a ping that bounces out and back in', () => {
    // One fix 2 km off between pings at the dock: a wander, not a departure.
    const stop = deliveryStop(track(T0, [50, 50, 2_000, 50, 50, 50, 50]));
    expect(stop.progress).toBe('arrived');
    expect(stop.departedAt).toBeUndefined();
    expect(stopDwell(stop, T0 + HOUR)!.insideMinutes).toBe(60);
  });

  it('runs on the simulator clock: a demo hour in a real minute', () => {
    const stop = deliveryStop(track(T0, waiting(2)));
    expect(stopDwell(stop, T0 + 3 * MIN, 60)).toMatchObject({ insideMinutes: 180, detentionMinutes: 60 });
  });

  it('never counts backwards when the page clock is behind the track', () => {
    const stop = deliveryStop(track(T0, waiting(2)));
    expect(stopDwell(stop, T0 - MIN)!.insideMinutes).toBe(0);
  });

  it('lists the evidence: the ping before, each ping inside (bounces too), the first one after', () => {
    const pings = track(T0, [50, 2_000, 50, 5_000, 15_000]);
    const load: Load = emptyLoad('L1', 'external-id', {
      pings,
      events: rolling,
      extras: { stops: [delivery] },
    });
    const stop = loadOutlook(load, O)!.stops[0]!;
    const rows = stopEvidence(load, stop, 300);
    expect(rows.map((r) => [r.ping.instant, r.inside])).toEqual([
      [T0 - 10 * MIN, false],
      [T0, true],
      [T0 + 10 * MIN, false],
      [T0 + 20 * MIN, true],
      [T0 + 30 * MIN, false],
    ]);
    expect(rows[1]).toMatchObject({ fence: 310 });
    expect(rows[1]!.meters).toBeCloseTo(50, 0);
  });
});

describe('the clock while the phone is dark at a stop', () => {
  /** The dwell of a load whose last pings are at the dock and then nothing, judged at `now`. */
  function darkDwell(pings: Ping[], now: number, dark = true, events = rolling, stop: object = delivery) {
    const load = deliveryLoad(pings, events, stop);
    const outlook = loadOutlook(load, O)!;
    const s = outlook.stops[0]!;
    return {
      stop: s,
      dwell: stopDwell(s, now, 1, darkAtStop(outlook, s, load.latestLocation?.instant, dark)),
    };
  }

  it('keeps the clock running to now, marked open, with what the pings prove as the floor', () => {
    // Four pings at the dock (30 min), then the phone goes quiet; five hours after arrival.
    const { stop, dwell } = darkDwell(track(T0, waiting(4)), T0 + 5 * HOUR);
    expect(stop).toMatchObject({ progress: 'arrived', arrivedAt: T0 });
    expect(stop.departedAt).toBeUndefined();
    expect(dwell).toMatchObject({ insideMinutes: 300, detentionMinutes: 180, running: true });
    expect(dwell!.open).toEqual({
      lastPingAt: T0 + 30 * MIN,
      meters: 50,
      provenInsideMinutes: 30,
      provenDetentionMinutes: 0,
    });
    expect(dwellText(dwell!)).toBe('open, detention 3 h');
    expect(openDwellText(dwell!, -6)).toBe(
      'Departure unknown: last ping Nov 24, 06:30 GMT-6, 50 m from the stop, inside its fence. ' +
        'Detention at least 0 min by the pings; 3 h if still there.',
    );
  });

  it('marks the stay open within its free time too', () => {
    const { dwell } = darkDwell(track(T0, waiting(4)), T0 + HOUR);
    expect(dwellText(dwell!)).toBe('open, 1 h of 2 h free');
    expect(openDwellText(dwell!, -6)).toContain('Inside at least 30 min by the pings; 1 h if still there.');
  });

  it('says nothing open while the phone still reports from the dock', () => {
    const { dwell } = darkDwell(track(T0, waiting(4)), T0 + 35 * MIN, false);
    expect(dwell!.open).toBeUndefined();
    expect(dwellText(dwell!)).toBe('35 min of 2 h free');
  });

  it('is no open stay once a departure is known, however dark the phone', () => {
    const { dwell } = darkDwell(track(T0, [...waiting(3), 5_000, 15_000]), T0 + 5 * HOUR);
    expect(dwell).toMatchObject({ running: false, insideMinutes: 30 });
    expect(dwell!.open).toBeUndefined();
  });

  it("keeps the stay open when the service's notice of a closed app is the reason", () => {
    const events = [...rolling, event(T0 + 31 * MIN, 'App was closed by the user', 'NTC')];
    const { dwell } = darkDwell(track(T0, waiting(4)), T0 + 4 * HOUR, true, events);
    expect(dwell!.open).toMatchObject({ lastPingAt: T0 + 30 * MIN, meters: undefined });
  });

  it('is not open at a stop known only by an "arrived" tap whose pings are elsewhere', () => {
    const events = [...rolling, event(T0, 'Arrived at delivery', 'ADL')];
    const { stop, dwell } = darkDwell(
      [ping(T0 - 20 * MIN, 20_000), ping(T0 - 10 * MIN, 10_000)],
      T0 + 4 * HOUR,
      true,
      events,
    );
    expect(stop.arrivedBy).toBe('event');
    expect(dwell).toMatchObject({ running: true, insideMinutes: 240 });
    expect(dwell!.open).toBeUndefined();
  });

  it('counts real minutes across the end of daylight time, at a stop in another zone', () => {
    // Nov 1 2026, 01:30 CDT (06:30 UTC): the clocks go back at 02:00; 4 real hours to 05:30 CST.
    const arrival = Date.parse('2026-11-01T06:30:00Z');
    const stop = { ...delivery, datetime: '11/01/2026 01:00', stopGMTDiff: '-5' };
    const { dwell } = darkDwell(
      [ping(arrival - 10 * MIN, 10_000), ping(arrival, 50), ping(arrival + 10 * MIN, 50)],
      arrival + 4 * HOUR,
      true,
      [event(arrival - 5 * HOUR, 'Dispatched', 'DSP'), event(arrival - 4 * HOUR, 'In transit', 'ITR')],
      stop,
    );
    expect(dwell).toMatchObject({ insideMinutes: 240, detentionMinutes: 120 });
    expect(dwell!.open).toMatchObject({ provenInsideMinutes: 10 });
    // The evidence is told in the offset the stop sent with its appointment.
    expect(openDwellText(dwell!, -5)).toContain('last ping Nov 1, 01:40 GMT-5');
  });

  it('runs on to now and never below what the pings prove, whatever the stop zone (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 48 * 60 }),
        fc.integer({ min: -11, max: 12 }),
        (n, darkMinutes, offset) => {
          const pings = track(T0, waiting(n));
          const last = T0 + (n - 1) * 10 * MIN;
          const now = last + darkMinutes * MIN;
          const stop = { ...delivery, stopGMTDiff: String(offset) };
          const { dwell } = darkDwell(pings, now, true, rolling, stop);
          expect(dwell!.running).toBe(true);
          expect(dwell!.insideMinutes).toBe((n - 1) * 10 + darkMinutes);
          expect(dwell!.open!.provenInsideMinutes).toBe((n - 1) * 10);
          expect(dwell!.detentionMinutes).toBeGreaterThanOrEqual(dwell!.open!.provenDetentionMinutes);
          expect(dwell!.detentionMinutes).toBe(Math.max(0, dwell!.insideMinutes - 120));
        },
      ),
    );
  });
});
