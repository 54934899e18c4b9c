import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StreamChange } from '@/contract/stream-api';
import { sseReader, type SseEvent } from '@/testing/sse';
import { manualClock, startStack, type Stack } from '@/testing/stack';
import { createWatches, streamRoutes, UNAVAILABLE_RETRY_MS } from './stream';

let stack: Stack;
let clock: ReturnType<typeof manualClock>;
const open: { cancel: () => Promise<unknown> }[] = [];

beforeEach(async () => {
  clock = manualClock();
  stack = await startStack({ loads: 4, now: clock.now });
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.cancel()));
  await stack.close();
});

const ids = () => stack.sim.fleet.map((p) => String(p.externalId));

async function stream(headers: Record<string, string> = {}, query = '') {
  const response = await fetch(`${stack.proxy.url}/api/stream${query}`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = sseReader(response);
  open.push(reader);
  return reader;
}

/** The next `change` event's load keys (`all` when it said everything). */
async function nextChange(reader: ReturnType<typeof sseReader>): Promise<{ e: SseEvent; keys: string[] }> {
  for (;;) {
    const e = await reader.next();
    if (!e) throw new Error('the stream ended');
    if (e.event !== 'change') continue;
    const data = StreamChange.parse(JSON.parse(e.data));
    return { e, keys: 'all' in data ? ['all'] : data.loads };
  }
}

const pull = (pulled: string[], cookie?: string) =>
  stack.post(
    '/api/pull/by-external-id',
    { ids: pulled },
    cookie ? { Cookie: `haulview_session=${cookie}` } : {},
  );

describe('GET /api/stream (one instance, the track cache)', () => {
  it('names the loads a pull changed, with the cursor as the event id', async () => {
    const reader = await stream();
    expect((await reader.next())?.event).toBe('ready');
    const [a, b] = ids();
    expect((await pull([a!, b!])).status).toBe(200);
    const { e, keys } = await nextChange(reader);
    expect(keys.sort()).toEqual([`e:${a}`, `e:${b}`].sort());
    expect(e.id).toMatch(/^[\w-]+\.\d+$/);
  });

  it('names to each session only the loads its own pulls asked for', async () => {
    const [a, b] = ids();
    await pull([a!], 'one');
    await pull([b!], 'two');
    const reader = await stream({ Cookie: 'haulview_session=one' });
    await reader.next();
    // Both move; each session pulls its own load.
    clock.advance(60_000);
    await pull([b!], 'two');
    await pull([a!], 'one');
    expect((await nextChange(reader)).keys).toEqual([`e:${a}`]);
  });

  it('replays what changed after Last-Event-ID, by header or by query', async () => {
    const [a, b] = ids();
    const first = await stream();
    await pull([a!, b!]);
    const seen = (await nextChange(first)).e.id!;
    clock.advance(60_000);
    await pull([a!]);
    const later = (await nextChange(first)).e.id;
    await first.cancel();

    for (const reader of [
      await stream({ 'Last-Event-ID': seen }),
      await stream({}, `?lastEventId=${encodeURIComponent(seen)}`),
    ]) {
      const { e, keys } = await nextChange(reader);
      expect(keys).toEqual([`e:${a}`]);
      expect(e.id).toBe(later);
    }
  });

  it('tells a browser holding a cursor of another process or store to pull in full', async () => {
    await pull([ids()[0]!]);
    for (const cursor of ['another-process.3', 'not a cursor', '']) {
      const reader = await stream({ 'Last-Event-ID': cursor });
      expect((await reader.next())?.event).toBe('reset');
    }
  });

  it('refuses a bad query with a clear error', async () => {
    const long = await fetch(`${stack.proxy.url}/api/stream?lastEventId=${'x'.repeat(201)}`);
    expect(long.status).toBe(400);
    expect(((await long.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
    const unknown = await fetch(`${stack.proxy.url}/api/stream?since=1`);
    expect(unknown.status).toBe(400);
    const header = await fetch(`${stack.proxy.url}/api/stream`, {
      headers: { 'Last-Event-ID': 'y'.repeat(201) },
    });
    expect(header.status).toBe(400);
    expect(await header.json()).toEqual({
      error: { code: 'bad_last_event_id', message: 'Last-Event-ID may hold at most 200 characters' },
    });
  });

  it('is ended when the server drains, so that the stream does not hold the shutdown', async () => {
    const reader = await stream();
    await reader.next();
    const { done } = stack.proxy.drain(10 * 60_000);
    expect(await reader.next()).toBeUndefined();
    expect(await done).toEqual({ cut: 0 });
  });
});

describe('GET /api/stream while the store does not answer', () => {
  it('says so, asks the page to come back later, and ends', async () => {
    const down = () => Promise.reject(new Error('connection terminated'));
    const routes = streamRoutes({
      feed: { subscribe: () => () => {}, since: down, head: down, stop: async () => {} },
      watches: createWatches({ ttlMs: 60_000 }),
    });
    for (const headers of [{}, { 'Last-Event-ID': 'store.4' }] as Record<string, string>[]) {
      const response = await routes.app.request('/', { headers });
      expect(await response.text()).toBe(`event: unavailable\ndata: {}\nretry: ${UNAVAILABLE_RETRY_MS}\n\n`);
    }
  });
});

describe('GET /api/stream while the change feed cannot hear changes', () => {
  it('tells an open stream to poll and ends it when the feed is lost, and a new one while it is down', async () => {
    let down = false;
    const onDown = new Set<() => void>();
    const routes = streamRoutes({
      feed: {
        subscribe: () => () => {},
        since: async () => 'reset',
        head: async () => 'store.4',
        stop: async () => {},
        down: () => down,
        onDown: (l) => (onDown.add(l), () => void onDown.delete(l)),
      },
      watches: createWatches({ ttlMs: 60_000 }),
      heartbeatMs: 20,
    });
    const response = await routes.app.request('/');
    const reader = sseReader(response);
    expect((await reader.next())?.event).toBe('ready');
    // While the feed hears, heartbeats come as events the page's EventSource sees.
    expect((await reader.next())?.event).toBe('heartbeat');
    down = true;
    for (const l of [...onDown]) l();
    let e = await reader.next();
    while (e?.event === 'heartbeat') e = await reader.next();
    expect(e?.event).toBe('unavailable');
    expect(await reader.next()).toBeUndefined();
    expect(onDown.size).toBe(0);
    const later = await routes.app.request('/');
    expect(await later.text()).toBe(`event: unavailable\ndata: {}\nretry: ${UNAVAILABLE_RETRY_MS}\n\n`);
  });
});

describe('GET /api/stream with logins required', () => {
  it('needs a session like every other route', async () => {
    const guarded = await startStack({ loads: 1, env: { HOST: '0.0.0.0' } });
    try {
      const response = await fetch(`${guarded.proxy.url}/api/stream`);
      expect(response.status).toBe(401);
    } finally {
      await guarded.close();
    }
  });
});
