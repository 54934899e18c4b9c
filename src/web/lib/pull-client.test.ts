import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import quirks from '@/testing/fixtures/by-external-id-quirks.json';
import type { PulledLoads } from './pull-answer';
import type { PullReply, PullRequestMessage } from './pull-protocol';

/** A stand-in for the pull worker: records what the page posts; the test answers for the worker. */
class FakeWorker {
  static last: FakeWorker | undefined;
  onmessage: ((event: MessageEvent<PullReply>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  posted: PullRequestMessage[] = [];
  terminated = false;
  constructor(
    readonly url: URL,
    readonly options: WorkerOptions,
  ) {
    FakeWorker.last = this;
  }
  postMessage(message: PullRequestMessage) {
    this.posted.push(structuredClone(message));
  }
  terminate() {
    this.terminated = true;
  }
  reply(data: PullReply) {
    this.onmessage?.(new MessageEvent('message', { data: structuredClone(data) }));
  }
  fail() {
    this.onerror?.(
      new ErrorEvent('error', { message: 'could not load the worker script', cancelable: true }),
    );
  }
}

const BODY = { ids: ['700100', '700101'], include: { documents: false } };
const pulled = (cursor: string): PulledLoads => ({
  loads: [],
  missing: ['404-load'],
  unreadable: [],
  fetchedAt: 1,
  cursor,
});

/** The client keeps its worker for the page's life: each test loads a fresh copy of it. */
const freshClient = async () => {
  vi.resetModules();
  return (await import('./pull-client')).pull;
};

/** The proxy, for pulls made on the page's own thread. */
function proxyAnswering(answer: unknown) {
  const fetch = vi.fn(async () => new Response(JSON.stringify(answer), { status: 200 }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('pull', () => {
  beforeEach(() => {
    FakeWorker.last = undefined;
    performance.clearMarks();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('asks the worker, and hands on what it read, marking when the answer reached the page', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    const pull = await freshClient();
    const answer = pull('external-id', BODY);
    const worker = FakeWorker.last as FakeWorker;
    expect(worker.options.type).toBe('module');
    expect(worker.posted).toEqual([{ type: 'pull', id: 1, by: 'external-id', body: BODY }]);
    worker.reply({ id: 1, data: pulled('c1') });
    await expect(answer).resolves.toEqual(pulled('c1'));
    const mark = performance.getEntriesByName('haulview:answer')[0] as PerformanceMark | undefined;
    expect(mark?.detail).toEqual({ path: '/api/pull/by-external-id', include: '{"documents":false}' });
    // One worker for every pull; each reply finds its own pull.
    const a = pull('load-number', BODY);
    const b = pull('external-id', BODY);
    expect(FakeWorker.last).toBe(worker);
    worker.reply({ id: 3, data: pulled('b') });
    worker.reply({ id: 2, data: pulled('a') });
    expect((await a).cursor).toBe('a');
    expect((await b).cursor).toBe('b');
  });

  it('turns a failure the worker reports into the api client’s error, retry time included', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    const pull = await freshClient();
    const answer = pull('external-id', BODY);
    FakeWorker.last?.reply({
      id: 1,
      error: { status: 429, code: 'rate_limited', message: 'Too many requests', retryAfter: '30' },
    });
    const error = await answer.catch((e: unknown) => e);
    // The client's own copy of the class (the modules were loaded afresh).
    expect(error).toBeInstanceOf((await import('./api-client')).ApiError);
    expect(error).toMatchObject({
      status: 429,
      code: 'rate_limited',
      message: 'Too many requests',
      retryAfter: '30',
    });
  });

  it('stops a pull in the worker when its query is cancelled, and ignores a late answer', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    const pull = await freshClient();
    const controller = new AbortController();
    const answer = pull('external-id', BODY, controller.signal);
    controller.abort();
    await expect(answer).rejects.toMatchObject({ name: 'AbortError' });
    const worker = FakeWorker.last as FakeWorker;
    expect(worker.posted.at(-1)).toEqual({ type: 'abort', id: 1 });
    expect(() => worker.reply({ id: 1, data: pulled('late') })).not.toThrow();
    // Already cancelled: not even asked.
    await expect(pull('external-id', BODY, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(worker.posted).toHaveLength(2);
  });

  it('pulls on the page’s own thread when the worker cannot start, the pulls it held included', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    const fetch = proxyAnswering({ status: true, cursor: 'here', details: quirks.details, missing: [] });
    const pull = await freshClient();
    const held = pull('external-id', BODY);
    const worker = FakeWorker.last as FakeWorker;
    worker.fail();
    expect(worker.terminated).toBe(true);
    const data = await held;
    expect(data.cursor).toBe('here');
    expect(data.loads.map((l) => l.id)).toEqual(['700100', '700101']);
    // And every pull after it, without another worker.
    FakeWorker.last = undefined;
    await pull('external-id', BODY);
    expect(FakeWorker.last).toBeUndefined();
    expect(fetch).toHaveBeenCalledTimes(2);
    const [path, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe('/api/pull/by-external-id');
    expect(JSON.parse(String(init.body))).toEqual(BODY);
  });

  it('pulls on the page’s own thread where there are no workers', async () => {
    vi.stubGlobal('Worker', undefined);
    proxyAnswering({ status: true, cursor: 'c', details: quirks.details, missing: ['404-load'] });
    const pull = await freshClient();
    const data = await pull('external-id', BODY);
    expect(data.missing).toEqual(['404-load']);
    expect(data.loads).toHaveLength(2);
    // Read for the browser: the model only, not the wire items too.
    expect(data.loads[0]?.latestLocation?.source).toBeUndefined();
  });
});
