import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { liveStateNow } from '../data/live-state';
import { LiveStream } from './live-stream-start';

/** The browser's EventSource as the stream sees it: each one made is kept, closed or not. */
class FakeEventSource {
  static made: FakeEventSource[] = [];
  readyState = 0;
  onopen: ((e: Event) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.made.push(this);
  }
  addEventListener() {}
  close() {
    this.closed = true;
    this.readyState = 2;
  }
}

beforeEach(() => {
  FakeEventSource.made = [];
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => vi.unstubAllGlobals());

const renderStream = () =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <LiveStream />
    </QueryClientProvider>,
  );

describe('LiveStream', () => {
  it('opens /api/stream once its code has come, and closes it when unmounted', async () => {
    const view = renderStream();
    await waitFor(() => expect(FakeEventSource.made).toHaveLength(1));
    const source = FakeEventSource.made[0]!;
    expect(source.url).toBe('/api/stream');
    source.readyState = 1;
    source.onopen?.(new Event('open'));
    expect(liveStateNow()).toBe('live');

    view.unmount();
    expect(source.closed).toBe(true);
    expect(liveStateNow()).toBe('off');
  });

  it('opens no stream when the app is gone before the code came (a logout at once)', async () => {
    renderStream().unmount();
    // The import settles after the unmount; a stream opened then would never be closed.
    await import('../data/live-stream');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(FakeEventSource.made).toHaveLength(0);
    expect(liveStateNow()).toBe('off');
  });
});
