import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Load } from '@/domain/model';
import type { StalenessThresholds } from '@/domain/staleness';
import { useLevelNow } from './use-now';

const MIN = 60_000;
const T: StalenessThresholds = { staleAfterMinutes: 30, silentAfterMinutes: 120 };
const pingedAt = (instant: number) => ({ latestLocation: { instant } }) as unknown as Load;

describe('useLevelNow', () => {
  it('holds the time staleness was judged at until a load crosses a threshold', () => {
    const start = 1_000 * MIN;
    // One load turns stale 10 minutes from the start.
    const loads = [pingedAt(start - 20 * MIN), pingedAt(start - 5 * MIN)];
    const { result, rerender } = renderHook(({ now, list }) => useLevelNow(list, now, T), {
      initialProps: { now: start, list: loads },
    });
    expect(result.current).toBe(start);
    // Ticks of 5 s for 9 minutes: nothing changes level, the same time.
    for (let now = start; now < start + 9 * MIN; now += 5_000) {
      rerender({ now, list: loads });
      expect(result.current).toBe(start);
    }
    // The first tick at or past the crossing moves on.
    rerender({ now: start + 10 * MIN + 2_000, list: loads });
    expect(result.current).toBe(start + 10 * MIN + 2_000);
    const held = start + 10 * MIN + 2_000;
    // New loads (a refresh) that are at the same level judged then or now keep the time: the rows
    // and points of the loads that did not change are kept.
    const refreshed = [...loads, pingedAt(start + 10 * MIN)];
    rerender({ now: start + 10 * MIN + 7_000, list: refreshed });
    expect(result.current).toBe(held);
    // A refresh with a load that turned stale between the held time and now is judged now: its
    // ping is 30 minutes old at start + 10 min + 4 s.
    const crossing = [...refreshed, pingedAt(start - 20 * MIN + 4_000)];
    rerender({ now: start + 10 * MIN + 12_000, list: crossing });
    expect(result.current).toBe(start + 10 * MIN + 12_000);
  });

  it('judges a refresh that replaced loads in their places by the replaced ones, and misses no crossing', () => {
    const start = 1_000 * MIN;
    // Stale in 10 and in 20 minutes; silent much later.
    const loads = [pingedAt(start - 20 * MIN), pingedAt(start - 10 * MIN), pingedAt(start - MIN)];
    const { result, rerender } = renderHook(({ now, list }) => useLevelNow(list, now, T), {
      initialProps: { now: start, list: loads },
    });
    // The first load reports again: in its place, fresh.
    const refreshed = [pingedAt(start + MIN), loads[1]!, loads[2]!];
    rerender({ now: start + 2 * MIN, list: refreshed });
    expect(result.current).toBe(start);
    // Its old crossing (10 min) may wake the judge early: the time moves on, and nothing is missed.
    rerender({ now: start + 10 * MIN, list: refreshed });
    const judged = result.current;
    expect(judged).toBeLessThanOrEqual(start + 10 * MIN);
    // The second load crosses at 20 minutes: the first tick past it is judged then.
    rerender({ now: start + 19 * MIN, list: refreshed });
    expect(result.current).toBe(judged);
    rerender({ now: start + 20 * MIN + 1_000, list: refreshed });
    expect(result.current).toBe(start + 20 * MIN + 1_000);
    // A load replaced in its place by one that crossed between the held time and now: judged now.
    const held = result.current;
    const crossing = [refreshed[0]!, refreshed[1]!, pingedAt(held - 30 * MIN + 1_000)];
    rerender({ now: held + 5_000, list: crossing });
    expect(result.current).toBe(held + 5_000);
  });
});
