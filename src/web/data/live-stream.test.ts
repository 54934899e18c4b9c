import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { liveStateNow } from './live-state';
import { startLiveStream, type EventSourceLike } from './live-stream';

/** An EventSource the test drives: opens, sends events, fails. */
class FakeSource implements EventSourceLike {
  readyState = 0;
  onopen: ((e: Event) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;
  listeners = new Map<string, ((e: MessageEvent<string>) => void)[]>();
  closed = false;
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (e: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  fail(closed: boolean) {
    this.readyState = closed ? 2 : 0;
    this.onerror?.(new Event('error'));
  }
  send(type: string, data: unknown, id = '') {
    const e = new MessageEvent<string>(type, { data: JSON.stringify(data), lastEventId: id });
    for (const l of this.listeners.get(type) ?? []) l(e);
  }
}

let stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops) stop();
  stops = [];
});

/** A client with a board of two loads and one load's page on screen; counts each query's pulls. */
function page(silentMs?: number) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const pulls: Record<string, number> = { board: 0, detail: 0, hidden: 0 };
  const cursors: Record<string, string> = { board: 'p.5', detail: 'p.5', hidden: 'p.5' };
  /** A pull that answers at the view's cursor. */
  const pullOf = (name: string) => async () => {
    pulls[name]!++;
    return { cursor: cursors[name] };
  };
  const watch = (name: string, key: readonly unknown[], enabled = true) => {
    const observer = new QueryObserver(client, { queryKey: key, enabled, queryFn: pullOf(name) });
    const stop = observer.subscribe(() => {});
    stops.push(stop);
  };
  watch('board', ['loads', 'board', 'external-id', ['9001', '9002']]);
  watch('detail', ['loads', 'detail', 'load-number', 'LN-4']);
  // On no screen any more: never pulled for a change.
  watch('hidden', ['loads', 'board', 'external-id', ['9003']], false);
  const sources: FakeSource[] = [];
  const stop = startLiveStream(client, {
    retryMs: 10,
    ...(silentMs === undefined ? {} : { silentMs }),
    makeSource: (url) => {
      const s = new FakeSource(url);
      sources.push(s);
      return s;
    },
  });
  stops.push(stop);
  const settled = () => new Promise((r) => setTimeout(r, 0));
  return { client, pulls, cursors, sources, settled };
}

describe('the live stream in the browser', () => {
  it('pulls the views that show a load a change names, and only those', async () => {
    const { pulls, sources, settled, cursors } = page();
    await settled();
    expect(pulls).toEqual({ board: 1, detail: 1, hidden: 0 });
    const s = sources[0]!;
    s.open();
    cursors.board = 'p.7';
    s.send('change', { loads: ['e:9002', 'e:9999'] }, 'p.7');
    await settled();
    expect(pulls).toEqual({ board: 2, detail: 1, hidden: 0 });
    s.send('change', { loads: ['n:LN-4'] }, 'p.8');
    await settled();
    expect(pulls).toEqual({ board: 2, detail: 2, hidden: 0 });
    // A change the board's last answer already holds (its cursor is past it) costs nothing.
    s.send('change', { loads: ['e:9001'] }, 'p.6');
    await settled();
    expect(pulls.board).toBe(2);
  });

  it('pulls every view shown on a reset, on "all", and on a change it cannot read', async () => {
    const { pulls, sources, settled } = page();
    await settled();
    const s = sources[0]!;
    s.open();
    s.send('reset', {}, 'q.1');
    await settled();
    expect(pulls).toEqual({ board: 2, detail: 2, hidden: 0 });
    s.send('change', { all: true }, 'q.2');
    await settled();
    expect(pulls).toEqual({ board: 3, detail: 3, hidden: 0 });
    s.send('change', { loads: 'e:9001' }, 'q.3');
    await settled();
    expect(pulls).toEqual({ board: 4, detail: 4, hidden: 0 });
  });

  it('says Polling while the stream is down, catches up when it is back, and asks again after a refusal', async () => {
    const { pulls, sources, settled } = page();
    await settled();
    const s = sources[0]!;
    s.open();
    s.send('ready', {}, 'p.5');
    expect(liveStateNow()).toBe('live');
    // EventSource reconnects by itself: back, the views catch up on what the server may not replay.
    s.fail(false);
    expect(liveStateNow()).toBe('polling');
    s.open();
    await settled();
    expect(liveStateNow()).toBe('live');
    expect(pulls).toEqual({ board: 2, detail: 2, hidden: 0 });
    // Opened, but the server cannot read its store: polling until the stream comes back.
    s.send('unavailable', {});
    expect(liveStateNow()).toBe('polling');
    s.open();
    // Refused (closed): a new stream after the wait, from the last event's id.
    s.fail(true);
    await new Promise((r) => setTimeout(r, 30));
    expect(sources).toHaveLength(2);
    expect(sources[1]!.url).toBe('/api/stream?lastEventId=p.5');
  });

  it('drops a stream silent past its heartbeats, says Polling, and opens another that catches up', async () => {
    const { pulls, sources, settled } = page(60);
    await settled();
    const s = sources[0]!;
    s.open();
    s.send('ready', {}, 'p.5');
    // Heartbeats keep it: no other stream is opened while they come.
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 30));
      s.send('heartbeat', {});
    }
    expect(sources).toHaveLength(1);
    expect(liveStateNow()).toBe('live');
    // Then silence: its instance paused, the connection held open by a balancer.
    await new Promise((r) => setTimeout(r, 150));
    expect(s.closed).toBe(true);
    expect(liveStateNow()).toBe('polling');
    expect(sources).toHaveLength(2);
    expect(sources[1]!.url).toBe('/api/stream?lastEventId=p.5');
    sources[1]!.open();
    await settled();
    expect(liveStateNow()).toBe('live');
    // Back: the views pull what the silent stream may have missed.
    expect(pulls).toEqual({ board: 2, detail: 2, hidden: 0 });
  });
});
