import { afterEach, describe, expect, it, vi, type Mock } from 'vitest';
import type { Load } from '@/domain/model';
import quirks from '@/testing/fixtures/by-external-id-quirks.json';
import { located } from '@/testing/loads';
import { proxyPullAnswer } from '@/testing/proxy-answer';
import { ApiError } from './api-client';
import { shareBoard } from './board-data';
import { pullLoads } from './pull-answer';
import type { PullBody } from './pull-body';
import { pullHandler } from './pull-handler';
import type { PullReply, PullRequest } from './pull-protocol';
import { pullThread, type PullWorkerLike } from './pull-thread';
import { servedAnotherBuild, startBuildCheck } from './served-build';
import { loadStaleness } from '@/domain/staleness';
import type { EarlyPoints } from '../lib/load-look';
import type { MarkerPoint } from '../map/core/marker-point';
import { earlyPoints, pointOf } from '../map/layers/load-point';

const BODY: PullBody = {
  ids: ['700100', '700101', '404-load'],
  include: { locations: false, extras: false },
};
const ANSWER = proxyPullAnswer(quirks.details, { cursor: 'c.1', missing: ['404-load'] });
// A load the page cannot read: it is reported, and the others are kept.
ANSWER.loads.push({ by: 'external-id', id: 'odd', latestLocation: { lat: 'north' } });

/** The proxy, as `fetch` sees it: each call gets the next answer (the last one again at the end). */
function proxy(...answers: (() => Response)[]) {
  const bodies: string[] = [];
  const fetch = vi.fn(async (_url: string, init: RequestInit) => {
    bodies.push(String(init.body));
    const answer = answers[Math.min(bodies.length, answers.length) - 1] as () => Response;
    return answer();
  });
  vi.stubGlobal('fetch', fetch);
  return { bodies, fetch };
}
const ok = (body: unknown) => () => new Response(JSON.stringify(body), { status: 200 });

/**
 * A stand-in worker that runs the real worker's handler (and so the real pull) in this thread, and
 * hands its replies over as the browser does: a structured copy, a macrotask later.
 */
function standIn() {
  const sent: PullRequest[] = [];
  const replies: PullReply[] = [];
  const worker: PullWorkerLike & { fail(): void; terminated: boolean } = {
    onmessage: null,
    onerror: null,
    onmessageerror: null,
    terminated: false,
    postMessage(m) {
      sent.push(structuredClone(m));
      handle(structuredClone(m));
    },
    terminate() {
      this.terminated = true;
    },
    fail() {
      this.onerror?.(new Event('error'));
    },
  };
  const handle = pullHandler((reply: PullReply) => {
    replies.push(reply);
    const copy = structuredClone(reply);
    setTimeout(() => worker.onmessage?.({ data: copy } as MessageEvent<PullReply>), 0);
  });
  return { worker, sent, replies };
}

/** A worker that takes every request and never answers: until it fails. */
function silentWorker(): PullWorkerLike & { terminate: Mock<() => void> } {
  return {
    onmessage: null,
    onerror: null,
    onmessageerror: null,
    postMessage: () => undefined,
    terminate: vi.fn<() => void>(),
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('pullThread', () => {
  it('reads a pull in the worker to the very loads the page reads, with the body the page sends', async () => {
    const { bodies } = proxy(ok(ANSWER));
    const here = await pullLoads('external-id', BODY);
    const { worker, sent } = standIn();
    const pulls = pullThread(() => worker);
    const there = await pulls.pull('external-id', BODY);
    expect(pulls.where()).toBe('worker');
    expect(sent.map((m) => m.kind)).toEqual(['pull']);
    // The same text went to the proxy both ways, and the same loads came back.
    expect(bodies[1]).toBe(bodies[0]);
    expect({ ...there, fetchedAt: 0 }).toEqual({ ...here, fetchedAt: 0 });
    expect(there.loads.map((l) => l.id)).toEqual(['700100', '700101']);
    expect(there.missing).toEqual(['404-load']);
    expect(there.unreadable.length).toBeGreaterThan(0);
    expect(there.unreadable.every((i) => i.path.startsWith('loads[2].'))).toBe(true);
    // The page marks when the answer arrived in the worker, saying where it was read.
    const mark = performance.getEntriesByName('haulview:answer').at(-1) as PerformanceMark;
    expect(mark.detail).toMatchObject({ path: '/api/pull/by-external-id', in: 'worker' });
  });

  it('gives the page the proxy’s error as an ApiError, with its code, message and retry time', async () => {
    proxy(
      () =>
        new Response(
          JSON.stringify({ error: { code: 'upstream_rate_limited', message: 'The service asks to wait.' } }),
          { status: 429, headers: { 'retry-after': '30' } },
        ),
    );
    const { worker } = standIn();
    const error: unknown = await pullThread(() => worker)
      .pull('external-id', BODY)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 429,
      code: 'upstream_rate_limited',
      message: 'The service asks to wait.',
      retryAfter: '30',
      transient: false,
    });
  });

  it('tells the page which build the worker’s answers came from, once per build', async () => {
    const page = document.implementation.createHTMLDocument('Haulview');
    page.head.innerHTML = '<meta name="haulview-build" content="aaaa">';
    startBuildCheck(page);
    const served = (build: string) => () =>
      new Response(JSON.stringify(ANSWER), { status: 200, headers: { 'Haulview-Build': build } });
    proxy(served('aaaa'), served('aaaa'), served('bbbb'));
    const { worker, replies } = standIn();
    const pulls = pullThread(() => worker);
    await pulls.pull('external-id', BODY);
    await pulls.pull('external-id', BODY);
    expect(servedAnotherBuild()).toBe(false);
    await pulls.pull('external-id', BODY);
    await vi.waitFor(() => expect(servedAnotherBuild()).toBe(true));
    expect(replies.filter((r) => r.kind === 'build')).toEqual([
      { kind: 'build', build: 'aaaa' },
      { kind: 'build', build: 'bbbb' },
    ]);
  });

  it('says so when the answer is not JSON, read in the worker', async () => {
    proxy(() => new Response('{"version":2,"loads":[', { status: 200 }));
    const { worker } = standIn();
    const error: unknown = await pullThread(() => worker)
      .pull('load-number', BODY)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'bad_json', message: expect.stringContaining('not JSON') as string });
  });

  it('stops a pull the page no longer wants: it is rejected at once and the worker told', async () => {
    let answer: (r: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise<Response>((resolve, reject) => {
            answer = resolve;
            init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          }),
      ),
    );
    const { worker, sent, replies } = standIn();
    const pulls = pullThread(() => worker);
    const controller = new AbortController();
    const pending = pulls.pull('external-id', BODY, controller.signal).catch((e: unknown) => e);
    controller.abort(new Error('the watch list changed'));
    expect(await pending).toEqual(new Error('the watch list changed'));
    expect(sent.map((m) => m.kind)).toEqual(['pull', 'abort']);
    // A late answer is nobody's: it changes nothing.
    answer(ok(ANSWER)());
    await new Promise((r) => setTimeout(r, 10));
    expect(replies).toEqual([]);
  });

  it('makes a pull the worker held again on the page when the worker fails, and pulls there after', async () => {
    const { fetch } = proxy(ok(ANSWER));
    const held = silentWorker();
    const pulls = pullThread(() => held);
    const pending = pulls.pull('external-id', BODY);
    held.onerror?.(new Event('error'));
    const data = await pending;
    expect(data.loads.map((l) => l.id)).toEqual(['700100', '700101']);
    expect(held.terminate).toHaveBeenCalled();
    expect(pulls.where()).toBe('page');
    await pulls.pull('external-id', BODY);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('sends the URLs of the loads’ documents, as the page reads them, and only when they changed', async () => {
    const { bodies } = proxy(ok(ANSWER));
    const here = await pullThread(() => null).documentUrls('external-id', BODY.ids, 'urls:1', undefined);
    const { worker, sent, replies } = standIn();
    const pulls = pullThread(() => worker);
    const there = await pulls.documentUrls('external-id', BODY.ids, 'urls:1', undefined);
    expect(sent.map((m) => m.kind)).toEqual(['document-urls']);
    expect(bodies[1]).toBe(bodies[0]);
    expect(there.urls).toEqual(here.urls);
    expect(there.urls).toContain('https://docs.example.com/bol.jpg');
    expect(there.missing).toEqual(['404-load']);
    // The next poll asks from the worker's cursor; the page holds the URLs, so none cross again.
    const next = await pulls.documentUrls('external-id', BODY.ids, 'urls:1', there.version);
    expect(JSON.parse(bodies[2] as string)).toMatchObject({ since: 'c.1', include: { documents: true } });
    expect(next).toEqual({ version: there.version, urls: undefined, missing: ['404-load'] });
    expect(replies.at(-1)).toMatchObject({ kind: 'document-urls', urls: { urls: undefined } });
  });

  it('asks for the URLs again on the page when the worker fails', async () => {
    proxy(ok(ANSWER));
    const held = silentWorker();
    const pulls = pullThread(() => held);
    const pending = pulls.documentUrls('external-id', BODY.ids, 'urls:1', 'a version of the worker');
    held.onerror?.(new Event('error'));
    // The page's keeper does not know the worker's version: the URLs come whole.
    expect((await pending).urls).toContain('https://docs.example.com/bol.jpg');
    expect(pulls.where()).toBe('page');
  });

  it('pulls on the page where there is no worker', async () => {
    proxy(ok(ANSWER));
    const pulls = pullThread(() => null);
    const data = await pulls.pull('external-id', BODY);
    expect(pulls.where()).toBe('page');
    expect(data.cursor).toBe('c.1');
  });
});

describe('pullThread, a view kept in the worker', () => {
  const ids = ['1', '2', '3', '4'];
  const status = { name: 'In transit', code: 'ITR', timestampUTC: '11/22/2026 09:00:00 UTC' };
  const withStatus = (d: ReturnType<typeof located>) => ({ ...d, latestStatus: status });
  const answer = (cursor: string, details: unknown[], missing: string[] = []) =>
    ok(proxyPullAnswer(details, { cursor, missing }));
  const body = (since?: string): PullBody => ({
    ids,
    include: { locations: false },
    ...(since ? { since } : {}),
  });
  const minute = (l: Load | undefined) => new Date(l?.latestLocation?.instant ?? 0).getUTCMinutes();

  it('sends a refresh as the changed fields of the changed loads; the page gets the view it would have made', async () => {
    proxy(
      answer(
        'p.1',
        ids.map((id) => withStatus(located(id, 0))),
      ),
      answer('p.2', [withStatus(located('3', 5)), withStatus(located('1', 5))]),
      answer('p.3', [withStatus(located('4', 7))], ['2']),
    );
    const { worker, replies } = standIn();
    const pulls = pullThread(() => worker);
    const view = 'board:external-id:1';
    const first = await pulls.pull('external-id', body(), undefined, {
      key: view,
      previous: undefined,
    });
    const second = await pulls.pull('external-id', body('p.1'), undefined, {
      key: view,
      previous: first,
    });
    expect(replies.map((r) => r.kind)).toEqual(['pulled', 'patched']);
    // Only what changed crossed: the two moved loads' latest locations.
    const patched = replies[1] as Extract<PullReply, { kind: 'patched' }>;
    expect(patched.changes.map(([place, id, fields]) => [place, id, Object.keys(fields)])).toEqual([
      [0, '1', ['latestLocation']],
      [2, '3', ['latestLocation']],
    ]);
    expect(second.cursor).toBe('p.2');
    expect(second.loads.map((l) => l.id)).toEqual(ids);
    expect(second.loads.map(minute)).toEqual([5, 0, 5, 0]);
    // The others are the page's own objects; a moved load keeps the parts that did not change.
    expect(second.loads[1]).toBe(first.loads[1]);
    expect(second.loads[3]).toBe(first.loads[3]);
    expect(second.loads[0]?.latestStatus).toBe(first.loads[0]?.latestStatus);
    // Merged in the worker already: the query's sharing keeps the moved loads as they came.
    const shared = shareBoard(first, second);
    expect(shared.loads).toEqual(second.loads);
    expect(shared.loads[0]).toBe(second.loads[0]);
    // A load gone missing changes the list: the answer comes as read, and the page merges it.
    const third = await pulls.pull('external-id', body('p.2'), undefined, {
      key: view,
      previous: second,
    });
    expect(replies[2]?.kind).toBe('pulled');
    expect(third.loads.map((l) => l.id)).toEqual(['1', '3', '4']);
    expect(third.loads.map(minute)).toEqual([5, 5, 7]);
    expect(third.missing).toEqual(['2']);
  });

  it('sends a full answer of many loads in parts, put back together in order; a refresh after it comes whole', async () => {
    const many = Array.from({ length: 4500 }, (_, i) => String(700000 + i));
    proxy(
      answer(
        'p.1',
        many.map((id) => located(id, 0)),
        ['404-load'],
      ),
      answer('p.2', [located(many[4100] as string, 9)]),
    );
    const { worker, replies } = standIn();
    const pulls = pullThread(() => worker);
    const view = 'board:external-id:9';
    const manyBody: PullBody = { ids: [...many, '404-load'], include: { locations: false, extras: false } };
    const first = await pulls.pull('external-id', manyBody, undefined, { key: view, previous: undefined });
    // Two parts of 2,000 while the rest was read, then the answer with the last 500.
    expect(replies.map((r) => (r.kind === 'part' ? r.loads.length : r.kind))).toEqual([2000, 2000, 'pulled']);
    expect(replies[2]).toMatchObject({ kind: 'pulled', given: 4000 });
    expect((replies[2] as Extract<PullReply, { kind: 'pulled' }>).data.loads).toHaveLength(500);
    expect(first.loads.map((l) => l.id)).toEqual(many);
    expect(first.missing).toEqual(['404-load']);
    expect(first.cursor).toBe('p.1');
    // The worker kept the whole view: the next poll is a patch of the one moved load.
    const second = await pulls.pull('external-id', { ...manyBody, since: 'p.1' }, undefined, {
      key: view,
      previous: first,
    });
    expect(replies.slice(3).map((r) => r.kind)).toEqual(['patched']);
    expect(second.loads.map(minute).filter((m) => m === 9)).toHaveLength(1);
    expect(minute(second.loads[4100])).toBe(9);
    expect(second.loads[4099]).toBe(first.loads[4099]);
  });

  it('refuses parts that do not add up to what the answer says came before it', async () => {
    const { worker } = standIn();
    const pulls = pullThread(() => worker);
    proxy(answer('p.1', [located('1', 0)]));
    worker.postMessage = (m) => {
      if (m.kind !== 'pull') return;
      const reply = (data: PullReply) =>
        setTimeout(() => worker.onmessage?.({ data } as MessageEvent<PullReply>), 0);
      reply({ kind: 'part', id: m.id, loads: [] });
      reply({
        kind: 'pulled',
        id: m.id,
        data: { loads: [], missing: [], unreadable: [], fetchedAt: 0, cursor: 'p.1' },
        given: 2000,
        answer: undefined,
      });
    };
    await expect(pulls.pull('external-id', body())).rejects.toThrow(/in parts/);
  });

  it('sends the answer as read when the page asks from another cursor than the view it keeps, and catches up', async () => {
    proxy(
      answer(
        'p.1',
        ids.map((id) => located(id, 0)),
      ),
      answer('p.2', [located('2', 4)]),
      answer('p.3', [located('2', 4), located('4', 6)]),
      answer('p.4', [located('1', 8)]),
    );
    const { worker, replies } = standIn();
    const pulls = pullThread(() => worker);
    const view = 'board:external-id:2';
    const first = await pulls.pull('external-id', body(), undefined, {
      key: view,
      previous: undefined,
    });
    // A refresh the page gave up on: the worker's view moved on to p.2, the page's did not.
    const controller = new AbortController();
    const dropped = pulls.pull('external-id', body('p.1'), controller.signal, {
      key: view,
      previous: first,
    });
    await new Promise((r) => setTimeout(r, 0));
    controller.abort();
    await dropped.catch(() => undefined);
    // The page asks from p.1 again: it gets every load changed since, as read, and merges them.
    const second = await pulls.pull('external-id', body('p.1'), undefined, {
      key: view,
      previous: first,
    });
    expect(replies.at(-1)?.kind).toBe('pulled');
    expect(second.loads.map(minute)).toEqual([0, 4, 0, 6]);
    // From then on the two views are alike again, and the changes alone come.
    const third = await pulls.pull('external-id', body('p.3'), undefined, {
      key: view,
      previous: second,
    });
    expect(replies.at(-1)?.kind).toBe('patched');
    expect(third.loads.map(minute)).toEqual([8, 4, 0, 6]);
  });
});

describe('pullThread, the map’s points ahead of the loads', () => {
  // Judged at the page's instant, not the worker's clock: a year before now, so none is silent yet.
  const RULES = {
    thresholds: { staleAfterMinutes: 30, silentAfterMinutes: 120 },
    excursionTolerance: 5,
    at: Date.now() - 365 * 86_400_000,
  };
  const VIEW = { key: 'board:external-id:1', previous: undefined, points: true };

  it('sends a board’s points first, and its loads once the map drew them', async () => {
    proxy(ok(ANSWER));
    const { worker, replies } = standIn();
    const pulls = pullThread(() => worker);
    pulls.lookRules(RULES);
    let settled = false;
    const seen: EarlyPoints[] = [];
    pulls.onEarlyPoints(() => seen.push(pulls.earlyPoints(VIEW.key) as EarlyPoints));
    // The map waits for them (the board has no loads yet).
    pulls.awaitEarly(VIEW.key);
    const pull = pulls.pull('external-id', BODY, undefined, VIEW).then((d) => {
      settled = true;
      return d;
    });
    for (let i = 0; i < 100 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    // The loads wait in the worker while the map draws the points.
    await new Promise((r) => setTimeout(r, 20));
    expect(replies.map((r) => r.kind)).toEqual(['points']);
    expect(settled).toBe(false);
    pulls.earlyDrawn();
    const data = await pull;
    expect(replies.map((r) => r.kind)).toEqual(['points', 'pulled']);
    const early = seen[0] as EarlyPoints;
    expect(early).toBeDefined();
    expect(early.at).toBe(RULES.at);
    const same = (p: MarkerPoint) => ({
      key: p.key,
      lat: p.lat,
      lon: p.lon,
      accuracy: p.accuracy,
      color: p.color,
      centre: p.centre ?? null,
      ring: p.ring,
      late: !!p.late,
    });
    const fromLoads = data.loads
      .map((l) => pointOf(l, loadStaleness(l, early.at, RULES.thresholds), RULES.excursionTolerance))
      .filter((p): p is MarkerPoint => p !== undefined);
    expect(fromLoads.length).toBeGreaterThan(0);
    expect(earlyPoints(early).map(same)).toEqual(fromLoads.map(same));
  });

  it('sends a long answer’s points before its parts, and its loads at once when no map waits', async () => {
    const one = ANSWER.loads[0] as { id: string };
    const loads = Array.from({ length: 4500 }, (_, i) => ({ ...one, id: `L${i}`, externalId: `L${i}` }));
    proxy(ok({ ...ANSWER, loads, missing: [] }));
    const { worker, replies } = standIn();
    const pulls = pullThread(() => worker);
    pulls.lookRules(RULES);
    const ids = loads.map((l) => l.id);
    const data = await pulls.pull('external-id', { ...BODY, ids }, undefined, VIEW);
    expect(replies.map((r) => r.kind)).toEqual(['points', 'part', 'part', 'pulled']);
    expect(data.loads.map((l) => l.id)).toEqual(ids);
    expect(pulls.earlyPoints(VIEW.key)?.keys).toEqual(ids.map((id) => `external-id:${id}`));
  });

  it('sends no points for a view the map does not draw, nor before the rules of their looks', async () => {
    proxy(ok(ANSWER));
    const { worker, replies } = standIn();
    const pulls = pullThread(() => worker);
    await pulls.pull('external-id', BODY, undefined, VIEW);
    pulls.lookRules(RULES);
    await pulls.pull('external-id', BODY, undefined, { ...VIEW, points: false });
    expect(replies.map((r) => r.kind)).toEqual(['pulled', 'pulled']);
    expect(pulls.earlyPoints(VIEW.key)).toBeUndefined();
  });

  it('sends the loads of an answer with no point to draw at once, though the map waits', async () => {
    const loads = ANSWER.loads.map((l) => ({ ...(l as object), latestLocation: undefined }));
    proxy(ok({ ...ANSWER, loads }));
    const { worker, replies } = standIn();
    const pulls = pullThread(() => worker);
    pulls.lookRules(RULES);
    pulls.awaitEarly(VIEW.key);
    // No `earlyDrawn`: a map with nothing new to draw never says it drew. Nor the fallback's second.
    const pull = pulls.pull('external-id', BODY, undefined, VIEW);
    for (let i = 0; i < 100 && replies.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
    expect(replies.map((r) => r.kind)).toEqual(['points', 'pulled']);
    const data = await pull;
    expect(pulls.earlyPoints(VIEW.key)?.keys).toEqual([]);
    expect(data.loads).toHaveLength(loads.length);
  });
});
