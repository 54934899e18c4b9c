import { act, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Ping } from '@/domain/model';
import { LIST_WHEN_NEAR, PingsList } from './pings-section';

// jsdom has no layout: the virtualizer's scroll element is given a size so rows render.
Object.defineProperty(Element.prototype, 'clientHeight', { configurable: true, get: () => 600 });
Object.defineProperty(Element.prototype, 'clientWidth', { configurable: true, get: () => 400 });

function pings(n: number): Ping[] {
  const start = Date.parse('2026-11-22T12:00:00Z');
  return Array.from({ length: n }, (_, i) => ({
    key: `p${i}`,
    lat: 41 + i / 1e4,
    lon: -96,
    accuracy: 10,
    instant: start + i * 60_000,
    time: { instant: start + i * 60_000, approximate: false, zone: 'UTC', zoneKnown: true, offset: 0 },
  }));
}

/** An IntersectionObserver the test drives: `reach()` brings every observed element near the screen. */
class FakeObserver {
  static all: FakeObserver[] = [];
  readonly observed: Element[] = [];
  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeObserver.all.push(this);
  }
  observe(element: Element) {
    this.observed.push(element);
  }
  disconnect() {
    this.observed.length = 0;
  }
  static reach() {
    for (const o of FakeObserver.all)
      if (o.observed.length > 0)
        o.callback(
          o.observed.map((target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry),
          o as unknown as IntersectionObserver,
        );
  }
}

beforeEach(() => {
  FakeObserver.all = [];
  vi.stubGlobal('IntersectionObserver', FakeObserver);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const rows = () =>
  within(screen.getByRole('region', { name: /^Pings, newest first/ })).queryAllByRole('button');

describe('PingsList: a long list below the fold', () => {
  it('lists its pings once it nears the screen; its name says how many from the start', () => {
    const n = LIST_WHEN_NEAR + 500;
    render(<PingsList pings={pings(n)} fresh={new Set()} onPanTo={() => {}} />);
    expect(screen.getByRole('region', { name: `Pings, newest first, ${n} in all` })).toBeInTheDocument();
    expect(rows()).toHaveLength(0);

    act(() => FakeObserver.reach());
    expect(rows().length).toBeGreaterThan(0);
    // Newest first.
    expect(rows()[0]).toHaveTextContent(`at ${(41 + (n - 1) / 1e4).toFixed(4)}, -96.0000`);
  });

  it('a short list is listed at once, near the screen or not', () => {
    render(<PingsList pings={pings(20)} fresh={new Set()} onPanTo={() => {}} />);
    expect(rows().length).toBeGreaterThan(0);
    expect(FakeObserver.all).toHaveLength(0);
  });
});
