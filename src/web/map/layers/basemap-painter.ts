import { startWorker, stopWorker, type WorkerLike } from '@/web/lib/worker-like';
import { TILE_SIZE } from './basemap-shapes';
import type { BasemapReply, BasemapRequest } from './basemap-protocol';
import { basemapShapes, drawTile, type BasemapDetail, type TileCoords } from './basemap-tiles';

/** Who draws the offline basemap's tiles: the basemap's worker, or the page where it has none. */
export interface BasemapPainter {
  /** Settles once a detail's shapes are made; rejects when its files could not be read. */
  load(detail: BasemapDetail): Promise<void>;
  /** Whether a detail's shapes are made already (a map mounted again draws with them at once). */
  has(detail: BasemapDetail): boolean;
  /**
   * The URL of a tile's PNG, drawn with a detail `load` has made; null when `signal` aborted it
   * before it was drawn.
   */
  draw(coords: TileCoords, ratio: number, detail: BasemapDetail, signal: AbortSignal): Promise<string | null>;
  /** A URL `draw` gave is no longer shown. */
  release(url: string): void;
  /** Where the tiles are drawn now (the map's container says so, for tests and diagnostics). */
  where(): 'worker' | 'page';
  /**
   * Calls `listener` when the drawing moves from the worker to the page (the worker broke): the
   * worker's URLs went with it, so what a map shows is to be drawn again. Returns the unsubscribe.
   */
  onMoved(listener: () => void): () => void;
}

/** Main-thread time a frame may spend drawing tiles on the page; the rest waits for the next frame. */
const FRAME_BUDGET_MS = 4;

interface Job {
  coords: TileCoords;
  ratio: number;
  shapes: Awaited<ReturnType<typeof basemapShapes>>;
  signal: AbortSignal;
  resolve: (image: string | null) => void;
  reject: (error: Error) => void;
}

/**
 * Tiles drawn on the page's thread (where workers or OffscreenCanvas are missing), a few per frame,
 * on one canvas off the page, so a zoom or a pan never waits for the whole basemap.
 */
export function pagePainter(): BasemapPainter {
  const scratch = document.createElement('canvas');
  const made = new Set<BasemapDetail>();
  const queue: Job[] = [];
  let frame = 0;
  const work = () => {
    frame = 0;
    const start = performance.now();
    while (queue.length > 0 && performance.now() - start < FRAME_BUDGET_MS) {
      const job = queue.shift() as Job;
      if (job.signal.aborted) {
        job.resolve(null);
        continue;
      }
      // Sized at each tile: the pixel ratio changes when the browser's zoom does.
      const side = TILE_SIZE * job.ratio;
      if (scratch.width !== side) scratch.width = scratch.height = side;
      const ctx = scratch.getContext('2d');
      if (!ctx) {
        job.reject(new Error('the basemap has no 2D canvas'));
        continue;
      }
      drawTile(ctx, job.shapes, job.coords, job.ratio);
      // toBlob takes the canvas's pixels now; Chromium encodes the PNG in the page's idle time.
      scratch.toBlob((image) =>
        image
          ? job.resolve(URL.createObjectURL(image))
          : job.reject(new Error('the basemap tile could not be encoded')),
      );
    }
    if (queue.length > 0) frame = requestAnimationFrame(work);
  };
  return {
    load: (detail) =>
      basemapShapes(detail).then(() => {
        made.add(detail);
      }),
    has: (detail) => made.has(detail),
    draw: (coords, ratio, detail, signal) =>
      basemapShapes(detail).then(
        (shapes) =>
          new Promise<string | null>((resolve, reject) => {
            queue.push({ coords, ratio, shapes, signal, resolve, reject });
            if (frame === 0) frame = requestAnimationFrame(work);
          }),
      ),
    release: (url) => URL.revokeObjectURL(url),
    where: () => 'page',
    onMoved: () => () => {},
  };
}

type BasemapWorkerLike = WorkerLike<BasemapRequest, BasemapReply>;

interface Asked {
  resolve: (image: string | null) => void;
  reject: (error: Error) => void;
  /** The same ask, of the page's painter, if the worker breaks before answering. */
  redo: (painter: BasemapPainter) => Promise<string | null>;
  /** A drawing, not a load: its failure is the worker's, not the files'. */
  draw: boolean;
}

/**
 * Tiles drawn by the basemap's worker. If the worker breaks, or cannot draw (a tile it could not
 * draw with shapes it had made), what it had not answered and every later tile is drawn on the
 * page instead, so the map keeps its basemap.
 */
export function workerPainter(
  worker: BasemapWorkerLike,
  onPage: () => BasemapPainter = pagePainter,
): BasemapPainter {
  let nextId = 0;
  const asked = new Map<number, Asked>();
  const made = new Set<BasemapDetail>();
  const moved = new Set<() => void>();
  let local: BasemapPainter | null = null;
  const moveToPage = () => {
    if (local) return;
    stopWorker(worker);
    const page = (local = onPage());
    const left = [...asked.values()];
    asked.clear();
    for (const entry of left) entry.redo(page).then(entry.resolve, entry.reject);
    for (const listener of moved) listener();
  };
  worker.onmessage = (event) => {
    const reply = event.data;
    const entry = asked.get(reply.id);
    if (!entry) return;
    if (reply.kind === 'failed' && entry.draw) return moveToPage();
    asked.delete(reply.id);
    if (reply.kind === 'done') entry.resolve(reply.image);
    else entry.reject(new Error(reply.message));
  };
  worker.onerror = worker.onmessageerror = moveToPage;
  const ask = (
    request: (id: number) => BasemapRequest,
    redo: Asked['redo'],
    draw: boolean,
  ): { id: number; answer: Promise<string | null> } => {
    if (local) return { id: 0, answer: redo(local) };
    const id = ++nextId;
    const answer = new Promise<string | null>((resolve, reject) =>
      asked.set(id, { resolve, reject, redo, draw }),
    );
    worker.postMessage(request(id));
    return { id, answer };
  };
  return {
    load: (detail) =>
      ask(
        (id) => ({ kind: 'load', id, detail }),
        (page) => page.load(detail).then(() => null),
        false,
      ).answer.then(() => {
        made.add(detail);
      }),
    has: (detail) => (local ? local.has(detail) : made.has(detail)),
    draw: (coords, ratio, detail, signal) => {
      if (signal.aborted) return Promise.resolve(null);
      const { x, y, z } = coords;
      const { id, answer } = ask(
        (id) => ({ kind: 'draw', id, x, y, z, ratio, detail }),
        // The page makes its own shapes first: a tile is drawn only with shapes made.
        (page) => page.load(detail).then(() => page.draw(coords, ratio, detail, signal)),
        true,
      );
      signal.addEventListener(
        'abort',
        () => {
          if (asked.has(id)) worker.postMessage({ kind: 'cancel', id });
        },
        { once: true },
      );
      return answer;
    },
    // A URL the worker made goes with the worker; one the page made is let go here.
    release: (url) => {
      if (local) local.release(url);
      else worker.postMessage({ kind: 'release', url });
    },
    where: () => (local ? 'page' : 'worker'),
    onMoved: (listener) => {
      moved.add(listener);
      return () => moved.delete(listener);
    },
  };
}

let painter: BasemapPainter | undefined;

/**
 * The page's basemap painter, one for every map of the page so the shapes are made once: the
 * worker where the browser can draw in one (OffscreenCanvas), the page otherwise.
 */
export function basemapPainter(): BasemapPainter {
  if (painter) return painter;
  const worker =
    typeof OffscreenCanvas === 'undefined'
      ? null
      : startWorker<BasemapRequest, BasemapReply>(
          () =>
            new Worker(new URL('./basemap-worker.ts', import.meta.url), { type: 'module', name: 'basemap' }),
        );
  return (painter = worker ? workerPainter(worker) : pagePainter());
}
