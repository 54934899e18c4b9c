import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Load } from '@/domain/model';
import type { StalenessThresholds } from '@/domain/staleness';
import { useLevelNow, useNow } from './use-now';

const MIN = 60_000;
const T: StalenessThresholds = { staleAfterMinutes: 30, silentAfterMinutes: 120 };
const pingedAt = (instant: number) => ({ latestLocation: { instant } }) as unknown as Load;
const start = 1_000 * MIN;

beforeEach(() => {
  vi.useFakeTimers({ now: start });
});
afterEach(() => {
  vi.useRealTimers();
});
const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms));

describe('useLevelNow', () => {
  it('holds the time staleness was judged at until a load crosses a threshold, then moves on by itself', () => {
    // One load turns stale 10 minutes from the start.
    const loads = [pingedAt(start - 20 * MIN), pingedAt(start - 5 * MIN)];
    const { result, rerender } = renderHook(({ list }) => useLevelNow(list, T), {
      initialProps: { list: loads },
    });
    expect(result.current).toBe(start);
    wait(10 * MIN - 1);
    expect(result.current).toBe(start);
    // At the crossing, with no render from outside: a timer moves it on.
    wait(1);
    const held = start + 10 * MIN;
    expect(result.current).toBe(held);
    // New loads (a refresh) that are at the same level judged then or now keep the time: the rows
    // and points of the loads that did not change are kept.
    wait(7_000);
    const refreshed = [...loads, pingedAt(start + 10 * MIN)];
    rerender({ list: refreshed });
    expect(result.current).toBe(held);
    // A refresh with a load that turned stale between the held time and now is judged now: its
    // ping is 30 minutes old at start + 10 min + 4 s.
    wait(5_000);
    const crossing = [...refreshed, pingedAt(start - 20 * MIN + 4_000)];
    rerender({ list: crossing });
    expect(result.current).toBe(start + 10 * MIN + 12_000);
  });

  it('judges a refresh that replaced loads in their places by the replaced ones, and misses no crossing', () => {
    // Stale in 10 and in 20 minutes; silent much later.
    const loads = [pingedAt(start - 20 * MIN), pingedAt(start - 10 * MIN), pingedAt(start - MIN)];
    const { result, rerender } = renderHook(({ list }) => useLevelNow(list, T), {
      initialProps: { list: loads },
    });
    // The first load reports again: in its place, fresh.
    wait(2 * MIN);
    const refreshed = [pingedAt(start + MIN), loads[1]!, loads[2]!];
    rerender({ list: refreshed });
    expect(result.current).toBe(start);
    // Its old crossing (10 min) may wake the judge early: the time moves on, and nothing is missed.
    wait(8 * MIN);
    const judged = result.current;
    expect(judged).toBeLessThanOrEqual(start + 10 * MIN);
    // The second load crosses at 20 minutes: judged then.
    wait(9 * MIN);
    expect(result.current).toBe(judged);
    wait(MIN);
    expect(result.current).toBe(start + 20 * MIN);
    // A load replaced in its place by one that crossed between the held time and now: judged now.
    wait(5_000);
    const crossing = [refreshed[0]!, refreshed[1]!, pingedAt(start - 10 * MIN + 1_000)];
    rerender({ list: crossing });
    expect(result.current).toBe(start + 20 * MIN + 5_000);
  });

  it('judges again at most every 5 s, however many loads cross in between', () => {
    // One load turns stale every second from the start on.
    const loads = Array.from({ length: 20 }, (_, k) => pingedAt(start - 30 * MIN + (k + 1) * 1_000));
    const { result } = renderHook(() => useLevelNow(loads, T));
    wait(4_999);
    expect(result.current).toBe(start);
    wait(1);
    expect(result.current).toBe(start + 5_000);
    wait(4_999);
    expect(result.current).toBe(start + 5_000);
    wait(1);
    expect(result.current).toBe(start + 10_000);
  });

  it('sets no timer when no load will change level', () => {
    // Silent already: nothing comes after that.
    const { result } = renderHook(() => useLevelNow([pingedAt(start - 200 * MIN)], T));
    expect(result.current).toBe(start);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('useNow', () => {
  it('gives every reader of a period one clock, stopped when the last one goes', () => {
    const a = renderHook(() => useNow(5_000));
    const b = renderHook(() => useNow(5_000));
    expect(vi.getTimerCount()).toBe(1);
    wait(5_000);
    expect(a.result.current).toBe(start + 5_000);
    expect(b.result.current).toBe(start + 5_000);
    a.unmount();
    b.unmount();
    expect(vi.getTimerCount()).toBe(0);
    // A reader that comes later starts from its own now, not from the clock's last tick.
    wait(60_000);
    const c = renderHook(() => useNow(5_000));
    expect(c.result.current).toBe(start + 65_000);
    c.unmount();
  });
});
