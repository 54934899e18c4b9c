import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { testEvent, testPing, trackedLoad, wallText } from '@/testing/loads';
import type { Ping, StatusEvent } from './model';
import {
  DEFAULT_OUTLOOK_OPTIONS,
  loadOutlook,
  meters,
  type OutlookMemo,
  type OutlookOptions,
} from './outlook';
import type { TrackPoint } from './geofence';
import { Trail } from './trail';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.parse('2026-11-24T12:00:00Z');
const O: OutlookOptions = DEFAULT_OUTLOOK_OPTIONS;
const LON_PER_MILE = 1609.344 / meters({ lat: 0, lon: 0 }, { lat: 0, lon: 1 });

const ping = (instant: number, lon: number, accuracy: number | null = 15): Ping =>
  testPing(instant, 0, lon, accuracy);
const event = testEvent;

/** Local wall text (GMT-6) of an instant, as the service writes an appointment. */
const local = (instant: number) => wallText(instant, -6);
const stopAt = (order: number, type: string, miles: number, at: number) => ({
  orderNumber: order,
  stopType: type,
  lat: 0,
  lon: -90 - miles * LON_PER_MILE,
  datetime: local(at),
  stopGMTDiff: '-6',
});

/**
 * A long trip, a ping a minute (a few unsure ones, a fix that wanders out of the fence and back): three
 * hours at the pickup, 11 h at 50 mph, a 10 h rest, 11 h more, a stop on the way, detention at the
 * delivery: over 2,400 pings.
 */
function longTrip(): { pings: Ping[]; stops: unknown[]; events: StatusEvent[] } {
  const pings: Ping[] = [];
  let t = T0;
  let lon = -90;
  const stay = (minutes: number) => {
    for (let i = 0; i < minutes; i++, t += MIN)
      pings.push(ping(t, lon + (i % 7 === 3 ? 0.0004 : 0), i % 41 === 0 ? 2000 : 15));
  };
  const drive = (minutes: number, mph: number) => {
    for (let i = 0; i < minutes; i++, t += MIN) {
      lon -= (mph / 60) * LON_PER_MILE;
      pings.push(ping(t, lon));
    }
  };
  stay(180);
  // A wandering fix: out of the fence for one ping, back within the bounce time.
  pings.push(ping(t, lon - 0.01));
  t += MIN;
  stay(20);
  drive(6 * 60, 50);
  const middle = lon;
  stay(45);
  drive(5 * 60, 50);
  stay(10 * 60);
  drive(11 * 60, 50);
  const deliveryLon = lon;
  stay(5 * 60);
  const miles = (l: number) => (-90 - l) / LON_PER_MILE;
  const stops = [
    stopAt(1, 'PICKUP', 0, T0 + HOUR),
    stopAt(2, 'DELIVERY', miles(middle), T0 + 8 * HOUR),
    stopAt(3, 'DELIVERY', miles(deliveryLon) + 0, T0 + 36 * HOUR),
    // Still to come: an ETA from the last position.
    stopAt(4, 'DELIVERY', miles(deliveryLon) + 300, T0 + 50 * HOUR),
  ];
  return { pings, stops, events: [event(T0 - HOUR, 'Dispatched', 'DSP')] };
}

const asLoad = trackedLoad;

describe('Trail: what the puller keeps of a trip for its outlook', () => {
  const trip = longTrip();

  it('reckons the same outlook as the whole trip, at every point of a long trip, in bounded memory', () => {
    const trail = new Trail();
    const readStops = (loadOutlook(asLoad(trip.pings, trip.events, trip.stops))?.stops ?? []).map((s) => ({
      lat: s.lat,
      lon: s.lon,
    }));
    let most = 0;
    // As answers come: a few dozen pings at a time.
    for (let end = 37; end <= trip.pings.length; end += 37) {
      trail.add(trip.pings.slice(end - 37, end));
      trail.thinIfGrown(readStops, O);
      most = Math.max(most, trail.length);
      if (end % (37 * 8) !== 0) continue;
      const load = asLoad(trip.pings.slice(0, end), trip.events, trip.stops);
      const whole = loadOutlook(load, O);
      const kept = loadOutlook(load, O, trail.points());
      expect(kept?.dark).toEqual(whole?.dark);
      expect(kept?.asOf).toBe(whole?.asOf);
      kept?.stops.forEach((s, i) => {
        const w = whole?.stops[i];
        expect([s.order, s.progress, s.arrivedAt, s.departedAt, s.status]).toEqual([
          w?.order,
          w?.progress,
          w?.arrivedAt,
          w?.departedAt,
          w?.status,
        ]);
        // Speeds and driving time from a thinned past: the ETA within minutes of the whole trip's.
        if (w?.eta !== undefined) expect(Math.abs((s.eta ?? 0) - w.eta)).toBeLessThanOrEqual(15 * MIN);
      });
    }
    expect(trip.pings.length).toBeGreaterThan(2400);
    // Bounded by the windows, not by the trip's length.
    expect(most).toBeLessThan(450);
    expect(trail.length).toBeLessThan(400);
  });

  it('holds the same bytes a load after days of pings as after one: the trail and the memo both', () => {
    // Four days' trip, a ping a minute, an answer an hour: 11 h at 50 mph, then a 10 h rest, over and
    // over, the delivery still far ahead. What the puller holds per load must not grow with the trip.
    const pings: Ping[] = [];
    let t = T0;
    let lon = -90;
    for (let i = 0; i < 120; i++, t += MIN) pings.push(ping(t, lon));
    for (let day = 0; day < 4; day++) {
      for (let i = 0; i < 11 * 60; i++, t += MIN) pings.push(ping(t, (lon -= (50 / 60) * LON_PER_MILE)));
      for (let i = 0; i < 10 * 60; i++, t += MIN) pings.push(ping(t, lon, i % 41 === 0 ? 2000 : 15));
    }
    const stops = [stopAt(1, 'PICKUP', 0, T0 + HOUR), stopAt(2, 'DELIVERY', 3000, T0 + 100 * HOUR)];
    const events = [event(T0 - HOUR, 'Dispatched', 'DSP')];
    const readStops = [
      { lat: 0, lon: -90 },
      { lat: 0, lon: -90 - 3000 * LON_PER_MILE },
    ];
    const trail = new Trail();
    const memo: OutlookMemo = {};
    const held = () => trail.bytes + (memo.moves?.bytes ?? 0);
    let byTwoDays = 0;
    let most = 0;
    for (let end = 60; end <= pings.length; end += 60) {
      trail.add(pings.slice(end - 60, end));
      trail.thinIfGrown(readStops, O);
      const load = asLoad(pings.slice(0, end), events, stops);
      const outlook = loadOutlook(load, O, trail.points(), memo);
      most = Math.max(most, held());
      if (end === 48 * 60) byTwoDays = most;
      if (end % (24 * 60) !== 0) continue;
      // Gone on with from the memo, it is what a fresh reckoning of the same points gives.
      expect(outlook).toEqual(loadOutlook(load, O, trail.points()));
    }
    expect(pings.length).toBeGreaterThan(5000);
    expect(byTwoDays).toBeGreaterThan(0);
    // Past the windows the outlook reads (a day of driving and rest), two more days add nothing.
    expect(most).toBe(byTwoDays);
    // Every ping kept would be 40 bytes a ping (the trail's four numbers and the memo's one).
    expect(most).toBeLessThan(16 * 1024);
  });

  it('holds one point per instant and place, in time order, whatever order the answers come in', () => {
    const trail = new Trail();
    const pings = trip.pings.slice(0, 300);
    trail.add(pings.slice(150));
    trail.add(pings.slice(0, 200));
    trail.add(pings);
    expect(trail.length).toBe(300);
    expect(trail.points().map((p) => p.instant)).toEqual(pings.map((p) => p.instant));
    // Another place at the same instant is another ping; an accuracy not given stays not given.
    const first = pings[0] as Ping;
    trail.add([{ ...first, lon: first.lon + 1, accuracy: null }]);
    expect(trail.length).toBe(301);
    expect(trail.points()[1]).toEqual({ instant: first.instant, lat: 0, lon: first.lon + 1, accuracy: null });
    // Unreadable times are no points.
    trail.add([{ ...first, instant: Number.NaN }]);
    expect(trail.length).toBe(301);
  });

  it("holds a phone's fixes in half the bytes: whole milliseconds, seven decimals, a float's accuracy", () => {
    const trail = new Trail();
    const pings: Ping[] = [];
    for (let i = 0; i < 300; i++) {
      const lat = Number((41.5 + i * 0.000123).toFixed(6));
      const lon = Number((-87.6 - i * 0.0004567).toFixed(6));
      pings.push(testPing(T0 + i * MIN + (i % 7) * 1000, lat, lon, i % 13 === 0 ? null : 5 + (i % 40)));
    }
    trail.add(pings);
    expect(trail.points()).toEqual(
      pings.map(({ instant, lat, lon, accuracy }) => ({ instant, lat, lon, accuracy })),
    );
    // Four 64-bit numbers a point, room to grow by a quarter, would be over 32 bytes a point.
    expect(trail.bytes).toBeLessThanOrEqual(20 * trail.length);
  });

  it('gives back exactly the points added, in time order, whichever numbers they are', () => {
    const degree = fc.oneof(
      fc.integer({ min: -1_800_000, max: 1_800_000 }).map((n) => n / 1e4),
      fc.double({ min: -180, max: 180, noNaN: true }),
      fc.constantFrom(0, -0),
    );
    const point = fc.record({
      instant: fc.oneof(
        fc.integer({ min: 0, max: 40 * 24 * 60 }).map((m) => T0 + m * MIN),
        fc.double({ min: T0 - 1e10, max: T0 + 1e10, noNaN: true }),
      ),
      lat: degree,
      lon: degree,
      accuracy: fc.oneof(
        fc.constant(null),
        fc.integer({ min: 0, max: 5000 }),
        fc.double({ min: 0, max: 100, noNaN: true }),
      ),
    });
    fc.assert(
      fc.property(fc.array(fc.array(point, { maxLength: 30 }), { maxLength: 8 }), (batches) => {
        const trail = new Trail();
        // What the trail is to hold: one point per instant and place, each after those of its instant.
        const held: TrackPoint[] = [];
        for (const batch of batches) {
          trail.add(batch);
          for (const p of batch) {
            if (held.some((h) => h.instant === p.instant && h.lat === p.lat && h.lon === p.lon)) continue;
            const at = held.findIndex((h) => h.instant > p.instant);
            held.splice(at < 0 ? held.length : at, 0, { ...p });
          }
          expect(trail.points()).toEqual(held);
        }
      }),
    );
  });

  it('forgets what came before a new trip', () => {
    const trail = new Trail();
    trail.add(trip.pings.slice(0, 100));
    trail.cutBefore(trip.pings[60]?.instant);
    expect(trail.length).toBe(40);
    expect(trail.points()[0]?.instant).toBe(trip.pings[60]?.instant);
    trail.cutBefore(undefined);
    expect(trail.length).toBe(40);
  });
  it('counts every change before its last point, and no point added after it', () => {
    const trail = new Trail();
    trail.add(trip.pings.slice(0, 300));
    trail.add(trip.pings.slice(300, 400));
    trail.add(trip.pings.slice(350, 400));
    expect(trail.rewritten).toBe(0);
    // A late ping, put before the last.
    trail.add([trip.pings[400]!, trip.pings[402]!]);
    trail.add([trip.pings[401]!]);
    expect(trail.rewritten).toBe(1);
    trail.cutBefore(trip.pings[10]?.instant);
    expect(trail.rewritten).toBe(2);
    trail.thin(trip.stops as never, O);
    expect(trail.rewritten).toBe(3);
  });

  it("reckons the whole trip's outlook through late pings and thinnings, its memo started over at each change before the end", () => {
    // Ten hours read, thinned to 240 points; then an hour of half-minute pings that came late, off
    // the road, and eight new ones: thinned again, the trail holds 240 points up to the last one read,
    // as before, so a memo that counts them goes on as if nothing came before and misses the miles
    // they add.
    const MILE_LAT = 1609.344 / meters({ lat: 0, lon: 0 }, { lat: 1, lon: 0 });
    const stops = [stopAt(1, 'DELIVERY', 900, T0 + 20 * HOUR)];
    const events = [event(T0 - HOUR, 'Dispatched', 'DSP')];
    const at = (minute: number, lat = 0) =>
      testPing(T0 + minute * MIN, lat, -90 - minute * (50 / 60) * LON_PER_MILE, 10);
    const read = Array.from({ length: 600 }, (_, m) => at(m));
    const late = Array.from({ length: 63 }, (_, i) => at(598.5 - i, (i % 2 ? 3.5 : -3.5) * MILE_LAT));
    const fresh = Array.from({ length: 8 }, (_, i) => at(600 + i));
    const trail = new Trail();
    let memo: OutlookMemo = {};
    let rewrites = 0;
    const all: Ping[] = [];
    for (const pings of [read, [...late, ...fresh]]) {
      all.push(...pings);
      trail.add(pings);
      trail.thinIfGrown(stops, O);
      if (trail.rewritten !== rewrites) {
        memo = {};
        rewrites = trail.rewritten;
      }
      const sorted = [...all].sort((a, b) => a.instant - b.instant);
      const load = asLoad(sorted, events, stops);
      expect(loadOutlook(load, O, trail.points(), memo)).toEqual(loadOutlook(load, O, sorted, {}));
    }
    expect(trail.length).toBe(248);
  });
});
