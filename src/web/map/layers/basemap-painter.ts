import { startWorker, stopWorker, type WorkerLike } from '@/web/lib/worker-like';
import { TILE_SIZE } from './basemap-shapes';
import type { BasemapReply, BasemapRequest } from './basemap-protocol';
import { basemapShapes, drawTile, type BasemapDetail, type TileCoords } from './basemap-tiles';

/** Who draws the offline basemap's tiles: the basemap's worker, or the page where it has none. */
export interface BasemapPainter {
  /** Settles once a detail's shapes are made; rejects when its files could not be read. */
  load(detail: BasemapDetail): Promise<void>;
  /** The URL of a tile's PNG; null when `signal` aborted it before it was drawn. */
  draw(coords: TileCoords, ratio: number, detail: BasemapDetail, signal: AbortSignal): Promise<string | null>;
  /** A URL `draw` gave is no longer shown. */
  release(url: string): void;
  /** Where the tiles are drawn now (the map's container says so, for tests and diagnostics). */
  where(): 'worker' | 'page';
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
    load: (detail) => basemapShapes(detail).then(() => undefined),
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
  };
}

type BasemapWorkerLike = WorkerLike<BasemapRequest, BasemapReply>;

interface Asked {
  resolve: (image: string | null) => void;
  reject: (error: Error) => void;
  /** The same ask, of the page's painter, if the worker breaks before answering. */
  redo: (painter: BasemapPainter) => Promise<string | null>;
}

/**
 * Tiles drawn by the basemap's worker. If the worker breaks, what it had not answered and every
 * later tile is drawn on the page instead, so the map keeps its basemap.
 */
export function workerPainter(
  worker: BasemapWorkerLike,
  onPage: () => BasemapPainter = pagePainter,
): BasemapPainter {
  let nextId = 0;
  const asked = new Map<number, Asked>();
  let local: BasemapPainter | null = null;
  worker.onmessage = (event) => {
    const reply = event.data;
    const entry = asked.get(reply.id);
    if (!entry) return;
    asked.delete(reply.id);
    if (reply.kind === 'done') entry.resolve(reply.image);
    else entry.reject(new Error(reply.message));
  };
  worker.onerror = worker.onmessageerror = () => {
    if (local) return;
    stopWorker(worker);
    const page = (local = onPage());
    for (const entry of asked.values()) entry.redo(page).then(entry.resolve, entry.reject);
    asked.clear();
  };
  const ask = (
    request: (id: number) => BasemapRequest,
    redo: Asked['redo'],
  ): { id: number; answer: Promise<string | null> } => {
    if (local) return { id: 0, answer: redo(local) };
    const id = ++nextId;
    const answer = new Promise<string | null>((resolve, reject) => asked.set(id, { resolve, reject, redo }));
    worker.postMessage(request(id));
    return { id, answer };
  };
  return {
    load: (detail) =>
      ask(
        (id) => ({ kind: 'load', id, detail }),
        (page) => page.load(detail).then(() => null),
      ).answer.then(() => undefined),
    draw: (coords, ratio, detail, signal) => {
      if (signal.aborted) return Promise.resolve(null);
      const { x, y, z } = coords;
      const { id, answer } = ask(
        (id) => ({ kind: 'draw', id, x, y, z, ratio, detail }),
        (page) => page.draw(coords, ratio, detail, signal),
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
