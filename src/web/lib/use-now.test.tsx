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
});
