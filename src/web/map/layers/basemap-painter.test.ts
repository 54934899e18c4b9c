import { describe, expect, it } from 'vitest';
import { workerPainter, type BasemapPainter } from './basemap-painter';
import type { BasemapReply, BasemapRequest } from './basemap-protocol';

/** A stand-in for the basemap's worker: it keeps what it was asked and answers when told to. */
function standIn() {
  const sent: BasemapRequest[] = [];
  const worker = {
    onmessage: null as ((event: MessageEvent<BasemapReply>) => void) | null,
    onerror: null as ((event: Event) => void) | null,
    onmessageerror: null as ((event: MessageEvent) => void) | null,
    terminated: false,
    postMessage(m: BasemapRequest) {
      sent.push(m);
    },
    terminate() {
      this.terminated = true;
    },
    answer(reply: BasemapReply) {
      this.onmessage?.({ data: reply } as MessageEvent<BasemapReply>);
    },
  };
  return { worker, sent };
}

/** A page painter that records what it is asked and draws each tile as a URL naming it. */
function onPage() {
  const asked: string[] = [];
  const painter: BasemapPainter = {
    load: (detail) => {
      asked.push(`load ${detail}`);
      return Promise.resolve();
    },
    draw: (c, ratio, detail) => {
      asked.push(`draw ${c.z}/${c.x}/${c.y} ${detail}`);
      return Promise.resolve(`blob:${c.z}/${c.x}/${c.y} on the page`);
    },
    release: (url) => asked.push(`release ${url}`),
    has: () => false,
    where: () => 'page',
    onMoved: () => () => {},
  };
  return { asked, painter };
}

const tile = { x: 3, y: 5, z: 4 };

describe('the basemap painter over its worker', () => {
  it("asks the worker for each tile and gives each its own image, whatever the answers' order", async () => {
    const { worker, sent } = standIn();
    const painter = workerPainter(worker);
    const first = painter.draw(tile, 2, 'coarse', new AbortController().signal);
    const second = painter.draw({ x: 4, y: 5, z: 4 }, 2, 'fine', new AbortController().signal);
    expect(sent).toEqual([
      { kind: 'draw', id: 1, x: 3, y: 5, z: 4, ratio: 2, detail: 'coarse' },
      { kind: 'draw', id: 2, x: 4, y: 5, z: 4, ratio: 2, detail: 'fine' },
    ]);
    const a = 'blob:http://haulview.test/a';
    const b = 'blob:http://haulview.test/b';
    worker.answer({ kind: 'done', id: 2, image: b });
    worker.answer({ kind: 'done', id: 1, image: a });
    expect(await first).toBe(a);
    expect(await second).toBe(b);
  });

  it('tells the worker of a tile that left the map, and never asks for one already gone', async () => {
    const { worker, sent } = standIn();
    const painter = workerPainter(worker);
    const abort = new AbortController();
    const drawn = painter.draw(tile, 1, 'coarse', abort.signal);
    abort.abort();
    expect(sent.at(-1)).toEqual({ kind: 'cancel', id: 1 });
    worker.answer({ kind: 'done', id: 1, image: null });
    expect(await drawn).toBeNull();

    expect(await painter.draw(tile, 1, 'coarse', abort.signal)).toBeNull();
    expect(sent).toHaveLength(2);
  });

  it('gives back to the worker the URLs it made, once the map no longer shows them', () => {
    const { worker, sent } = standIn();
    workerPainter(worker).release('blob:http://haulview.test/tile');
    expect(sent).toEqual([{ kind: 'release', url: 'blob:http://haulview.test/tile' }]);
  });

  it('knows which shapes the worker has made, for a map mounted again', async () => {
    const { worker } = standIn();
    const painter = workerPainter(worker);
    const loaded = painter.load('coarse');
    expect(painter.has('coarse')).toBe(false);
    worker.answer({ kind: 'done', id: 1, image: null });
    await loaded;
    expect(painter.has('coarse')).toBe(true);
    expect(painter.has('fine')).toBe(false);
  });

  it('moves to the page when the worker cannot draw a tile, and tells the maps to draw theirs again', async () => {
    const { worker } = standIn();
    const page = onPage();
    const painter = workerPainter(worker, () => page.painter);
    let told = 0;
    painter.onMoved(() => told++);
    const drawn = painter.draw(tile, 1, 'coarse', new AbortController().signal);
    worker.answer({ kind: 'failed', id: 1, message: 'the basemap worker has no 2D canvas' });
    expect(await drawn).toBe('blob:4/3/5 on the page');
    expect(worker.terminated).toBe(true);
    expect(painter.where()).toBe('page');
    expect(told).toBe(1);
  });

  it("says why the worker could not read the basemap's files", async () => {
    const { worker } = standIn();
    const loaded = workerPainter(worker).load('fine');
    worker.answer({ kind: 'failed', id: 1, message: 'countries-50m.json could not be fetched (404).' });
    await expect(loaded).rejects.toThrow('countries-50m.json could not be fetched (404).');
  });

  it('draws on the page what a broken worker had not answered, and every tile after', async () => {
    const { worker, sent } = standIn();
    const page = onPage();
    const painter = workerPainter(worker, () => page.painter);
    const answered = painter.draw({ x: 1, y: 1, z: 2 }, 1, 'coarse', new AbortController().signal);
    const image = 'blob:http://haulview.test/from-the-worker';
    worker.answer({ kind: 'done', id: 1, image });
    painter.release(image);
    const waiting = painter.draw(tile, 1, 'coarse', new AbortController().signal);
    const loading = painter.load('fine');

    expect(painter.where()).toBe('worker');
    worker.onerror?.(new Event('error'));
    expect(worker.terminated).toBe(true);
    expect(painter.where()).toBe('page');
    expect(await answered).toBe(image);
    expect(await waiting).toBe('blob:4/3/5 on the page');
    await expect(loading).resolves.toBeUndefined();
    const after = await painter.draw({ x: 9, y: 9, z: 6 }, 1, 'fine', new AbortController().signal);
    expect(after).toBe('blob:6/9/9 on the page');
    painter.release(after as string);
    // Each tile on the page is drawn with shapes the page made first.
    expect(page.asked).toEqual([
      'load coarse',
      'load fine',
      'draw 4/3/5 coarse',
      'load fine',
      'draw 6/9/9 fine',
      'release blob:6/9/9 on the page',
    ]);
    // The worker was asked for the first tile, its URL let go, the second tile and the coast.
    expect(sent.map((m) => m.kind)).toEqual(['draw', 'release', 'draw', 'load']);
  });
});
