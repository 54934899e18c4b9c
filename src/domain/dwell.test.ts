import { describe, expect, it } from 'vitest';
import { emptyLoad, testTime } from '@/testing/loads';
import type { Load, Ping, StatusEvent, StopOutlook } from './model';
import { DEFAULT_OUTLOOK_OPTIONS, loadOutlook, meters, type OutlookOptions } from './outlook';
import { dwellText, stopDwell, stopEvidence } from './dwell';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.parse('2026-11-24T12:00:00Z');
const O: OutlookOptions = { ...DEFAULT_OUTLOOK_OPTIONS, stopRadiusMeters: 300, freeMinutes: 120 };
/** The delivery dock, on the equator; pings are placed by their meters east of it. */
const DOCK = { lat: 0, lon: -95 };
const PER_METER = 1 / meters({ lat: 0, lon: 0 }, { lat: 0, lon: 1 });

const ping = (instant: number, metersEast: number, accuracy: number | null = 10): Ping => ({
  key: `${instant}|${metersEast}`,
  instant,
  time: testTime(instant),
  lat: 0,
  lon: DOCK.lon + metersEast * PER_METER,
  accuracy,
});
const event = (instant: number, name: string, code: string): StatusEvent => ({
  key: `${instant}|${name}`,
  instant,
  time: testTime(instant),
  id: undefined,
  name,
  code,
  driver: undefined,
});
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

function deliveryStop(pings: Ping[], events: StatusEvent[] = rolling, o = O): StopOutlook {
  const load: Load = emptyLoad('L1', 'external-id', {
    pings,
    events,
    extras: { stops: [delivery] },
    latestStatus: events[events.length - 1],
  });
  return loadOutlook(load, o)!.stops[0]!;
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
