import { describe, expect, it } from 'vitest';
import { distanceKm, generateFleet, nextTrip, tripClock, tripEndsAt, tripStartsAt } from './fleet';
import { CITIES } from './cities';
import { nearestPlace } from './places';
import { trackAt } from './track';

const startedAt = Date.parse('2026-11-22T15:00:00Z');
const track = { seed: 5, speed: 60, publicUrl: 'http://127.0.0.1:1' };

describe('the long trips knob (the puller bench)', () => {
  it('puts every load in transit with about that many pings, one more a simulated minute', () => {
    const plans = generateFleet({ seed: 5, loads: 20, speed: 60, startedAt, tripPings: 300 });
    for (const plan of plans) {
      const atStart = trackAt(plan, startedAt, track);
      expect(atStart.pings.length).toBeGreaterThanOrEqual(299);
      expect(atStart.pings.length).toBeLessThanOrEqual(301);
      // An hour of the simulator's clock at 60x is a minute of real time: 60 more pings.
      const later = trackAt(plan, startedAt + 60_000, track);
      expect(later.pings.length - atStart.pings.length).toBeGreaterThanOrEqual(59);
      expect(later.pings.length - atStart.pings.length).toBeLessThanOrEqual(61);
      expect(later.events.some((e) => /deliver/i.test(e.item.name ?? ''))).toBe(false);
    }
  });
});

describe('the long track knob (SIM_LONG_TRACK_PINGS)', () => {
  it.each([2, 500, 20_000])('gives load 0 exactly %i pings in time order, from start on', (pings) => {
    const [plan, other] = generateFleet({ seed: 5, loads: 2, speed: 60, startedAt, longTrackPings: pings });
    const plain = generateFleet({ seed: 5, loads: 2, speed: 60, startedAt });
    expect(other).toEqual(plain[1]);
    const atStart = trackAt(plan!, startedAt, track);
    const later = trackAt(plan!, startedAt + 3_600_000, track);
    expect(atStart.pings).toHaveLength(pings);
    expect(later.pings).toHaveLength(pings);
    const times = atStart.pings.map((p) => p.at);
    expect(times.every((t, i) => i === 0 || t > (times[i - 1] as number))).toBe(true);
    expect(times.at(-1)).toBeLessThanOrEqual(startedAt);
    expect(plan!.reefer).toBe(true);
    expect(atStart.readings.length).toBeGreaterThan(0);
  });

  it("gives the 20,000-ping load issue 7's bench counts: 5,000 status events, 500 documents, 50,000 readings", () => {
    const [plan] = generateFleet({ seed: 5, loads: 1, speed: 60, startedAt, longTrackPings: 20_000 });
    const t = trackAt(plan!, startedAt, track);
    expect(t.pings).toHaveLength(20_000);
    expect(t.events.length).toBeGreaterThanOrEqual(5_000);
    expect(new Set(t.events.map((e) => e.item.id)).size).toBe(t.events.length);
    expect(t.documents.length).toBeGreaterThanOrEqual(500);
    expect(new Set(t.documents.map((d) => d.item.url)).size).toBe(t.documents.length);
    expect(t.readings.length).toBe(50_000);
    // One a minute: no two share a time (a reading's time is written to the minute).
    expect(new Set(t.readings.map((r) => r.item.timestamp)).size).toBeGreaterThan(49_000);
  });

  it('is off by default and at 0', () => {
    const plain = generateFleet({ seed: 5, loads: 1, speed: 60, startedAt });
    expect(generateFleet({ seed: 5, loads: 1, speed: 60, startedAt, longTrackPings: 0 })).toEqual(plain);
  });
});

describe('the fleet’s routes', () => {
  it('stay near land: every point has a town within 150 km, and no trip crosses the Gulf of Mexico', () => {
    const fleet = generateFleet({ seed: 20261122, loads: 1000, speed: 60, startedAt: Date.now() });
    const far = fleet.flatMap((plan) =>
      plan.route
        .map((p) => ({ p, km: distanceKm(p, nearestPlace(p)) }))
        // 389 km when trips went straight across the Gulfs of Mexico and Maine. A few of Halifax's
        // trips still bend out over the Gulf of Maine (about 130 km): none of its ways stays inland.
        .filter(({ km }) => km > 150)
        .map(
          ({ p, km }) => `${plan.externalId} at ${p.lat.toFixed(2)},${p.lon.toFixed(2)}: ${km.toFixed(0)} km`,
        ),
    );
    expect(far).toEqual([]);
    const ends = fleet.map((plan) => `${plan.stops[0]?.city.name}→${plan.stops.at(-1)?.city.name}`);
    expect(ends).not.toContain('Houston→Miami');
    expect(ends).not.toContain('Miami→Houston');
    // Trips still go everywhere: most of the route cities end one.
    expect(new Set(fleet.map((plan) => plan.stops.at(-1)?.city.name)).size).toBeGreaterThan(
      CITIES.length * 0.8,
    );
  });
});

describe('a steady fleet: loads are dispatched again as they deliver (issue 36)', () => {
  const o = { seed: 20261122, speed: 60 };
  const fleet = generateFleet({ ...o, loads: 40, startedAt });
  const hour = 3_600_000;
  /** Each slot's latest main status at `instant`, as the pull would report it. */
  const statusesAt = (tripAt: ReturnType<typeof tripClock>, instant: number) =>
    fleet.map((slot) => {
      const plan = tripAt(slot, instant).at(-1)!;
      const main = trackAt(plan, instant, track).events.filter((e) => e.item.main);
      return String(main.at(-1)?.item.code ?? 'none');
    });
  const onTheRoad = (codes: string[]) =>
    codes.filter((c) => c === 'ITR' || c === 'LDD' || c === 'APU').length;

  it('starts as it did: every load on its first trip, the first trip as planned', () => {
    const tripAt = tripClock(o);
    expect(fleet.every((slot) => tripAt(slot, startedAt).length === 1)).toBe(true);
    expect(fleet.every((slot) => slot.trip === 0)).toBe(true);
  });

  it('still has loads on the road an hour, a day and three days after start', () => {
    const tripAt = tripClock(o);
    for (const after of [1, 24, 72]) {
      const codes = statusesAt(tripAt, startedAt + after * hour);
      // At start about two thirds are on the road; without new trips none were after a day.
      expect(onTheRoad(codes), `${after} h after start: ${codes.join(' ')}`).toBeGreaterThanOrEqual(12);
      expect(codes.filter((c) => c === 'DLV').length).toBeLessThan(28);
    }
    // A day on, a slot is some trips further, with the same ids.
    const later = fleet.map((slot) => tripAt(slot, startedAt + 24 * hour).at(-1)!);
    expect(Math.min(...later.map((p) => p.trip))).toBeGreaterThan(3);
    expect(later.map((p) => p.externalId)).toEqual(fleet.map((p) => p.externalId));
    expect(later.map((p) => p.loadNumber)).toEqual(fleet.map((p) => p.loadNumber));
  }, 60_000);

  it('gives the same trips for the same seed and clock, whichever way the clock went', () => {
    const at = startedAt + 10 * hour;
    const forward = tripClock(o);
    for (let h = 0; h <= 10; h++) for (const slot of fleet) forward(slot, startedAt + h * hour);
    // Every trip started by then, oldest first.
    const jump = tripClock(o);
    const again = generateFleet({ ...o, loads: 40, startedAt });
    expect(again.map((slot) => jump(slot, at))).toEqual(fleet.map((slot) => forward(slot, at)));
    // Set back: the first trip again.
    expect(forward(fleet[3]!, startedAt)).toEqual([fleet[3]]);
  }, 60_000);

  it('starts each trip where the last one delivered, after it, with ids no other trip has', () => {
    const slot = fleet[7]!;
    const trips = [slot];
    for (let k = 0; k < 5; k++) trips.push(nextTrip(trips.at(-1)!, o)!);
    const ids = new Set<string>();
    const urls = new Set<string>();
    trips.forEach((plan, k) => {
      expect(plan.trip).toBe(k);
      if (k === 0) return;
      const before = trips[k - 1]!;
      expect(plan.stops[0]?.city).toBe(before.stops[1]?.city);
      expect(tripStartsAt(plan, o.speed)).toBeGreaterThan(tripEndsAt(before, o.speed));
    });
    for (const plan of trips) {
      const t = trackAt(plan, tripEndsAt(plan, o.speed) + 1, track);
      for (const e of t.events) ids.add(String(e.item.id));
      for (const d of t.documents) urls.add(d.item.url);
      // Its last status is the delivery; the departure from the receiver comes after it.
      expect(t.events.filter((e) => e.item.main).at(-1)?.item.code).toBe('DLV');
      expect(t.events.at(-1)?.item.code).toBe('DDL');
    }
    expect(ids.size).toBe(
      trips.reduce((n, p) => n + trackAt(p, tripEndsAt(p, o.speed) + 1, track).events.length, 0),
    );
    expect(urls.size).toBe(trips.length * 4);
  });

  it('leaves the long-track load (benchmarks) on its one trip', () => {
    const [long] = generateFleet({ ...o, loads: 1, startedAt, longTrackPings: 500 });
    expect(nextTrip(long!, o)).toBeUndefined();
    expect(tripClock(o)(long!, startedAt + 72 * hour)).toEqual([long]);
  });
});
