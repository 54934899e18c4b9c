import { describe, expect, it } from 'vitest';
import { distanceKm, generateFleet } from './fleet';
import { CITIES } from './cities';
import { nearestPlace } from './places';
import { trackAt } from './track';

const startedAt = Date.parse('2026-11-22T15:00:00Z');
const track = { seed: 5, speed: 60, publicUrl: 'http://127.0.0.1:1' };

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
