import { describe, expect, it } from 'vitest';
import { createHeapBound, exposedGc } from './heap-bound';

const MIB = 2 ** 20;

/** A bound over levels the test sets, whose collections run when the test says. */
function bound(growthMiB: number, afterCollect: number) {
  const state = { level: 0, collections: 0, queued: [] as (() => void)[] };
  const b = createHeapBound({
    growthBytes: growthMiB * MIB,
    measure: () => state.level,
    collect: () => {
      state.collections++;
      state.level = afterCollect * MIB;
    },
    schedule: (run) => state.queued.push(run),
  });
  const at = (mib: number) => {
    state.level = mib * MIB;
    return b.check();
  };
  const runQueued = () => state.queued.splice(0).forEach((run) => run());
  return { b, state, at, runQueued };
}

describe('heap bound', () => {
  it('asks for a collection only once what is held grew past the bound over the lowest level seen', () => {
    const { state, at, runQueued } = bound(64, 90);
    expect(at(100)).toBe(false);
    expect(at(164)).toBe(false);
    // A collection of V8's own brought it lower: growth is counted from there.
    expect(at(80)).toBe(false);
    expect(at(140)).toBe(false);
    runQueued();
    expect(state.collections).toBe(0);
    expect(at(145)).toBe(true);
    runQueued();
    expect(state.collections).toBe(1);
    // Counted again from what the collection left (90).
    expect(at(150)).toBe(false);
    expect(at(155)).toBe(true);
  });

  it('asks for one collection at a time, run after the caller is done, not inside its check', () => {
    const { state, at, runQueued } = bound(10, 20);
    expect(at(20)).toBe(false);
    expect(at(40)).toBe(true);
    expect(state.collections).toBe(0);
    // Still above the bound before it ran: no second one asked for.
    expect(at(60)).toBe(false);
    runQueued();
    expect(state.collections).toBe(1);
  });

  it('by default runs the collection on a later turn of the event loop', async () => {
    let collected = 0;
    let level = 0;
    const b = createHeapBound({
      growthBytes: MIB,
      measure: () => level,
      collect: () => collected++,
    });
    b.check();
    level = 2 * MIB;
    expect(b.check()).toBe(true);
    expect(collected).toBe(0);
    await new Promise((r) => setImmediate(r));
    expect(collected).toBe(1);
    expect(b.collections()).toBe(1);
  });

  it("collects without the process's --expose-gc", async () => {
    let ref: WeakRef<object> | undefined;
    (() => {
      ref = new WeakRef({ big: new Array(1000).fill(0) });
    })();
    // A WeakRef's target is kept until the current job ends.
    await new Promise((r) => setImmediate(r));
    exposedGc()();
    expect(ref?.deref()).toBeUndefined();
  });
});
