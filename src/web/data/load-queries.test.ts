import { describe, expect, it, vi } from 'vitest';
import quirks from '@/testing/fixtures/by-external-id-quirks.json';
import { located } from '@/testing/loads';
import { shareBoard, withUnchanged } from './board-data';
import { proxyPullAnswer } from '@/testing/proxy-answer';
import { readPullAnswer } from './pull-answer';
import { pullBodyJson } from './pull-body';

/** The proxy's answer for these wire details, as the proxy would read and serve them. */
const answerOf = (details: unknown[], cursor = 'c', missing: string[] = []) =>
  proxyPullAnswer(details, { cursor, missing });

describe('readPullAnswer', () => {
  it('keeps every load that fits the schema, reports the others, and passes "missing" on', () => {
    const answer = answerOf(quirks.details, 'c', ['404-load']);
    // A load the page cannot read (a coordinate as text): it costs only itself.
    answer.loads.push({ by: 'external-id', id: 'odd', latestLocation: { lat: 'north' } });
    const data = readPullAnswer(answer, 123);
    expect(data.loads.map((l) => l.id)).toEqual(['700100', '700101']);
    expect(data.loads[0]?.latestLocation?.accuracy).toBe(12.5);
    // 700101's latest location has no lon: the proxy kept the load, without a position.
    expect(data.loads[1]?.latestLocation).toBeUndefined();
    expect(data.unreadable.length).toBeGreaterThan(0);
    expect(data.unreadable.every((i) => i.path.startsWith('loads[2].latestLocation') && i.skipped)).toBe(
      true,
    );
    expect(data.unreadable.map((i) => i.kind)).toContain('wrong_type');
    expect(data.missing).toEqual(['404-load']);
    expect(data.fetchedAt).toBe(123);
  });

  it('reads each load with its notes, paths relative to the load', () => {
    const [a] = readPullAnswer(answerOf(quirks.details), 1).loads;
    expect(a?.issues).toContainEqual({
      path: 'stops',
      kind: 'unknown_field',
      message: expect.stringContaining('stops') as string,
      skipped: false,
    });
    expect(a?.issues.some((i) => i.skipped && i.path.startsWith('locations['))).toBe(true);
    expect(a?.issues.every((i) => !i.path.startsWith('details['))).toBe(true);
  });

  it('refuses an answer of another version, saying to reload the page', () => {
    expect(() => readPullAnswer({ ...answerOf(quirks.details), version: 99 }, 1)).toThrow(/reload the page/);
  });
});

describe('shareBoard', () => {
  const read = () => readPullAnswer(answerOf(structuredClone(quirks.details)), 1);

  it('keeps the very same objects when a refresh brings nothing new', () => {
    const first = read();
    const second = shareBoard(first, read());
    expect(second.loads).toBe(first.loads);
    const clean = { ...first, unreadable: [] };
    expect(shareBoard(clean, { ...read(), unreadable: [] })).toBe(clean);
  });

  it('replaces only the load that changed', () => {
    const first = read();
    const details = structuredClone(quirks.details) as { latestLocation?: { timestampUTC: string } }[];
    details[0]!.latestLocation!.timestampUTC = '11/22/2026 13:30:00 UTC';
    const next = shareBoard(first, readPullAnswer(answerOf(details), 2));
    expect(next.loads).not.toBe(first.loads);
    expect(next.loads[0]).not.toBe(first.loads[0]);
    expect(next.loads[0]?.latestLocation?.instant).toBe(Date.parse('2026-11-22T13:30:00Z'));
    expect(next.loads[1]).toBe(first.loads[1]);
  });

  it('merges each load into the one it had by id, also when the answer lists them in another order', () => {
    const first = read();
    const details = structuredClone(quirks.details) as { latestLocation?: { timestampUTC: string } }[];
    details[0]!.latestLocation!.timestampUTC = '11/22/2026 13:30:00 UTC';
    const again = readPullAnswer(answerOf(details), 2);
    const next = shareBoard(first, { ...again, loads: [...again.loads].reverse() });
    expect(next.loads.map((l) => l.id)).toEqual(['700101', '700100']);
    // 700101 brought nothing new: the very object it had. 700100 has its new fix, and what it had.
    expect(next.loads[0]).toBe(first.loads[1]);
    expect(next.loads[1]?.latestLocation?.instant).toBe(Date.parse('2026-11-22T13:30:00Z'));
    expect(next.loads[1]?.latestStatus).toEqual(first.loads[0]?.latestStatus);
  });
});

describe('loadQueries.detail', () => {
  it('pulls the whole track once, then only what came after its cursor, and merges without duplicates', async () => {
    const { createQueryClient } = await import('./query-client');
    const { loadQueries } = await import('./load-queries');
    const ping = (minute: number) => ({
      lat: '41.1',
      lon: String(-90 - minute / 100),
      deviceTimeGmt: `2026-11-22 10:${String(minute).padStart(2, '0')}:00`,
      accuracy: 10,
      timestamp: '11/22/2026 04:00 CST',
    });
    const bodies: { since?: string }[] = [];
    const answers = [
      answerOf([{ loadTrackExternalId: '7', locations: [ping(0), ping(1)] }], 'p.1', []),
      answerOf([{ loadTrackExternalId: '7', locations: [ping(1), ping(2)] }], 'p.2', []),
    ];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        bodies.push(JSON.parse(String(init.body)) as { since?: string });
        return new Response(JSON.stringify(answers[bodies.length - 1]), { status: 200 });
      }),
    );
    const client = createQueryClient();
    const options = loadQueries.detail('external-id', '7', 30);
    const first = await client.fetchQuery(options);
    expect(first.load?.pings).toHaveLength(2);
    const second = await client.fetchQuery({ ...options, staleTime: 0 });
    // The track leaves the readings list out: a reefer's readings come in a pull of their own.
    expect(bodies).toEqual([
      { ids: ['7'], include: { temperatures: false } },
      { ids: ['7'], include: { temperatures: false }, since: 'p.1' },
    ]);
    expect(second.load?.pings.map((p) => p.lon)).toEqual([-90, -90.01, -90.02]);
    vi.unstubAllGlobals();
  });

  it('keeps the load when an answer after its cursor leaves it out (nothing new)', async () => {
    const { createQueryClient } = await import('./query-client');
    const { loadQueries } = await import('./load-queries');
    const answers = [
      answerOf([{ loadTrackExternalId: '7', events: [event(1)] }], 'p.1', []),
      answerOf([], 'p.1', []),
      answerOf([], 'p.2', ['7']),
    ];
    let calls = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(answers[calls++]), { status: 200 })),
    );
    const client = createQueryClient();
    const options = loadQueries.detail('external-id', '7', 30);
    const first = await client.fetchQuery(options);
    const second = await client.fetchQuery({ ...options, staleTime: 0 });
    expect(second.load).toBe(first.load);
    expect(second.missing).toBe(false);
    // Reported missing: gone, and said so.
    const third = await client.fetchQuery({ ...options, staleTime: 0 });
    expect(third.load).toBeNull();
    expect(third.missing).toBe(true);
    vi.unstubAllGlobals();
  });
});

const event = (n: number) => ({
  id: n,
  name: `Status ${n}`,
  code: null,
  timestampUTC: `11/22/2026 10:0${n}:00 UTC`,
});

describe('loadQueries.board', () => {
  it('polls with the last cursor, keeps the loads the answer left out, drops the missing ones', async () => {
    const { createQueryClient } = await import('./query-client');
    const { loadQueries } = await import('./load-queries');
    const bodies: { since?: string; include?: Record<string, boolean> }[] = [];
    const answers = [
      answerOf([located('1', 0), located('2', 0), located('3', 0)], 'p.1', []),
      // Only load 2 moved; load 3 is no longer known to the service.
      answerOf([located('2', 5)], 'p.5', ['3']),
    ];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        bodies.push(JSON.parse(String(init.body)) as (typeof bodies)[number]);
        return new Response(JSON.stringify(answers[bodies.length - 1]), { status: 200 });
      }),
    );
    const client = createQueryClient();
    const options = loadQueries.board('external-id', ['1', '2', '3'], 30);
    const first = await client.fetchQuery(options);
    const second = await client.fetchQuery({ ...options, staleTime: 0 });
    expect(bodies[0]?.since).toBeUndefined();
    expect(bodies[1]?.since).toBe('p.1');
    // The board never asks for the readings list (only the latest reading), nor for undocumented fields.
    expect(bodies[0]?.include?.temperatures).toBe(false);
    expect(bodies[0]?.include?.extras).toBe(false);
    // Nor for any list (the latest location, status and temperature come without them): every flag
    // said false, on the first pull and on each poll after it (a flag left out means "send it").
    const noLists = { locations: false, events: false, documents: false, comments: false };
    expect(bodies[0]?.include).toMatchObject(noLists);
    expect(bodies[1]?.include).toMatchObject(noLists);
    expect(second.loads.map((l) => l.id)).toEqual(['1', '2']);
    expect(second.loads[0]).toBe(first.loads[0]);
    expect(second.loads[1]?.latestLocation?.instant).toBe(Date.parse('2026-11-22T10:05:00Z'));
    expect(second.missing).toEqual(['3']);
    expect(second.cursor).toBe('p.5');
    vi.unstubAllGlobals();
  });
});

describe('loadQueries.boardHash', () => {
  it('is the hash TanStack Query files the board under, for each kind of id, and no other view’s', async () => {
    const { createQueryClient } = await import('./query-client');
    const { loadQueries } = await import('./load-queries');
    const { QueryObserver } = await import('@tanstack/react-query');
    const client = createQueryClient();
    const ids = ['700100', '700200'];
    // An observer that never fetches files its query in the cache as the page's useQuery does.
    const filed = (options: ReturnType<typeof loadQueries.board>) =>
      new QueryObserver(client, { ...options, enabled: false }).getCurrentQuery();
    const board = filed(loadQueries.board('external-id', ids, 30));
    const byNumber = filed(loadQueries.board('load-number', ids, 30));
    const documents = filed(loadQueries.documents('external-id', ids, 30));
    expect(loadQueries.boardHash('external-id', ids)).toBe(board.queryHash);
    expect(loadQueries.boardHash('load-number', ids)).toBe(byNumber.queryHash);
    expect(loadQueries.boardHash('external-id', ids)).not.toBe(documents.queryHash);
    expect(loadQueries.boardHash('external-id', ['700100'])).not.toBe(board.queryHash);
  });
});

describe('loadQueries.board while the tab is hidden', () => {
  it('polls every refresh while visible, never in the background, and becomes stale before the next poll', async () => {
    const { createQueryClient } = await import('./query-client');
    const { loadQueries } = await import('./load-queries');
    const options = loadQueries.board('external-id', ['1'], 30);
    expect(options.refetchInterval).toBe(30_000);
    expect(options.refetchIntervalInBackground).toBe(false);
    // A tab shown again after at least one poll it missed has a stale board, which a focus refetches.
    expect(options.staleTime).toBeLessThan(30_000);
    expect(createQueryClient().getDefaultOptions().queries?.refetchOnWindowFocus).toBe(true);
  });

  it('pauses polling while the tab is hidden and catches up at once when it is shown again', async () => {
    const { createQueryClient } = await import('./query-client');
    const { loadQueries } = await import('./load-queries');
    const { QueryObserver } = await import('@tanstack/react-query');
    let visibility: DocumentVisibilityState = 'visible';
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
    // As the browser does it: the state changes, then the event is fired at the document.
    const show = (state: DocumentVisibilityState) => {
      visibility = state;
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    };
    const bodies: { since?: string }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        bodies.push(JSON.parse(String(init.body)) as { since?: string });
        const n = bodies.length;
        return new Response(JSON.stringify(answerOf([located('1', n)], `p.${n}`, [])), { status: 200 });
      }),
    );
    vi.useFakeTimers();
    const client = createQueryClient();
    // What QueryClientProvider does: listen to the page's focus and visibility.
    client.mount();
    const observer = new QueryObserver(client, loadQueries.board('external-id', ['1'], 30));
    const unsubscribe = observer.subscribe(() => {});
    try {
      await vi.advanceTimersByTimeAsync(0);
      expect(bodies).toHaveLength(1);
      // Visible: a poll each refresh.
      await vi.advanceTimersByTimeAsync(30_000);
      expect(bodies).toHaveLength(2);

      // Hidden for five refreshes: not one poll.
      show('hidden');
      await vi.advanceTimersByTimeAsync(5 * 30_000);
      expect(bodies).toHaveLength(2);

      // Shown again: one poll at once, from the last cursor, without waiting for the next refresh.
      show('visible');
      await vi.advanceTimersByTimeAsync(1_000);
      expect(bodies).toHaveLength(3);
      expect(bodies[2]?.since).toBe('p.2');
      expect(observer.getCurrentResult().data?.cursor).toBe('p.3');
      // And polling goes on.
      await vi.advanceTimersByTimeAsync(30_000);
      expect(bodies).toHaveLength(4);
    } finally {
      unsubscribe();
      client.unmount();
      client.clear();
      vi.useRealTimers();
      vi.unstubAllGlobals();
      Reflect.deleteProperty(document, 'visibilityState');
    }
  });
});

describe('withUnchanged', () => {
  const board = (cursor: string, details: unknown[], missing: string[] = []) =>
    readPullAnswer(answerOf(details, cursor, missing), 1);
  const ids = ['1', '2', '3', '4'];
  const full = () =>
    board(
      'p.1',
      ids.map((id) => located(id, 0)),
    );
  const ping = (l: { latestLocation?: { instant: number } } | undefined) => l?.latestLocation?.instant;

  it('puts each changed load in its old place and keeps the others, refresh after refresh', () => {
    const first = full();
    const second = withUnchanged(first, board('p.2', [located('3', 5), located('1', 5)]), ids);
    expect(second.loads.map((l) => l.id)).toEqual(ids);
    expect(second.loads[1]).toBe(first.loads[1]);
    expect(second.loads[3]).toBe(first.loads[3]);
    expect(ping(second.loads[0])).toBe(Date.parse('2026-11-22T10:05:00Z'));
    expect(ping(second.loads[2])).toBe(Date.parse('2026-11-22T10:05:00Z'));
    expect(second.cursor).toBe('p.2');
    // The patched list knows its places too: the next refresh lands in the right ones.
    const third = withUnchanged(second, board('p.3', [located('4', 7)]), ids);
    expect(third.loads.map((l) => l.id)).toEqual(ids);
    expect(third.loads.slice(0, 3)).toEqual(second.loads.slice(0, 3));
    expect(ping(third.loads[3])).toBe(Date.parse('2026-11-22T10:07:00Z'));
    // The earlier lists are left as they were.
    expect(ping(first.loads[0])).toBe(Date.parse('2026-11-22T10:00:00Z'));
  });

  it('drops a load gone missing and adds one the service answers for the first time', () => {
    const first = board('p.1', [located('1', 0), located('2', 0), located('3', 0)], ['4']);
    const second = withUnchanged(first, board('p.2', [located('4', 3)], ['2']), ids);
    expect(second.loads.map((l) => l.id)).toEqual(['1', '3', '4']);
    expect(second.loads[0]).toBe(first.loads[0]);
    expect(second.missing).toEqual(['2']);
    // And after that, a change lands in the right place again.
    const third = withUnchanged(second, board('p.3', [located('3', 9)]), ids);
    expect(third.loads.map((l) => l.id)).toEqual(['1', '3', '4']);
    expect(ping(third.loads[1])).toBe(Date.parse('2026-11-22T10:09:00Z'));
    expect(third.loads[2]).toBe(second.loads[2]);
  });

  it('keeps what the last answer said about unreadable loads until an answer says otherwise', () => {
    const first = {
      ...full(),
      unreadable: [{ path: 'details[9]', kind: 'missing_id' as const, message: 'no id', skipped: true }],
    };
    const second = withUnchanged(first, board('p.2', [located('2', 1)]), ids);
    expect(second.unreadable).toBe(first.unreadable);
  });
});

describe('pullBodyJson', () => {
  it('writes a pull’s body as JSON, the ids written once per watch list and the cursor anew', () => {
    const ids = ['700100', 'LN-"7"', '7\u00e9'];
    const include = {
      locations: false,
      events: false,
      documents: true,
      comments: false,
      temperatures: false,
    };
    const first = { ids, include };
    expect(JSON.parse(pullBodyJson(first))).toEqual(first);
    const later = { include, since: 'c-2', ids };
    expect(JSON.parse(pullBodyJson(later))).toEqual(later);
    expect(JSON.parse(pullBodyJson({ ids: ['1'], include: {} }))).toEqual({ ids: ['1'], include: {} });
  });
});
