import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTimeStore, useThrottledTimeSelect, useTimeSelect, type TimeSource } from './time-store';

describe('createTimeStore', () => {
  it('tells each listener every new time, once, until it unsubscribes', () => {
    const store = createTimeStore(5);
    const heard: number[] = [];
    const off = store.subscribe((t) => heard.push(t));
    store.set(6);
    store.set(6);
    store.set(7);
    off();
    store.set(8);
    expect(heard).toEqual([6, 7]);
    expect(store.get()).toBe(8);
  });
});

const toMinute = (t: number | undefined) => Math.floor((t ?? 0) / 60_000);

function Minute({ time, renders }: { time: TimeSource; renders: number[] }) {
  const minute = useTimeSelect(time, toMinute);
  renders.push(minute);
  return <p>minute {minute}</p>;
}

describe('useTimeSelect', () => {
  it('renders again only when the selected value changes, not at every time', () => {
    const store = createTimeStore(0);
    const renders: number[] = [];
    render(<Minute time={store} renders={renders} />);
    act(() => {
      for (let t = 1_000; t < 60_000; t += 1_000) store.set(t);
    });
    expect(renders).toEqual([0]);
    act(() => store.set(61_000));
    expect(screen.getByText('minute 1')).toBeInTheDocument();
    expect(renders).toEqual([0, 1]);
  });
});

function ThrottledMinute({ time, renders }: { time: TimeSource; renders: number[] }) {
  const minute = useThrottledTimeSelect(time, toMinute, 500);
  renders.push(minute);
  return <p>minute {minute}</p>;
}

describe('useThrottledTimeSelect', () => {
  afterEach(() => vi.useRealTimers());

  it('renders at most once per interval while the time runs, never in the task that moved it, and lands on the last', () => {
    vi.useFakeTimers();
    const store = createTimeStore(0);
    const renders: number[] = [];
    render(<ThrottledMinute time={store} renders={renders} />);
    // A played time: a minute every tenth of a second of real time, for two seconds.
    for (let k = 1; k <= 20; k++) {
      act(() => store.set(k * 60_000));
      if (k === 1) expect(renders).toEqual([0]);
      act(() => vi.advanceTimersByTime(100));
    }
    // Five renders or so in 2 s, not twenty.
    expect(renders.length).toBeLessThanOrEqual(6);
    expect(renders.length).toBeGreaterThanOrEqual(4);
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.getByText('minute 20')).toBeInTheDocument();
  });

  it('follows a single step at once when the time has rested', () => {
    vi.useFakeTimers();
    const store = createTimeStore(0);
    const renders: number[] = [];
    render(<ThrottledMinute time={store} renders={renders} />);
    act(() => vi.advanceTimersByTime(5_000));
    act(() => store.set(120_000));
    act(() => vi.advanceTimersByTime(0));
    expect(screen.getByText('minute 2')).toBeInTheDocument();
  });
});
