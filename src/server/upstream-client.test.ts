import { describe, expect, it } from 'vitest';
import { json, refusingUrl } from '@/testing/fake-upstream';
import { fakeUpstreamsPerTest } from '@/testing/fake-upstreams-per-test';
import { parsePullAnswer } from '@/contract/parse-pull';
import { ProxyError } from './errors';
import { createUpstreamClient, retryAfterMs } from './upstream-client';

const { fake } = fakeUpstreamsPerTest();

function client(baseUrl: string, extra: Partial<Parameters<typeof createUpstreamClient>[0]> = {}) {
  return createUpstreamClient({
    baseUrl,
    partnerId: 7,
    accountId: 'enc-secret',
    timeoutMs: 2000,
    maxBytes: 1 << 20,
    ...extra,
  });
}

async function failure(promise: Promise<unknown>): Promise<ProxyError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProxyError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

const ok = { status: true, timeStamp: '11/22/2026 13:00:00 UTC', details: [] };

describe('pull', () => {
  it('sends exactly the documented body to the fixed path, with the credentials and no browser headers', async () => {
    const upstream = await fake((_req, res) => json(res, 200, ok));
    await client(upstream.url).pull('external-id', ['a', 'b'], { events: false }, 'yes');
    await client(upstream.url).pull('load-number', ['LN1'], undefined, 'no');
    const [byId, byNumber] = upstream.seen;
    expect(byId?.url).toBe('/loadtrackservice/getLoadTrackDetailsServiceV2');
    expect(JSON.parse(byId!.body)).toEqual({
      partnerId: 7,
      accountId: 'enc-secret',
      loadTrackExternalIds: ['a', 'b'],
      sendNewData: 'yes',
      includeLocations: true,
      includeEvents: false,
      includeDocuments: true,
      includeComments: true,
    });
    expect(byNumber?.url).toBe('/loadtrackservice/getLoadTrackDetailsServiceByLoadNumber');
    expect(JSON.parse(byNumber!.body)).toMatchObject({ loadNumbers: ['LN1'], loadTrackExternalIds: [] });
    expect(byId?.headers.cookie).toBeUndefined();
    expect(byId?.headers.authorization).toBeUndefined();
  });

  it('treats a 200 whose envelope says status false as a failure, with its message', async () => {
    const upstream = await fake((_req, res) =>
      json(res, 200, { status: false, message: 'Account suspended' }),
    );
    const error = await failure(client(upstream.url).pull('external-id', ['a'], undefined, 'no'));
    expect(error).toMatchObject({ status: 502, code: 'upstream_refused' });
    expect(error.message).toContain('Account suspended');
  });

  it('relays what the upstream says about a failure without the credentials it may quote', async () => {
    const upstream = await fake((req, res) =>
      req.url?.includes('ByLoadNumber')
        ? json(res, 401, { status: false, message: 'Unknown account enc-secret for partner 7', errorCode: 1 })
        : json(res, 200, { status: false, message: 'Partner 7 (not 77): enc-secret suspended' }),
    );
    const rejected = await failure(client(upstream.url).pull('load-number', ['a'], undefined, 'no'));
    expect(rejected.details).toMatchObject({
      upstreamMessage: 'Unknown account [account id] for partner [partner id]',
    });
    const refused = await failure(client(upstream.url).pull('external-id', ['a'], undefined, 'no'));
    expect(refused.message).toBe(
      'the upstream reported a failure: Partner [partner id] (not 77): [account id] suspended',
    );
  });

  it('does not follow redirects', async () => {
    const upstream = await fake((_req, res) => {
      res.writeHead(302, { Location: 'http://127.0.0.1:1/elsewhere' });
      res.end();
    });
    const error = await failure(client(upstream.url).pull('external-id', ['a'], undefined, 'no'));
    expect(error.code).toBe('upstream_redirect');
    expect(upstream.seen).toHaveLength(1);
  });

  it('refuses an answer larger than the cap', async () => {
    const upstream = await fake((_req, res) => json(res, 200, { ...ok, padding: 'x'.repeat(5000) }));
    const error = await failure(
      client(upstream.url, { maxBytes: 1000 }).pull('external-id', ['a'], undefined, 'no'),
    );
    expect(error).toMatchObject({ status: 502, code: 'upstream_too_large' });
  });

  it('does not pause calls after answers too large: the service answered, and smaller calls follow', async () => {
    const upstream = await fake((_req, res) => json(res, 200, { ...ok, padding: 'x'.repeat(5000) }));
    const c = client(upstream.url, { maxBytes: 1000, breakerThreshold: 2 });
    for (let i = 0; i < 4; i++)
      expect((await failure(c.pull('external-id', ['a', 'b'], undefined, 'no'))).code).toBe(
        'upstream_too_large',
      );
    expect(c.stats.consecutiveFailures).toBe(0);
    expect(c.stats.pausedUntil).toBeNull();
    expect(upstream.seen).toHaveLength(4);
  });

  it('answers 504 when the upstream is slower than the deadline, and does not retry', async () => {
    const upstream = await fake((_req, res) => setTimeout(() => json(res, 200, ok), 1000));
    const error = await failure(
      client(upstream.url, { timeoutMs: 150 }).pull('external-id', ['a'], undefined, 'yes'),
    );
    expect(error).toMatchObject({ status: 504, code: 'upstream_timeout' });
    expect(upstream.seen).toHaveLength(1);
  });

  it('does not retry a 500: a "yes" pull that reached the upstream may have moved its cursor', async () => {
    const upstream = await fake((_req, res) => json(res, 500, {}));
    const c = client(upstream.url);
    expect((await failure(c.pull('external-id', ['a'], undefined, 'yes'))).code).toBe('upstream_error');
    expect(upstream.seen).toHaveLength(1);
  });
});

describe('429 and the breaker', () => {
  it('makes no call before Retry-After and tells the caller when to come back', async () => {
    let t = 1_000_000;
    const upstream = await fake((_req, res) => json(res, 429, {}, { 'Retry-After': '30' }));
    const c = client(upstream.url, { now: () => t });
    const first = await failure(c.pull('external-id', ['a'], undefined, 'no'));
    expect(first).toMatchObject({
      status: 429,
      code: 'upstream_rate_limited',
      headers: { 'Retry-After': '30' },
    });
    t += 10_000;
    const second = await failure(c.pull('external-id', ['a'], undefined, 'no'));
    expect(second).toMatchObject({ status: 429, headers: { 'Retry-After': '20' } });
    expect(upstream.seen).toHaveLength(1);
    t += 21_000;
    await failure(c.pull('external-id', ['a'], undefined, 'no'));
    expect(upstream.seen).toHaveLength(2);
  });

  it('fails fast after repeated failures, then lets one probe through', async () => {
    let t = 0;
    let healthy = false;
    const upstream = await fake((_req, res) => (healthy ? json(res, 200, ok) : json(res, 503, {})));
    const c = client(upstream.url, { now: () => t, breakerThreshold: 3, breakerOpenMs: 10_000 });
    for (let i = 0; i < 3; i++) await failure(c.pull('external-id', ['a'], undefined, 'no'));
    const fast = await failure(c.pull('external-id', ['a'], undefined, 'no'));
    // It still says what kind of failure it was.
    expect(fast).toMatchObject({
      status: 503,
      code: 'upstream_unavailable',
      details: { lastFailure: { code: 'upstream_error', upstreamStatus: 503 } },
    });
    expect(upstream.seen).toHaveLength(3);
    t += 10_001;
    healthy = true;
    await c.pull('external-id', ['a'], undefined, 'no');
    await c.pull('external-id', ['a'], undefined, 'no');
    expect(upstream.seen).toHaveLength(5);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('12', 0)).toBe(12_000);
    expect(retryAfterMs(new Date(60_000).toUTCString(), 0)).toBe(60_000);
    expect(retryAfterMs('soon', 0)).toBe(1000);
  });
});

describe('connection refused', () => {
  it('is tried once more (the request provably never arrived), then reported as unreachable', async () => {
    const c = client(await refusingUrl());
    const error = await failure(c.pull('external-id', ['a'], undefined, 'yes'));
    expect(error).toMatchObject({ status: 502, code: 'upstream_unreachable' });
    expect(c.stats.calls).toBe(2);
  });
});

describe('a kept-alive connection reset before any answer', () => {
  /** Answers every call but the second, whose kept-alive connection it resets unanswered. */
  async function resettingSecond() {
    let calls = 0;
    return fake((_req, res) => {
      if (++calls === 2) res.socket?.destroy();
      else json(res, 200, { status: true, details: [] });
    });
  }

  it('is asked again for a full pull, which asking twice does no harm', async () => {
    const upstream = await resettingSecond();
    const c = client(upstream.url);
    await c.pull('external-id', ['a'], undefined, 'no');
    await c.pull('external-id', ['a'], undefined, 'no');
    expect(upstream.seen).toHaveLength(3);
    expect(c.stats.lastError).toBeNull();
  });

  it('is not asked again for a delta pull, which the service may have answered already', async () => {
    const upstream = await resettingSecond();
    const c = client(upstream.url);
    await c.pull('external-id', ['a'], undefined, 'yes');
    const error = await failure(c.pull('external-id', ['a'], undefined, 'yes'));
    expect(error).toMatchObject({ status: 502, code: 'upstream_unreachable' });
    expect(upstream.seen).toHaveLength(2);
  });
});

describe('createWebhook', () => {
  it('relays the status, body and Location path, and forwards the bearer token', async () => {
    const created = {
      uuid: 'b5d8…',
      eventType: 'PdvRequestCompleted',
      clientUrl: 'https://x.example',
      isActive: true,
      createdAt: '2026-11-22T13:00:00.000Z',
    };
    const upstream = await fake((_req, res) =>
      json(res, 201, created, { Location: '/api/v1/webhooks/b5d8-1', 'Set-Cookie': 'a=b' }),
    );
    const answer = await client(upstream.url).createWebhook(
      { eventType: 'PdvRequestCompleted', clientUrl: 'https://x.example' },
      'Bearer t.k.n',
    );
    expect(answer).toEqual({ status: 201, body: created, location: '/api/v1/webhooks/b5d8-1' });
    expect(upstream.seen[0]?.headers.authorization).toBe('Bearer t.k.n');
    expect(upstream.seen[0]?.url).toBe('/api/v1/webhooks');
  });

  it('drops a Location that is not a webhook path', async () => {
    const upstream = await fake((_req, res) =>
      json(res, 201, { uuid: 'x' }, { Location: 'https://evil.example/' }),
    );
    const answer = await client(upstream.url).createWebhook({ eventType: 'x', clientUrl: 'y' }, undefined);
    expect(answer.location).toBeUndefined();
  });

  it('relays a 4xx as it came, the body it was sent included; a 5xx (a gateway page too) or a 3xx is a 502', async () => {
    const refusal = { statusCode: 422, errors: [{ keyword: 'enum', message: 'bad eventType' }] };
    const answers: [number, string, Record<string, string>][] = [
      [422, JSON.stringify(refusal), { 'Content-Type': 'application/json' }],
      [503, '<html><body>Bad gateway</body></html>', { 'Content-Type': 'text/html' }],
      [
        302,
        JSON.stringify({ moved: true }),
        { Location: 'https://evil.example/', 'Content-Type': 'application/json' },
      ],
    ];
    let n = 0;
    const upstream = await fake((req, res) => {
      const [status, text, headers] = answers[n++]!;
      res.writeHead(status, headers);
      res.end(text);
    });
    const c = client(upstream.url);
    const call = () =>
      c.createWebhook({ eventType: 'PdvRequestCompleted', clientUrl: 'https://x.example' }, 'Bearer t');
    expect(await call()).toEqual({ status: 422, body: refusal, location: undefined });
    await expect(call()).rejects.toMatchObject({
      status: 502,
      code: 'upstream_error',
      details: { upstreamStatus: 503 },
    });
    await expect(call()).rejects.toMatchObject({ status: 502, code: 'upstream_bad_answer' });
    expect(upstream.seen.map((r) => JSON.parse(r.body) as unknown)).toEqual(
      Array.from({ length: 3 }, () => ({ eventType: 'PdvRequestCompleted', clientUrl: 'https://x.example' })),
    );
  });
});

describe('pull, asked about details it knows (the puller at rest)', () => {
  const detail = (id: number, city: string) => ({
    loadTrackExternalId: id,
    latestLocation: { lat: 41.1, lon: -90, timestampUTC: '11/22/2026 10:00:00 UTC', city },
    locations: [],
    stops: [{ stopOrderNumber: 1, note: 'a "quoted" [bracket] {brace}' }],
  });

  it('parses only the details it does not recognise by id and the print of their text, and counts the others by their notes', async () => {
    let details = [detail(1, 'X'), detail(2, 'Y')];
    const upstream = await fake((_req, res) => json(res, 200, { ...ok, details }));
    const prints = new Map<string, number[]>();
    const known = new Set<string>();
    const note = {
      path: 'details[0].stops',
      kind: 'unknown_field' as const,
      message: 'kept',
      skipped: false,
    };
    const seen = (id: string, print: number) => {
      prints.set(id, [...(prints.get(id) ?? []), print]);
      return known.has(id) ? [note] : undefined;
    };
    const first = await client(upstream.url).pull('external-id', ['1', '2'], undefined, 'yes', seen);
    expect(first.data.details.map((d) => d.loadTrackExternalId)).toEqual(['1', '2']);

    known.add('1');
    const second = await client(upstream.url).pull('external-id', ['1', '2'], undefined, 'yes', seen);
    expect(second.data.details.map((d) => d.loadTrackExternalId)).toEqual(['2']);
    expect(second.data.details[0]?.latestLocation?.city).toBe('Y');
    expect(second.issues).toContainEqual(note);
    // The same text, the same print; another head, another print.
    details = [detail(1, 'X'), detail(2, 'Z')];
    await client(upstream.url).pull('external-id', ['1', '2'], undefined, 'yes', seen);
    const [a1, b1, c1] = prints.get('1') ?? [];
    const [a2, b2, c2] = prints.get('2') ?? [];
    expect([a1, b1]).toEqual([c1, c1]);
    expect(a2).toBe(b2);
    expect(c2).not.toBe(b2);
  });

  it("asks about no detail when one detail's id is not read from its text, and parses them all", async () => {
    // An escaped key at a detail's top level: its id is not read from its bytes, so it could be any
    // load's, the recognised one's too.
    const odd = { 'x\ny': 1, ...detail(1, 'Z') };
    const upstream = await fake((_req, res) => json(res, 200, { ...ok, details: [odd, detail(1, 'X')] }));
    const asked: string[] = [];
    const seen = (id: string) => {
      asked.push(id);
      return [];
    };
    const answer = await client(upstream.url).pull('external-id', ['1'], undefined, 'yes', seen);
    expect(asked).toEqual([]);
    expect(answer.data.details.map((d) => d.latestLocation?.city)).toEqual(['Z', 'X']);
  });
});

describe('pull, a full answer (asked about no detail)', () => {
  const detail = (id: number, city: string) => ({
    loadTrackExternalId: id,
    latestLocation: { lat: 41.1, lon: -90, timestampUTC: '11/22/2026 10:00:00 UTC', city },
    locations: [{ lat: '41.1', lon: '-90', deviceTimeGmt: '2026-11-22 10:00:00' }, 5],
    stops: [{ stopOrderNumber: 1, note: 'a "quoted" [bracket] {brace}' }],
  });

  it('hands its details unread, each read when taken as the whole answer reads it, its notes added', async () => {
    const body = { ...ok, details: [detail(1, 'X'), 'junk', detail(2, 'Y')] };
    const upstream = await fake((_req, res) => json(res, 200, body));
    const answer = await client(upstream.url).pull('external-id', ['1', '2'], undefined, 'no');
    const whole = parsePullAnswer(body);
    if ('error' in whole) throw new Error(whole.error);
    expect(answer.data.details).toEqual([]);
    expect(answer.issues).toEqual([]);
    const taken = [0, 1, 2].map((i) => answer.data.unread?.take(i));
    expect(taken.flatMap((t) => (t?.detail ? [t.detail] : []))).toEqual(whole.data.details);
    expect(taken.flatMap((t) => (t?.detail ? [t.issues] : []))).toEqual(whole.data.detailIssues);
    expect(answer.issues).toEqual(whole.issues);
    expect(answer.issues.map((i) => i.path)).toEqual(
      expect.arrayContaining(['details[1]', 'details[2].locations[1]']),
    );
  });

  it('refuses a detail that is not JSON when it is read, and an answer cut off when it comes', async () => {
    const text = JSON.stringify({ ...ok, details: [detail(1, 'X'), detail(2, 'Y')] });
    let sent = text.replace('"city":"Y"', '"city":Y');
    const upstream = await fake((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(sent);
    });
    const c = client(upstream.url);
    const answer = await c.pull('external-id', ['1', '2'], undefined, 'no');
    expect(answer.data.unread?.take(0).detail?.latestLocation?.city).toBe('X');
    expect(c.stats.lastError).toBeNull();
    expect(() => answer.data.unread?.take(1)).toThrow(
      expect.objectContaining({ status: 502, code: 'upstream_bad_json' }),
    );
    // The diagnostics page tells of it as of a call refused whole.
    expect(c.stats.lastError).toMatchObject({ code: 'upstream_bad_json' });
    sent = text.slice(0, -20);
    const cut = await failure(client(upstream.url).pull('external-id', ['1', '2'], undefined, 'no'));
    expect(cut).toMatchObject({ status: 502, code: 'upstream_bad_json' });
    expect(cut.message).toMatch(/not valid JSON \(it may be truncated\)/);
    // A maintenance page with a 200 is called what it is, not a truncated answer.
    sent = '<!DOCTYPE html><html><body><h1>Down for maintenance</h1></body></html>';
    const page = await failure(client(upstream.url).pull('external-id', ['1', '2'], undefined, 'no'));
    expect(page).toMatchObject({ status: 502, code: 'upstream_bad_json' });
    expect(page.message).toMatch(/a web page, not JSON/);
  });
});
