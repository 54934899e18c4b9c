/// <reference lib="webworker" />
// The offline basemap, off the page's main thread: the atlases are read and their shapes made here,
// and each tile is drawn and encoded here, so a pan or a zoom's frames carry none of it.
import { TILE_SIZE } from './basemap-shapes';
import type { BasemapReply, BasemapRequest } from './basemap-protocol';
import { basemapShapes, drawTile } from './basemap-tiles';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (reply: BasemapReply) => scope.postMessage(reply);
const failed = (id: number, error: unknown) =>
  post({ kind: 'failed', id, message: error instanceof Error ? error.message : String(error) });

type Draw = Extract<BasemapRequest, { kind: 'draw' }>;
/** Draws waiting, in the order asked; one is drawn per task, so a cancel can come in between. */
const waiting = new Map<number, Draw>();
let canvas: OffscreenCanvas | null = null;
let pumping = false;
// The next draw comes in a task of its own, after the messages already in (a cancel): a message on a
// channel, not setTimeout, which waits 4 ms once such timers nest.
const turns = new MessageChannel();
turns.port1.onmessage = () => void drawNext();
const nextTurn = () => turns.port2.postMessage(null);

async function drawNext(): Promise<void> {
  const next = waiting.values().next();
  if (next.done) {
    pumping = false;
    return;
  }
  const m = next.value;
  waiting.delete(m.id);
  try {
    const shapes = await basemapShapes(m.detail);
    const side = TILE_SIZE * m.ratio;
    if (!canvas) canvas = new OffscreenCanvas(side, side);
    else if (canvas.width !== side) canvas.width = canvas.height = side;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('the basemap worker has no 2D canvas');
    drawTile(ctx, shapes, m, m.ratio);
    // The canvas's pixels are taken at this call; the next tile may draw over it at once.
    const encoded = canvas.convertToBlob({ type: 'image/png' });
    void encoded.then(
      (image) => post({ kind: 'done', id: m.id, image: URL.createObjectURL(image) }),
      (error: unknown) => failed(m.id, error),
    );
  } catch (error) {
    failed(m.id, error);
  }
  nextTurn();
}

scope.onmessage = (event: MessageEvent<BasemapRequest>) => {
  const m = event.data;
  if (m.kind === 'load')
    basemapShapes(m.detail).then(
      () => post({ kind: 'done', id: m.id, image: null }),
      (error: unknown) => failed(m.id, error),
    );
  else if (m.kind === 'release') URL.revokeObjectURL(m.url);
  else if (m.kind === 'cancel') {
    if (waiting.delete(m.id)) post({ kind: 'done', id: m.id, image: null });
  } else {
    waiting.set(m.id, m);
    if (!pumping) {
      pumping = true;
      nextTurn();
    }
  }
};
