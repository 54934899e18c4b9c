import L from 'leaflet';
import { describe, expect, it, vi } from 'vitest';
import type { Geometry } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries from 'world-atlas/countries-110m.json';
import {
  mercator,
  shapesOf,
  shapesOfInTurns,
  topoGeometry,
  TILE_SIZE,
  traceTile,
  type Shape,
  type TilePen,
} from './basemap-shapes';

/** Records what a tile traces, as a canvas would be asked to. */
function recorder() {
  const calls: [string, number, number][] = [];
  const pen: TilePen = {
    beginPath: () => calls.push(['begin', 0, 0]),
    moveTo: (x, y) => calls.push(['move', x, y]),
    lineTo: (x, y) => calls.push(['line', x, y]),
    closePath: () => calls.push(['close', 0, 0]),
  };
  return { pen, calls };
}

describe('mercator', () => {
  it('puts the world in one tile at zoom 0: null island in its middle, the antimeridian at its edges', () => {
    expect(mercator(0, 0)).toEqual([128, 128]);
    expect(mercator(-180, 0)[0]).toBe(0);
    expect(mercator(180, 0)[0]).toBe(TILE_SIZE);
  });
  it('clamps the poles to the edge of Web Mercator instead of running off to infinity', () => {
    const [, north] = mercator(0, 90);
    const [, south] = mercator(0, -90);
    expect(north).toBeCloseTo(0, 6);
    expect(south).toBeCloseTo(TILE_SIZE, 6);
  });
  it('agrees with Leaflet’s own projection, so the basemap lies under the markers at every zoom', () => {
    for (const [lat, lon] of [
      [41.8781, -87.6298],
      [25.76, -80.19],
      [61.2, -149.9],
      [-33.9, 151.2],
    ] as const)
      for (const z of [0, 4, 12]) {
        const leaflet = L.CRS.EPSG3857.latLngToPoint(L.latLng(lat, lon), z);
        const [x, y] = mercator(lon, lat);
        expect(x * 2 ** z).toBeCloseTo(leaflet.x, 4);
        expect(y * 2 ** z).toBeCloseTo(leaflet.y, 4);
      }
  });
});

describe('shapesOf', () => {
  it('makes one shape per polygon and per line, and skips what draws nothing', () => {
    const square = [
      [
        [0, 0],
        [10, 0],
        [10, 10],
        [0, 0],
      ],
    ];
    const shapes = shapesOf([
      { type: 'Polygon', coordinates: square },
      { type: 'MultiPolygon', coordinates: [square, square] },
      {
        type: 'MultiLineString',
        coordinates: [
          [
            [0, 0],
            [1, 1],
          ],
          [[5, 5]],
        ],
      },
      { type: 'Point', coordinates: [1, 1] },
      null,
    ]);
    // 1 polygon, 2 from the multipolygon, 1 line; the one-point line and the point draw nothing.
    expect(shapes).toHaveLength(4);
    expect(Array.from(shapes[0]!.rings)).toEqual([0, 4]);
    expect(shapes[0]!.minX).toBeCloseTo(128);
    expect(shapes[0]!.maxX).toBeCloseTo(128 + (10 / 360) * 256);
  });
  it('keeps a polygon’s holes as rings of the same shape, so a lake is left open by the fill', () => {
    const [lake] = shapesOf([
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [10, 0],
            [10, 10],
            [0, 10],
            [0, 0],
          ],
          [
            [4, 4],
            [6, 4],
            [6, 6],
            [4, 4],
          ],
        ],
      },
    ]);
    expect(Array.from(lake!.rings)).toEqual([0, 5, 9]);
  });
});

describe('shapesOf, across the date line', () => {
  // A polygon from 170° E to 170° W at 60–70° N, as Natural Earth writes it: it jumps from 180 to -180.
  const strait: Geometry = {
    type: 'Polygon',
    coordinates: [
      [
        [170, 60],
        [180, 60],
        [-170, 60],
        [-170, 70],
        [180, 70],
        [170, 70],
        [170, 60],
      ],
    ],
  };
  // Zoom 2: 4 tiles across; 60–70° N is in row 0.
  const drawnIn = (shapes: Shape[], x: number) => traceTile(recorder().pen, shapes, x, 0, 2, true);

  it('draws nothing over the rest of the world at its latitude (it drew a band round it)', () => {
    const shapes = shapesOf([strait]);
    expect(drawnIn(shapes, 1)).toBe(0);
    expect(drawnIn(shapes, 2)).toBe(0);
    // Both sides of the date line: the first tile column (from -180°) and the last (to 180°).
    expect(drawnIn(shapes, 0)).toBeGreaterThan(0);
    expect(drawnIn(shapes, 3)).toBeGreaterThan(0);
    for (const s of shapes) expect(s.maxX - s.minX).toBeLessThan(TILE_SIZE / 10);
  });

  it('keeps Russia within Russia’s width, in world-atlas’s own data', () => {
    const world = countries as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>;
    const russia = feature(world, world.objects.countries).features.find(
      (f) => f.properties.name === 'Russia',
    );
    const shapes = shapesOf([russia!.geometry]);
    // 27° E to 169° W, about 165° of longitude: not the whole map.
    for (const s of shapes) expect(s.maxX - s.minX).toBeLessThan((TILE_SIZE * 200) / 360);
  });

  it('leaves a ring round a pole as it is (Antarctica’s cannot be made continuous)', () => {
    const pole: Geometry = {
      type: 'Polygon',
      coordinates: [
        [
          [-180, -70],
          [0, -65],
          [180, -70],
          [180, -90],
          [-180, -90],
          [-180, -70],
        ],
      ],
    };
    const shapes = shapesOf([pole]);
    expect(shapes).toHaveLength(1);
    expect(shapes[0]!.minX).toBeCloseTo(0);
    expect(shapes[0]!.maxX).toBeCloseTo(TILE_SIZE);
  });
});

describe('traceTile', () => {
  const usa = shapesOf([
    {
      type: 'Polygon',
      coordinates: [
        [
          [-120, 30],
          [-80, 30],
          [-80, 45],
          [-120, 45],
          [-120, 30],
        ],
      ],
    },
  ]);

  it('traces in the tile’s own pixels: the same corner lands where Leaflet puts it at each zoom', () => {
    for (const z of [0, 3, 7]) {
      const [x0, y0] = mercator(-120, 30).map((v) => v * 2 ** z) as [number, number];
      const tx = Math.floor(x0 / TILE_SIZE);
      const ty = Math.floor(y0 / TILE_SIZE);
      const { pen, calls } = recorder();
      traceTile(pen, usa, tx, ty, z, true);
      const [kind, x, y] = calls[0]!;
      expect(kind).toBe('move');
      expect(x).toBeCloseTo(x0 - tx * TILE_SIZE, 6);
      expect(y).toBeCloseTo(y0 - ty * TILE_SIZE, 6);
      expect(calls.at(-1)![0]).toBe('close');
    }
  });

  it('leaves out the shapes that do not reach into the tile', () => {
    const { pen, calls } = recorder();
    // Zoom 4, a tile over the Indian Ocean.
    expect(traceTile(pen, usa, 11, 8, 4, true)).toBe(0);
    expect(calls).toEqual([]);
  });

  it('draws each line once more than half a pixel moves it, and always the last point', () => {
    // A line of 1,001 points a thousandth of a degree apart: at zoom 2 they fall within 0.003 px.
    const line = shapesOf([
      { type: 'LineString', coordinates: Array.from({ length: 1001 }, (_, i) => [-100 + i / 1000, 40]) },
    ]);
    const { pen, calls } = recorder();
    const [x, y] = mercator(-100, 40).map((v) => Math.floor((v * 4) / TILE_SIZE)) as [number, number];
    const drawn = traceTile(pen, line, x, y, 2, false);
    // The line is 2.8 px long at zoom 2: its two ends and a point each half pixel or so between.
    expect(drawn).toBeLessThanOrEqual(8);
    expect(calls[0]![0]).toBe('move');
    const points = calls.map(([, px, py]) => [px, py] as const);
    for (let i = 1; i < points.length - 1; i++)
      expect(Math.abs(points[i]![0] - points[i - 1]![0])).toBeGreaterThanOrEqual(0.5);
    const [endX] = mercator(-99, 40);
    expect(points.at(-1)![0]).toBeCloseTo(endX * 4 - x * TILE_SIZE, 6);
    // Zoomed in far enough, every point counts.
    const near = recorder();
    const [fx, fy] = mercator(-99.5, 40).map((v) => Math.floor((v * 2 ** 16) / TILE_SIZE)) as [
      number,
      number,
    ];
    expect(traceTile(near.pen, line, fx, fy, 16, false)).toBe(1001);
  });
});

describe('shapesOfInTurns', () => {
  const world = countries as unknown as Topology<{ countries: GeometryCollection }>;
  const geometries = feature(world, world.objects.countries).features.map((f) => f.geometry);

  it('makes the same shapes as shapesOf, in the same order, over several tasks', async () => {
    const turns = vi.spyOn(globalThis, 'setTimeout');
    try {
      // No time at all for a turn: a country per task.
      const inTurns = await shapesOfInTurns(geometries, { geometryOf: (g) => g, budgetMs: 0 });
      expect(inTurns).toEqual(shapesOf(geometries));
      expect(turns.mock.calls.length).toBeGreaterThanOrEqual(geometries.length - 1);
    } finally {
      turns.mockRestore();
    }
  });

  it('makes nothing of nothing', async () => {
    const same = { geometryOf: (g: Geometry | null) => g };
    expect(await shapesOfInTurns([], same)).toEqual([]);
    expect(await shapesOfInTurns([null], same)).toEqual([]);
  });

  it('makes each geometry in its turn, and waits for the turns it is given', async () => {
    const objects = world.objects.countries.geometries;
    const made: number[] = [];
    let turns = 0;
    const inTurns = await shapesOfInTurns(objects, {
      geometryOf: (g) => {
        made.push(turns);
        return topoGeometry(world, g);
      },
      turn: async () => void turns++,
      budgetMs: 0,
    });
    expect(inTurns).toEqual(shapesOf(geometries));
    // One object per turn: the TopoJSON is read a country at a time, not before the first turn.
    expect(made).toEqual(objects.map((_, i) => i));
  });

  it("asks each turn's time at its start", async () => {
    let asked = 0;
    const inTurns = await shapesOfInTurns(geometries, {
      geometryOf: (g) => g,
      turn: async () => undefined,
      // No time in the first turns (one country each), then all the time there is.
      budgetMs: () => (++asked <= 3 ? 0 : 60_000),
    });
    expect(inTurns).toEqual(shapesOf(geometries));
    expect(asked).toBe(4);
  });
});
