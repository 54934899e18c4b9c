import { afterEach, describe, expect, it, vi } from 'vitest';
import quirks from '@/testing/fixtures/by-external-id-quirks.json';
import { ApiError } from './api-client';
import { pullLoads, type PullBody } from './pull-answer';
import { pullHandler } from './pull-handler';
import type { PullReply, PullRequest } from './pull-protocol';
import { pullThread, type PullWorkerLike } from './pull-thread';

const BODY: PullBody = { ids: ['700100', '700101', '404-load'], include: { locations: false } };
const ANSWER = { status: true, cursor: 'c.1', details: quirks.details, missing: ['404-load'] };

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

afterEach(() => vi.unstubAllGlobals());

describe('pullThread', () => {
  it('reads a pull in the worker to the very loads the page reads, with the body the page sends', async () => {
    const { bodies } = proxy(ok(ANSWER));
    const here = await pullLoads('external-id', BODY, undefined, { extras: false });
    const { worker, sent } = standIn();
    const pulls = pullThread(() => worker);
    const there = await pulls.pull('external-id', BODY, undefined, { extras: false });
    expect(pulls.where()).toBe('worker');
    expect(sent.map((m) => m.kind)).toEqual(['pull']);
    // The same text went to the proxy both ways, and the same loads came back.
    expect(bodies[1]).toBe(bodies[0]);
    expect({ ...there, fetchedAt: 0 }).toEqual({ ...here, fetchedAt: 0 });
    expect(there.loads.map((l) => l.id)).toEqual(['700100', '700101']);
    expect(there.missing).toEqual(['404-load']);
    expect(there.unreadable.map((i) => i.kind)).toEqual(['wrong_type', 'missing_id']);
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

  it('says so when the answer is not JSON, read in the worker', async () => {
    proxy(() => new Response('{"status":true,"details":[', { status: 200 }));
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
    const held: PullWorkerLike = {
      onmessage: null,
      onerror: null,
      onmessageerror: null,
      postMessage: () => undefined,
      terminate: vi.fn(),
    };
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

  it('pulls on the page where there is no worker', async () => {
    proxy(ok(ANSWER));
    const pulls = pullThread(() => null);
    const data = await pulls.pull('external-id', BODY);
    expect(pulls.where()).toBe('page');
    expect(data.cursor).toBe('c.1');
  });
});
