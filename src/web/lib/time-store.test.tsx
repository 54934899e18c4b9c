import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createTimeStore, useTimeSelect, type TimeSource } from './time-store';

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
