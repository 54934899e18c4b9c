import type { Geometry } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryObject, Topology } from 'topojson-specification';

/** The side of a basemap tile in CSS pixels, and the width of the world at zoom 0 in the same units. */
export const TILE_SIZE = 256;
/** Web Mercator stops here: beyond it y runs off to infinity. */
const MAX_LATITUDE = 85.0511287798;

/**
 * A polygon's rings (or one line) projected once to Web Mercator in zoom-0 pixels (the world is
 * TILE_SIZE wide), as flat x,y pairs. Drawing a tile at zoom z then only scales by 2^z and shifts:
 * nothing is projected again and no point objects are made, at any zoom.
 */
export interface Shape {
  /** x0, y0, x1, y1… of every ring, one after the other. */
  coords: Float64Array;
  /** Where each ring starts in `coords`, counted in points, and one more entry for the end. */
  rings: Uint32Array;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** What a basemap tile draws: land (filled, with its coast and borders), lakes over it, and lines over both. */
export interface BasemapShapes {
  land: Shape[];
  water: Shape[];
  lines: Shape[];
}

export function mercator(lon: number, lat: number): [number, number] {
  const phi = (Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat)) * Math.PI) / 180;
  const x = ((lon + 180) / 360) * TILE_SIZE;
  const y = ((1 - Math.log(Math.tan(Math.PI / 4 + phi / 2)) / Math.PI) / 2) * TILE_SIZE;
  return [x, y];
}

/** A polygon's rings, or a line as one ring, in GeoJSON positions (longitude, latitude). */
type Rings = readonly (readonly (readonly number[])[])[];

function shapeOf(rings: Rings): Shape | null {
  const points = rings.reduce((n, r) => n + r.length, 0);
  if (points < 2) return null;
  const coords = new Float64Array(points * 2);
  const starts = new Uint32Array(rings.length + 1);
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  let at = 0;
  rings.forEach((ring, r) => {
    starts[r] = at;
    for (const position of ring) {
      const [x, y] = mercator(Number(position[0]), Number(position[1]));
      coords[at * 2] = x;
      coords[at * 2 + 1] = y;
      at++;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  });
  starts[rings.length] = at;
  return { coords, rings: starts, minX, minY, maxX, maxY };
}

/**
 * A polygon or line that crosses the date line (Russia's Chukotka, Fiji) jumps from 180° to -180°
 * between two points: drawn as it is, its ring runs across the whole map, and the even-odd fill turns
 * a band round the world into water. Its longitudes are made continuous instead (past 180° or
 * -180°), and a copy a world-width away draws the part on the other side. A ring that goes round a
 * pole (Antarctica's) cannot be made continuous and is left as it is.
 */
function acrossDateLine(rings: Rings): Rings[] {
  let crosses = false;
  let west = Infinity;
  let east = -Infinity;
  const continuous = rings.map((ring) => {
    let offset = 0;
    let previous: number | undefined;
    const out = ring.map((position) => {
      const lon = Number(position[0]);
      if (previous !== undefined && Math.abs(lon - previous) > 180) offset += lon > previous ? -360 : 360;
      previous = lon;
      return offset === 0 ? position : [lon + offset, Number(position[1])];
    });
    if (offset !== 0) return ring;
    for (const position of out) {
      const lon = Number(position[0]);
      if (lon < west) west = lon;
      if (lon > east) east = lon;
    }
    if (out.some((position, i) => position !== ring[i])) crosses = true;
    return out;
  });
  if (!crosses) return [rings];
  const shift = east > 180 ? -360 : west < -180 ? 360 : 0;
  const copy = continuous.map((ring) => ring.map((p) => [Number(p[0]) + shift, Number(p[1])]));
  return shift === 0 ? [continuous] : [continuous, copy];
}

/**
 * The shapes of GeoJSON geometries: one per polygon (so a country's far-off islands are culled on
 * their own), one per line, and two for one that crosses the date line. Points and empty geometries
 * draw nothing.
 */
export function shapesOf(geometries: readonly (Geometry | null)[]): Shape[] {
  const shapes: Shape[] = [];
  const add = (rings: Rings) => {
    for (const part of acrossDateLine(rings)) {
      const shape = shapeOf(part);
      if (shape) shapes.push(shape);
    }
  };
  const visit = (g: Geometry | null): void => {
    if (!g) return;
    switch (g.type) {
      case 'Polygon':
        return add(g.coordinates);
      case 'MultiPolygon':
        return g.coordinates.forEach(add);
      case 'LineString':
        return add([g.coordinates]);
      case 'MultiLineString':
        return g.coordinates.forEach((line) => add([line]));
      case 'GeometryCollection':
        return g.geometries.forEach(visit);
      default:
        return;
    }
  };
  geometries.forEach(visit);
  return shapes;
}

/** One object of a TopoJSON topology as a GeoJSON geometry (a collection of them as one). */
export function topoGeometry(topology: Topology, object: GeometryObject): Geometry | null {
  const made = feature(topology, object);
  if (made.type === 'Feature') return made.geometry;
  return { type: 'GeometryCollection', geometries: made.features.map((f) => f.geometry) };
}

/** The next task: what a turn of `shapesOfInTurns` waits for unless told otherwise. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * `shapesOf`, a few items at a time, each turn within `budgetMs` and the next when `turn` says (by
 * default a task of its own): the 1:50m countries are made between a zoom's frames or in the page's
 * idle time, not in one long task that stalls a frame. `geometryOf` makes an item's geometry in its
 * turn (a TopoJSON object's feature), so that too is spread over the turns.
 */
export async function shapesOfInTurns<T>(
  items: readonly T[],
  how: {
    geometryOf: (item: T) => Geometry | null;
    turn?: () => Promise<void>;
    /** A turn's time, or what tells it at the turn's start (an idle period's time left). */
    budgetMs?: number | (() => number);
  },
): Promise<Shape[]> {
  const { geometryOf, turn = nextTask, budgetMs = 4 } = how;
  const shapes: Shape[] = [];
  let next = 0;
  while (next < items.length) {
    const until = performance.now() + (typeof budgetMs === 'number' ? budgetMs : budgetMs());
    do {
      for (const shape of shapesOf([geometryOf(items[next] as T)])) shapes.push(shape);
      next++;
    } while (next < items.length && performance.now() < until);
    if (next < items.length) await turn();
  }
  return shapes;
}

/** The part of a canvas context a tile draws with (so a test can record the drawing). */
export type TilePen = Pick<CanvasRenderingContext2D, 'beginPath' | 'moveTo' | 'lineTo' | 'closePath'>;

/**
 * Traces the shapes that reach into tile (x, y) at zoom z, in the tile's own pixels. Points closer
 * than half a pixel to the last one drawn are left out (a continent at zoom 3 is a few hundred
 * points, not tens of thousands); a ring's last point is always drawn. Returns how many points it drew.
 */
export function traceTile(
  pen: TilePen,
  shapes: readonly Shape[],
  x: number,
  y: number,
  z: number,
  close: boolean,
): number {
  const scale = 2 ** z;
  const left = x * TILE_SIZE;
  const top = y * TILE_SIZE;
  // In zoom-0 pixels, with a pixel of margin so a line on the tile's edge is drawn on both tiles.
  const margin = 2 / scale;
  const minX = left / scale - margin;
  const minY = top / scale - margin;
  const maxX = (left + TILE_SIZE) / scale + margin;
  const maxY = (top + TILE_SIZE) / scale + margin;
  let drawn = 0;
  for (const s of shapes) {
    if (s.maxX < minX || s.minX > maxX || s.maxY < minY || s.minY > maxY) continue;
    const c = s.coords;
    for (let r = 0; r + 1 < s.rings.length; r++) {
      const start = s.rings[r] as number;
      const end = s.rings[r + 1] as number;
      if (end - start < 2) continue;
      let lx = (c[start * 2] as number) * scale - left;
      let ly = (c[start * 2 + 1] as number) * scale - top;
      pen.moveTo(lx, ly);
      drawn++;
      for (let i = start + 1; i < end; i++) {
        const px = (c[i * 2] as number) * scale - left;
        const py = (c[i * 2 + 1] as number) * scale - top;
        if (i < end - 1 && Math.abs(px - lx) < 0.5 && Math.abs(py - ly) < 0.5) continue;
        pen.lineTo(px, py);
        drawn++;
        lx = px;
        ly = py;
      }
      if (close) pen.closePath();
    }
  }
  return drawn;
}
