import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CITIES } from './cities';
import { distanceKm, generateFleet, type Point } from './fleet';
import { nearestPlace, PLACES, type Place } from './places';
import { STATE_ZONES, zoneOf } from './state-zones';
import { parseLocalTimestamp } from '@/domain/time';
import { stamps, trackAt } from './track';

const bruteForce = (p: Point): { place: Place; km: number } => {
  let place = PLACES[0] as Place;
  let km = Infinity;
  for (const q of PLACES) {
    const d = distanceKm(p, q);
    if (d < km) [place, km] = [q, d];
  }
  return { place, km };
};

describe('nearestPlace', () => {
  it('names a town of eastern Kentucky for a truck there, not Columbus, OH', () => {
    const p = { lat: 37.5, lon: -83.0 };
    const place = nearestPlace(p);
    // Hazard, 33 km away; the nearest route city, Columbus, is 270 km away.
    expect(place).toMatchObject({ state: 'KY', country: 'US', zone: 'America/New_York' });
    expect(distanceKm(p, place)).toBeLessThan(50);
  });

  it.each([
    [{ lat: 36.17, lon: -86.78 }, 'TN', 'America/Chicago'], // Nashville
    [{ lat: 39.76, lon: -84.19 }, 'OH', 'America/New_York'], // Dayton
    [{ lat: 39.74, lon: -104.99 }, 'CO', 'America/Denver'], // Denver
    [{ lat: 33.45, lon: -112.07 }, 'AZ', 'America/Phoenix'], // Phoenix: no daylight saving
    [{ lat: 50.45, lon: -104.61 }, 'SK', 'America/Regina'], // Regina: no daylight saving
    [{ lat: 45.96, lon: -66.64 }, 'NB', 'America/Moncton'], // Fredericton: Atlantic
    [{ lat: 25.69, lon: -100.32 }, 'NL', 'America/Monterrey'], // Monterrey
  ])('gives %o a place in %s, zone %s', (p, state, zone) => {
    const place = nearestPlace(p);
    expect(place).toMatchObject({ state, zone });
    expect(distanceKm(p, place)).toBeLessThan(15);
  });

  it('finds what a scan of every place finds, anywhere in North America and beyond', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.record({
            lat: fc.double({ min: 24, max: 56, noNaN: true }),
            lon: fc.double({ min: -125, max: -60, noNaN: true }),
          }),
          fc.record({
            lat: fc.double({ min: -85, max: 85, noNaN: true }),
            lon: fc.double({ min: -180, max: 179.999, noNaN: true }),
          }),
        ),
        (p) => {
          const found = nearestPlace(p);
          const best = bruteForce(p);
          // Another place only on a tie.
          expect(distanceKm(p, found)).toBeCloseTo(best.km, 9);
          if (found !== best.place) expect(distanceKm(p, best.place)).toBeCloseTo(distanceKm(p, found), 9);
        },
      ),
      { numRuns: 400, seed: 20261122 },
    );
  });

  it('answers the same for a position whatever was asked before', () => {
    const p = { lat: 41.2, lon: -77.1 };
    const first = nearestPlace(p);
    for (let k = 0; k < 1000; k++) nearestPlace({ lat: 30 + (k % 20), lon: -120 + k / 20 });
    expect(nearestPlace(p)).toBe(first);
  });
});

describe('the places', () => {
  it('are a few thousand towns of the US, Canada and northern Mexico, each zoned by its state', () => {
    expect(PLACES.length).toBeGreaterThan(3000);
    const intl = (zone: string) => new Intl.DateTimeFormat('en-US', { timeZone: zone });
    for (const p of PLACES) {
      expect(p.zone).toBe(zoneOf(p.country, p.state));
      expect(Math.abs(p.lat) <= 90 && Math.abs(p.lon) <= 180).toBe(true);
    }
    for (const zones of Object.values(STATE_ZONES)) for (const zone of Object.values(zones)) intl(zone);
    expect(() => zoneOf('US', 'XX')).toThrow(/XX/);
  });

  it("give devices' timestamps the dashboard reads, in every zone, in winter and in summer", () => {
    for (const zones of Object.values(STATE_ZONES))
      for (const zone of Object.values(zones))
        for (const instant of [Date.UTC(2026, 0, 15, 12), Date.UTC(2026, 6, 15, 12)]) {
          const text = stamps(instant, zone).timestampSec;
          expect(parseLocalTimestamp(text), `${zone}: ${text}`).toMatchObject({ instant, zoneKnown: true });
        }
  });

  it('name a truck at a route city after that city, not a neighbourhood of it', () => {
    for (const c of CITIES) expect(nearestPlace(c)).toMatchObject({ name: c.name, state: c.state });
  });

  it('agree with the zones of the route cities', () => {
    for (const c of CITIES) expect(`${c.name}: ${zoneOf(c.country, c.state)}`).toBe(`${c.name}: ${c.zone}`);
  });
});

describe('the place a ping reports, along the demo routes', () => {
  // Every ping of the default demo fleet (SIM_SEED, SIM_LOADS) and of a larger one, all delivered.
  // Measured (seed 20261122): 40 loads, median 23 km, max 124 km; 1,000 loads, median 23 km,
  // max 389 km, where a straight route crosses the Gulf of Mexico or the Gulf of Maine; the 40
  // route cities alone gave a median of 149 km and a max of 752.
  const startedAt = Date.parse('2026-11-22T15:00:00Z');
  const options = { seed: 20261122, speed: 60, publicUrl: 'http://127.0.0.1:1' };
  const kmOf = (loads: number) =>
    generateFleet({ seed: options.seed, loads, speed: 60, startedAt })
      .flatMap((plan) => trackAt(plan, startedAt + 30 * 86_400_000, options).pings)
      .map((p) => distanceKm(p.item.point, p.item.city))
      .sort((a, b) => a - b);
  const median = (km: number[]) => km[Math.floor(km.length / 2)] as number;

  it('is within 150 km of it, and typically within 30 km, for the default fleet', () => {
    const km = kmOf(40);
    expect(km.length).toBeGreaterThan(10_000);
    expect(km.at(-1)).toBeLessThan(150);
    expect(median(km)).toBeLessThan(30);
    expect(km[Math.floor(km.length * 0.9)]).toBeLessThan(60);
  });

  it('is within 60 km for nine pings in ten of a 300-load fleet, and within 200 km for every ping: no route crosses a gulf', () => {
    const km = kmOf(300);
    expect(median(km)).toBeLessThan(30);
    expect(km[Math.floor(km.length * 0.9)]).toBeLessThan(60);
    // 315 km when routes went straight across the Gulf of Mexico and the Gulf of Maine.
    expect(km.at(-1)).toBeLessThan(200);
  });
});
