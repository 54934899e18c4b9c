import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FrameSlices } from './frame-slices';

/** Frames run by hand, and a clock that moves a millisecond with each change applied. */
let frames: Map<number, FrameRequestCallback>;
let now: number;
const nextFrame = () => {
  const due = [...frames];
  frames.clear();
  for (const [, callback] of due) callback(now);
};

beforeEach(() => {
  frames = new Map();
  now = 0;
  let id = 0;
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
    frames.set(++id, callback);
    return id;
  });
  vi.stubGlobal('cancelAnimationFrame', (handle: number) => frames.delete(handle));
  vi.spyOn(performance, 'now').mockImplementation(() => now);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('frame slices', () => {
  it('holds the drawing back while a run goes on over frames, and lets it go after the last change', () => {
    const held: boolean[] = [];
    const slices = new FrameSlices((on) => held.push(on));
    const applied: number[] = [];
    let finished = false;
    slices.run(
      Array.from({ length: 200 }, (_, i) => i),
      (i) => {
        applied.push(i);
        now += 1;
      },
      () => (finished = true),
    );
    // A first slice in this frame, then held.
    expect(applied.length).toBeGreaterThan(0);
    expect(applied.length).toBeLessThan(200);
    expect(held).toEqual([true]);
    while (frames.size > 0 && !finished) nextFrame();
    expect(applied).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(finished).toBe(true);
    expect(held).toEqual([true, false]);
  });

  it('holds nothing back when a run ends in its first frame', () => {
    const held: boolean[] = [];
    let finished = false;
    new FrameSlices((on) => held.push(on)).run(
      [1, 2, 3],
      () => {},
      () => (finished = true),
    );
    expect(finished).toBe(true);
    expect(held).toEqual([]);
  });

  it('lets go when a held run is dropped, by a new run or by cancel', () => {
    const held: boolean[] = [];
    const slices = new FrameSlices((on) => held.push(on));
    const long = Array.from({ length: 500 }, (_, i) => i);
    const slow = () => (now += 1);
    const dropped: string[] = [];
    slices.run(long, slow, () => dropped.push('first'));
    expect(held).toEqual([true]);
    // A new run that ends at once takes over: the first never ends, and the hold is let go once.
    slices.run(
      [1],
      () => {},
      () => dropped.push('second'),
    );
    expect(held).toEqual([true, false]);
    nextFrame();
    expect(dropped).toEqual(['second']);

    slices.run(long, slow, () => dropped.push('third'));
    expect(held).toEqual([true, false, true]);
    slices.cancel();
    expect(held).toEqual([true, false, true, false]);
    nextFrame();
    expect(dropped).toEqual(['second']);
  });
});
