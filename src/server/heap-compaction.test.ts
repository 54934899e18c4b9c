import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { compactHeap, createOldSpaceKeeper } from './heap-compaction';

const MIB = 2 ** 20;

function oldSpace(): { held: number; used: number } {
  const space = getHeapSpaceStatistics().find((s) => s.space_name === 'old_space');
  if (!space) throw new Error('V8 reports no old space');
  return { held: space.space_size, used: space.space_used_size };
}

describe('compactHeap', () => {
  it('gives back the old space a burst left scattered with survivors', () => {
    // A pull's shape: many small objects promoted together, one in ten of them kept past it.
    const kept: object[] = [];
    let burst: object[][] = [];
    for (let round = 0; round < 12; round++) {
      const part: object[] = [];
      for (let i = 0; i < 100_000; i++) {
        const item = { at: i, key: `k${round}:${i}`, pair: [i, round] };
        part.push(item);
        if (i % 10 === 0) kept.push(item);
      }
      burst.push(part);
    }
    const before = oldSpace();
    burst = [];
    expect(compactHeap()).toBe(true);
    const after = oldSpace();
    expect(before.held).toBeGreaterThan(after.used + 64 * MIB);
    // Every page left is mostly full: what is live, with little room beside it.
    expect(after.held).toBeLessThan(after.used * 1.5 + 4 * MIB);
    expect(kept).toHaveLength(12 * 10_000);
    expect(burst).toHaveLength(0);
  });

  it('keeps the old space near what it used after the last compaction: compacts only past factor and slack', () => {
    const MB = 2 ** 20;
    let space = { held: 40 * MB, used: 30 * MB };
    const compactions: number[] = [];
    const keeper = createOldSpaceKeeper({
      factor: 1.5,
      slackBytes: 32 * MB,
      busyShare: 1,
      read: () => space,
      compact: () => {
        compactions.push(space.held / MB);
        space = { held: 110 * MB, used: 100 * MB };
        return true;
      },
    });
    // Before any compaction, only the slack counts.
    expect(keeper.check()).toBe(true);
    expect(compactions).toEqual([40]);
    // 100 MiB live: up to 150 MiB held is left alone, beyond it compacted.
    space = { held: 150 * MB, used: 140 * MB };
    expect(keeper.check()).toBe(false);
    space = { held: 151 * MB, used: 140 * MB };
    expect(keeper.check()).toBe(true);
    expect(compactions).toEqual([40, 151]);
    // A small live heap grows by the slack, not the factor.
    const small = createOldSpaceKeeper({
      factor: 1.5,
      slackBytes: 32 * MB,
      busyShare: 1,
      read: () => ({ held: 20 * MB, used: 10 * MB }),
      compact: () => {
        compactions.push(-1);
        return true;
      },
    });
    expect(small.check()).toBe(false);
    expect(compactions).toEqual([40, 151]);
  });

  it('takes at most busyShare of the time: after a compaction of d ms, none for d / busyShare ms', () => {
    const MB = 2 ** 20;
    let t = 0;
    let space = { held: 400 * MB, used: 390 * MB };
    const at: number[] = [];
    const keeper = createOldSpaceKeeper({
      factor: 1.25,
      slackBytes: 16 * MB,
      busyShare: 0.01,
      now: () => t,
      read: () => space,
      compact: () => {
        at.push(t);
        t += 300;
        space = { held: 110 * MB, used: 100 * MB };
        return true;
      },
    });
    expect(keeper.check()).toBe(true);
    // Grown past the bound again at once (a pull going on): left alone for 30 s from the start.
    space = { held: 300 * MB, used: 290 * MB };
    t = 29_999;
    expect(keeper.check()).toBe(false);
    t = 30_000;
    expect(keeper.check()).toBe(true);
    expect(at).toEqual([0, 30_000]);
  });
});
