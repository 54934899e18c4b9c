import { afterEach, describe, expect, it, vi } from 'vitest';
import { mirrorCanvas } from './bitmap-mirror';

/** Copies resolved by hand, in any order: the browser makes them asynchronously. */
function fakeBrowser() {
  const pending: { resolve: (b: ImageBitmap) => void; reject: (e: Error) => void }[] = [];
  const shownBitmaps: string[] = [];
  const closed: string[] = [];
  let made = 0;
  vi.stubGlobal(
    'createImageBitmap',
    vi.fn(() => new Promise<ImageBitmap>((resolve, reject) => pending.push({ resolve, reject }))),
  );
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(function (
    this: HTMLCanvasElement,
    kind,
  ) {
    if (kind !== 'bitmaprenderer') return null;
    return {
      transferFromImageBitmap: (b: ImageBitmap & { name: string }) => shownBitmaps.push(b.name),
    } as never;
  });
  const bitmap = () => {
    const name = `copy ${++made}`;
    return { name, close: () => closed.push(name) } as unknown as ImageBitmap;
  };
  return { pending, shownBitmaps, closed, bitmap };
}

function source() {
  const box = document.createElement('div');
  const canvas = document.createElement('canvas');
  const over = document.createElement('div');
  box.append(canvas, over);
  canvas.width = 600;
  canvas.height = 260;
  canvas.style.width = '300px';
  canvas.style.height = '130px';
  return { box, canvas, over };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('mirrorCanvas', () => {
  it('shows the latest draw through a copy under what lies over the source, and hides the source only then', async () => {
    const b = fakeBrowser();
    const { box, canvas, over } = source();
    const mirror = mirrorCanvas(canvas);
    expect(mirror).toBeDefined();
    const shown = box.children[1] as HTMLCanvasElement;
    expect([...box.children]).toEqual([canvas, shown, over]);

    mirror?.update();
    expect(canvas.style.visibility).toBe('');
    mirror?.update();
    // The first draw's copy comes last: it is stale, dropped and freed.
    b.pending[1]?.resolve(b.bitmap());
    await Promise.resolve();
    b.pending[0]?.resolve(b.bitmap());
    await Promise.resolve();
    expect(b.shownBitmaps).toEqual(['copy 1']);
    expect(b.closed).toEqual(['copy 2']);
    expect(canvas.style.visibility).toBe('hidden');
    expect([shown.width, shown.height, shown.style.width, shown.style.height]).toEqual([
      600,
      260,
      '300px',
      '130px',
    ]);

    mirror?.remove();
    expect(box.contains(shown)).toBe(false);
    expect(canvas.style.visibility).toBe('');
  });

  it('leaves the source showing when it cannot be copied, or when the browser has no bitmap renderer', async () => {
    const b = fakeBrowser();
    const { canvas } = source();
    const mirror = mirrorCanvas(canvas);
    mirror?.update();
    b.pending[0]?.reject(new Error('a canvas of no size'));
    await Promise.resolve();
    await Promise.resolve();
    expect(canvas.style.visibility).toBe('');

    vi.restoreAllMocks();
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
    const { box, canvas: other } = source();
    expect(mirrorCanvas(other)).toBeUndefined();
    expect(box.children).toHaveLength(2);
  });
});
