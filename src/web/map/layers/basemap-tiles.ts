import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries110mUrl from 'world-atlas/countries-110m.json?url';
import countries50mUrl from 'world-atlas/countries-50m.json?url';
import states10mUrl from 'us-atlas/states-10m.json?url';
import { shapesOf, shapesOfInTurns, TILE_SIZE, traceTile, type BasemapShapes } from './basemap-shapes';

/**
 * The offline basemap's shapes and how a tile is drawn from them, the same in the basemap's worker
 * (basemap-worker.ts) and on the page where there is no worker (basemap-painter.ts).
 */

/** The coarse shapes (1:110m countries) or the fine ones (1:50m) a tile is drawn with. */
export type BasemapDetail = 'coarse' | 'fine';

/** A tile's place: x, y at zoom z, as Leaflet counts them. */
export interface TileCoords {
  x: number;
  y: number;
  z: number;
}

const LAND = { stroke: '#b9b4a5', width: 0.6, fill: '#f4f1ea' };
/** Lakes take the sea's colour (the map's own background, styles.css) and a finer shore. */
const WATER = { stroke: '#b9b4a5', width: 0.4, fill: '#dbe7f0' };
const STATE_LINES = { stroke: '#a8a292', width: 0.7, dash: [3, 3] };

type Countries = Topology<{ countries: GeometryCollection }>;
type TileContext = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

/**
 * An atlas's topology, fetched as a file (same origin, offline too) rather than imported: an imported
 * module is held for the thread's life, and the 1:50m countries are many small arrays in the heap,
 * traced at every major collection, long after their shapes were made (typed arrays). Fetched, the
 * topology goes once its shapes are made.
 */
async function atlas<T>(url: string): Promise<T> {
  const response = await fetch(url);
  if (!response.ok)
    throw new Error(`The offline basemap's ${url} could not be fetched (${response.status}).`);
  return (await response.json()) as T;
}
const countriesOf = (topo: Countries) =>
  feature(topo, topo.objects.countries).features.map((f) => f.geometry);

/**
 * The shapes made from the atlases, made once per thread and kept (typed arrays, which a collection
 * does not trace): a map mounted again draws at once, without fetching and reading the topologies
 * again. Shapes that failed are asked for again next time.
 */
let coarseMade: Promise<BasemapShapes> | undefined;
let fineMade: Promise<BasemapShapes> | undefined;
function forgetOnFailure<T>(made: Promise<T>, forget: () => void): Promise<T> {
  return made.catch((error: unknown) => {
    forget();
    throw error;
  });
}

const coarseShapes = (): Promise<BasemapShapes> =>
  (coarseMade ??= forgetOnFailure(
    Promise.all([
      atlas<Countries>(countries110mUrl),
      atlas<Topology<{ states: GeometryCollection }>>(states10mUrl),
      import('virtual:basemap/north-america-coarse'),
    ]).then(([world, usTopo, northAmerica]) => ({
      land: shapesOf(countriesOf(world)),
      water: shapesOf(northAmerica.default.lakes),
      lines: shapesOf([
        mesh(usTopo, usTopo.objects.states, (a, b) => a !== b),
        northAmerica.default.provinceLines,
      ]),
    })),
    () => (coarseMade = undefined),
  ));

// The fine coast keeps the coarse shapes' lines (states and provinces), so it waits for them too;
// asked for first, it does not lose them if it arrives before.
const fineShapes = (): Promise<BasemapShapes> =>
  (fineMade ??= forgetOnFailure(
    Promise.all([
      coarseShapes(),
      atlas<Countries>(countries50mUrl),
      import('virtual:basemap/north-america-fine'),
    ]).then(
      // Made in turns: where this runs on the page, it comes in the middle of a zoom.
      async ([base, world, northAmerica]) => ({
        land: await shapesOfInTurns(countriesOf(world)),
        water: shapesOf(northAmerica.default.lakes),
        lines: base.lines,
      }),
    ),
    () => (fineMade = undefined),
  ));

/** The shapes of a detail, fetched and made the first time they are asked for. */
export const basemapShapes = (detail: BasemapDetail): Promise<BasemapShapes> =>
  detail === 'fine' ? fineShapes() : coarseShapes();

/** Fills what was traced (even-odd: a polygon's holes stay open) and strokes its outline. */
function paint(ctx: TileContext, style: { fill: string; stroke: string; width: number }): void {
  ctx.fillStyle = style.fill;
  ctx.fill('evenodd');
  ctx.strokeStyle = style.stroke;
  ctx.lineWidth = style.width;
  ctx.stroke();
}

/**
 * Draws one tile on a canvas of TILE_SIZE × ratio pixels a side: land filled, with its coasts and
 * borders; lakes over it; then the lines over both.
 */
export function drawTile(ctx: TileContext, shapes: BasemapShapes, coords: TileCoords, ratio: number): void {
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, TILE_SIZE, TILE_SIZE);
  ctx.beginPath();
  traceTile(ctx, shapes.land, coords.x, coords.y, coords.z, true);
  paint(ctx, LAND);
  ctx.beginPath();
  // Islands in a lake are holes in its polygon: even-odd leaves them land.
  if (traceTile(ctx, shapes.water, coords.x, coords.y, coords.z, true) > 0) paint(ctx, WATER);
  ctx.beginPath();
  traceTile(ctx, shapes.lines, coords.x, coords.y, coords.z, false);
  ctx.setLineDash(STATE_LINES.dash);
  ctx.strokeStyle = STATE_LINES.stroke;
  ctx.lineWidth = STATE_LINES.width;
  ctx.stroke();
  ctx.setLineDash([]);
}
