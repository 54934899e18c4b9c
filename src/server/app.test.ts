import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientConfig, Health, ProxyErrorBody } from '@/contract/proxy-api';
import { Diagnostics } from '@/contract/diagnostics-api';
import { LoadView, ProxyPullAnswer } from '@/contract/load-view';
import { NOISE_RULES } from '@/domain/noise-rules';
import { OSM_TILE_URL } from '@/server/config';
import { json, refusingUrl, startFakeUpstream } from '@/testing/fake-upstream';
import { manualClock, startStack, TEST_CREDENTIALS, type Stack } from '@/testing/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ loads: 12 });
});
afterAll(() => stack.close());

const ids = () => stack.sim.fleet.map((p) => String(p.externalId));

/** The loads of a pull answer, each read with the strict schema the page reads them with. */
async function loadsOf(response: Response) {
  const answer = ProxyPullAnswer.parse(await response.json());
  return { ...answer, loads: answer.loads.map((l) => LoadView.parse(l)) };
}

async function errorOf(response: Response) {
  return ProxyErrorBody.parse(await response.json()).error;
}

describe('POST /api/pull/by-external-id', () => {
  it('forwards to the upstream with the partner credentials and answers every load it knows', async () => {
    const response = await stack.post('/api/pull/by-external-id', { ids: [...ids(), 'unknown-1'] });
    expect(response.status).toBe(200);
    const answer = await loadsOf(response);
    expect(answer.version).toBe(2);
    expect(answer.loads).toHaveLength(12);
    expect(answer.loads.every((l) => l.by === 'external-id' && l.latestLocation !== undefined)).toBe(true);
    expect(answer.missing).toEqual(['unknown-1']);
    expect(answer.cursor).toBeTruthy();
  });

  it('writes each load on a line of its own, as the page reads a board a part at a time', async () => {
    const response = await stack.post('/api/pull/by-external-id', { ids: [...ids(), 'unknown-1'] });
    const text = await response.text();
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/,"loads":\[$/);
    expect(lines.at(-1)).toMatch(/^\],"missing":\["unknown-1"\]/);
    const loads = lines
      .slice(1, -1)
      .map((line, i) => JSON.parse(i === 0 ? line : line.replace(/^,/, '')) as unknown);
    expect(loads).toEqual((JSON.parse(text) as { loads: unknown[] }).loads);
    expect(loads).toHaveLength(12);
  });

  it('folds duplicate ids and keeps the order asked for', async () => {
    const [a, b] = ids();
    const answer = await loadsOf(await stack.post('/api/pull/by-external-id', { ids: [b, a, b] }));
    expect(answer.loads.map((l) => l.id)).toEqual([b, a]);
  });

  it('leaves each load’s undocumented fields and their notes out when include.extras is false', async () => {
    const pull = async (include?: object) =>
      loadsOf(await stack.post('/api/pull/by-external-id', { ids: ids(), ...(include ? { include } : {}) }));
    const full = await pull();
    // The simulator sends stops, an undocumented field, with every load; the proxy keeps them and says so.
    expect(full.loads.every((l) => Array.isArray(l.extras.stops))).toBe(true);
    expect(full.loads.some((l) => l.issues.some((n) => n.kind === 'unknown_field'))).toBe(true);
    const lean = await pull({ locations: false, extras: false });
    expect(lean.loads).toHaveLength(12);
    expect(lean.loads.some((l) => Object.keys(l.extras).length > 0)).toBe(false);
    expect(lean.loads.every((l) => l.latestLocation)).toBe(true);
    expect(lean.loads.every((l) => l.pings.length === 0)).toBe(true);
    expect(lean.loads.some((l) => l.issues.some((n) => n.kind === 'unknown_field'))).toBe(false);
  });

  it('splits many ids into upstream calls of UPSTREAM_MAX_IDS', async () => {
    const small = await startStack({ loads: 7, env: { UPSTREAM_MAX_IDS: '3' } });
    try {
      const answer = await loadsOf(
        await small.post('/api/pull/by-external-id', {
          ids: small.sim.fleet.map((p) => String(p.externalId)),
        }),
      );
      expect(answer.loads).toHaveLength(7);
      // One structured line per request, with these fields and no others (no query, no body).
      const lines = small.logs.map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines).toHaveLength(1);
      const line = lines[0]!;
      expect(Object.keys(line).sort()).toEqual([
        'loads',
        'method',
        'ms',
        'path',
        'status',
        't',
        'upstreamCalls',
      ]);
      expect(line).toMatchObject({
        method: 'POST',
        path: '/api/pull/by-external-id',
        status: 200,
        upstreamCalls: 3,
        loads: 7,
      });
      expect(line.ms).toBeGreaterThan(0);
      expect(Date.parse(String(line.t))).not.toBeNaN();
      const refused = await small.post('/api/pull/by-load-number?ids=secret-id', { ids: [] });
      expect(refused.status).toBe(400);
      expect(JSON.parse(small.logs.at(-1)!)).toMatchObject({
        method: 'POST',
        path: '/api/pull/by-load-number',
        status: 400,
        upstreamCalls: 0,
        loads: 0,
      });
      expect(small.logs.at(-1)).not.toContain('secret-id');
    } finally {
      await small.close();
    }
  });

  it('serves a load refreshed less than half of REFRESH_SECONDS ago from the cache', async () => {
    const clock = manualClock();
    const timed = await startStack({ loads: 2, now: clock.now, env: { REFRESH_SECONDS: '10' } });
    try {
      const id = String(timed.sim.fleet[0]!.externalId);
      const calls = async () => {
        await (await timed.post('/api/pull/by-external-id', { ids: [id] })).arrayBuffer();
        return (JSON.parse(timed.logs.at(-1)!) as { upstreamCalls: number }).upstreamCalls;
      };
      expect(await calls()).toBe(1);
      clock.advance(4_999);
      expect(await calls()).toBe(0);
      clock.advance(1);
      expect(await calls()).toBe(1);
    } finally {
      await timed.close();
    }
  });

  it('never echoes the partner credentials to the browser or the log', async () => {
    const response = await stack.post('/api/pull/by-external-id', { ids: ids() });
    const text = await response.text();
    const headers = JSON.stringify([...response.headers]);
    for (const secret of [TEST_CREDENTIALS.accountId, String(TEST_CREDENTIALS.partnerId)]) {
      expect(text.includes(`"${secret}"`) || text.includes(`:${secret},`)).toBe(false);
      expect(headers).not.toContain(secret);
      expect(stack.logs.join('\n')).not.toContain(
        secret === String(TEST_CREDENTIALS.partnerId) ? `"partnerId"` : secret,
      );
    }
  });
});

describe('bad requests', () => {
  const cases: [string, unknown, RegExp][] = [
    ['no ids', {}, /ids/],
    ['empty ids', { ids: [] }, /at least one id/],
    ['non-string ids', { ids: [1, 2] }, /string/],
    ['an empty id', { ids: ['  '] }, /must not be empty/],
    ['a too long id', { ids: ['x'.repeat(65)] }, /at most 64/],
    ['an unprintable id', { ids: ['a\u0000b'] }, /printable/],
    ['unknown fields', { ids: ['1'], colour: 'red' }, /unknown field.*"colour"/],
    ['a bad include flag', { ids: ['1'], include: { locations: 'yes' } }, /include\.locations/],
    ['an array body', [], /expected object/i],
  ];
  for (const [name, body, message] of cases) {
    it(`answers 400 naming the field for ${name}`, async () => {
      const response = await stack.post('/api/pull/by-external-id', body);
      expect(response.status).toBe(400);
      const error = await errorOf(response);
      expect(error.code).toBe('invalid_request');
      expect(error.message).toMatch(message);
    });
  }

  it('refuses a body that tries to set credentials or the upstream address', async () => {
    for (const field of ['partnerId', 'accountId', 'url']) {
      const response = await stack.post('/api/pull/by-external-id', { ids: ['1'], [field]: 'x' });
      expect(response.status).toBe(400);
      const error = await errorOf(response);
      expect(error.code).toBe('forbidden_field');
      expect(error.message).toContain(field);
    }
  });

  it('answers 400 for malformed JSON, 415 for another content type and 413 for a huge body', async () => {
    const malformed = await stack.post('/api/pull/by-external-id', '{"ids": [');
    expect(malformed.status).toBe(400);
    expect((await errorOf(malformed)).message).toMatch(/JSON/i);
    const text = await stack.post('/api/pull/by-external-id', 'ids=1', { 'Content-Type': 'text/plain' });
    expect(text.status).toBe(415);
    const huge = await stack.post('/api/pull/by-external-id', {
      ids: Array.from({ length: 20_000 }, (_, i) => `id-${i}`),
    });
    expect(huge.status).toBe(413);
  });

  it('refuses a body over 64 KiB with the default MAX_IDS, and reads one of exactly 64 KiB', async () => {
    const sized = (bytes: number) => {
      const head = JSON.stringify({ ids: ['1'] }).slice(0, -1);
      // Spaces before the closing brace are JSON's own: the body stays valid whatever its size.
      return `${head}${' '.repeat(bytes - head.length - 1)}}`;
    };
    expect(sized(65_536)).toHaveLength(65_536);
    const limit = await stack.post('/api/pull/by-external-id', sized(65_536));
    expect(limit.status).toBe(200);
    const over = await stack.post('/api/pull/by-external-id', sized(65_537));
    expect(over.status).toBe(413);
    expect((await errorOf(over)).message).toContain('65536 bytes');
  });

  it('counts a body sent without a length (chunked) as it streams in: 413 past the limit, read when within', async () => {
    const chunked = (text: string) =>
      fetch(`${stack.proxy.url}/api/pull/by-external-id`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'haulview' },
        body: new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(text));
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
    const huge = await chunked(JSON.stringify({ ids: Array.from({ length: 20_000 }, (_, i) => `id-${i}`) }));
    expect(huge.status).toBe(413);
    expect((await errorOf(huge)).code).toBe('body_too_large');
    const small = await chunked(JSON.stringify({ ids: ids().slice(0, 2) }));
    expect(small.status).toBe(200);
    expect((await loadsOf(small)).loads).toHaveLength(2);
  });

  it('takes a body of MAX_IDS ids of the longest kind, and refuses one beyond it', async () => {
    const wide = await startStack({ loads: 3, env: { MAX_IDS: '10000', UPSTREAM_MAX_IDS: '10000' } });
    try {
      const longest = (i: number) => `${'"'.repeat(58)}${String(i).padStart(6, '0')}`;
      const ids = Array.from({ length: 10_000 }, (_, i) => longest(i));
      const full = await wide.post('/api/pull/by-external-id', { ids });
      expect(full.status).toBe(200);
      expect(((await full.json()) as { missing: string[] }).missing).toHaveLength(10_000);
      const over = await wide.post('/api/pull/by-external-id', { ids: [...ids, ...ids.slice(0, 1000)] });
      expect(over.status).toBe(413);
      // Within the body limit, one id beyond MAX_IDS is refused by the validator, naming the limit.
      const short = Array.from({ length: 10_001 }, (_, i) => `n${i}`);
      const tooMany = await wide.post('/api/pull/by-external-id', { ids: short });
      expect(tooMany.status).toBe(400);
      expect((await errorOf(tooMany)).message).toMatch(/10000/);
      const most = await wide.post('/api/pull/by-external-id', { ids: short.slice(0, 10_000) });
      expect(most.status).toBe(200);
    } finally {
      await wide.close();
    }
  });

  it('refuses POSTs without the SPA header or from another origin, before any upstream call', async () => {
    // Ids never pulled before: had either request gone on, it would have cost an upstream call.
    const before = stack.logs.length;
    const noHeader = await fetch(`${stack.proxy.url}/api/pull/by-external-id`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ids: ['never-pulled-1'] }),
    });
    expect(noHeader.status).toBe(403);
    expect((await errorOf(noHeader)).code).toBe('missing_client_header');
    const foreign = await stack.post(
      '/api/pull/by-external-id',
      { ids: ['never-pulled-2'] },
      { Origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    expect((await errorOf(foreign)).code).toBe('foreign_origin');
    const refused = stack.logs
      .slice(before)
      .map((l) => JSON.parse(l) as { status: number; upstreamCalls: number });
    expect(refused.map((l) => [l.status, l.upstreamCalls])).toEqual([
      [403, 0],
      [403, 0],
    ]);
    // The SPA's own origin is let through, and that pull does reach the upstream.
    const own = await stack.post(
      '/api/pull/by-external-id',
      { ids: ['never-pulled-3'] },
      { Origin: stack.proxy.url },
    );
    expect(own.status).toBe(200);
    expect(((await own.json()) as { missing: string[] }).missing).toEqual(['never-pulled-3']);
    expect((JSON.parse(stack.logs.at(-1)!) as { upstreamCalls: number }).upstreamCalls).toBe(1);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await stack.post('/api/pull/by-nothing', { ids: ['1'] });
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe('not_found');
  });
});

/** A fake upstream that answers every pull with these load details. */
const upstreamSending = (details: unknown[]) =>
  startFakeUpstream((_req, res) =>
    json(res, 200, { status: true, timeStamp: '11/22/2026 15:00:00 UTC', details }),
  );

describe('values the upstream sends out of range', () => {
  it("lists a ping skipped for its coordinate in /api/diagnostics, as the parser's notes are", async () => {
    const upstream = await upstreamSending([
      {
        loadTrackExternalId: 8,
        locations: [
          { lat: '95', lon: '-95.9', timestamp: '11/22/2026 09:00:00 CST' },
          { lat: '41.2', lon: '-95.9', timestamp: '11/22/2026 09:05:00 CST' },
        ],
      },
    ]);
    const stack = await startStack({ upstream: { baseUrl: upstream.url } });
    try {
      const response = await stack.post('/api/pull/by-external-id', { ids: ['8'] });
      expect(response.status).toBe(200);
      const [load] = (await loadsOf(response)).loads;
      expect(load?.pings).toHaveLength(1);
      const report = Diagnostics.parse(await (await fetch(`${stack.proxy.url}/api/diagnostics`)).json());
      expect(report.entries).toContainEqual(
        expect.objectContaining({
          operation: 'external-id',
          path: 'details[].locations[].lat',
          kind: 'bad_coordinate',
          count: 1,
          skipped: true,
        }),
      );
    } finally {
      await stack.close();
      await upstream.close();
    }
  });
});

describe('items the upstream wraps one level deeper than documented', () => {
  it('serves a wrapped status event as an event, and notes it in /api/diagnostics', async () => {
    const upstream = await upstreamSending([
      {
        loadTrackExternalId: 7,
        events: [
          {
            event: {
              id: 5,
              name: 'Arrived',
              code: 'AR',
              timestampSec: '11/22/2026 09:00:00 CST',
              timestamp: '11/22/2026 09:00 CST',
              timestampUTC: '11/22/2026 15:00:00 UTC',
            },
          },
        ],
      },
    ]);
    const stack = await startStack({ upstream: { baseUrl: upstream.url } });
    try {
      const response = await stack.post('/api/pull/by-external-id', { ids: ['7'] });
      expect(response.status).toBe(200);
      const [load] = (await loadsOf(response)).loads;
      // The event reaches the browser as an event of the load, not a wrapper, and not skipped as undated.
      expect(load?.events).toEqual([
        expect.objectContaining({
          id: '5',
          name: 'Arrived',
          code: 'AR',
          instant: Date.parse('2026-11-22T15:00:00Z'),
        }),
      ]);
      expect(load?.issues.filter((n) => n.skipped)).toEqual([]);
      expect(load?.issues).toContainEqual(expect.objectContaining({ kind: 'wrapped_item', skipped: false }));
      const report = Diagnostics.parse(await (await fetch(`${stack.proxy.url}/api/diagnostics`)).json());
      expect(report.entries).toContainEqual(
        expect.objectContaining({
          operation: 'external-id',
          path: 'details[].events[]',
          kind: 'wrapped_item',
          count: 1,
          skipped: false,
          example: 'item wrapped in "event", one level deeper than documented: read from inside',
        }),
      );
    } finally {
      await stack.close();
      await upstream.close();
    }
  });
});

describe('upstream failures', () => {
  let dead: Stack;
  let broken: Server;
  let brokenUrl: string;
  beforeAll(async () => {
    dead = await startStack({ upstream: { baseUrl: await refusingUrl() } });
    broken = createServer((req, res) => {
      if (req.url?.includes('ByLoadNumber')) {
        res.writeHead(401, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ status: false, message: 'Invalid account', errorCode: 1001 }));
      } else {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{"status": true, "details": [');
      }
    });
    await new Promise<void>((r) => broken.listen(0, '127.0.0.1', r));
    brokenUrl = `http://127.0.0.1:${(broken.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await dead.close();
    broken.close();
  });

  it('answers 502 with a clear code when the upstream cannot be reached', async () => {
    const response = await dead.post('/api/pull/by-external-id', { ids: ['1'] });
    expect(response.status).toBe(502);
    expect(await errorOf(response)).toMatchObject({ code: 'upstream_unreachable' });
  });

  it('says so when the upstream answers with truncated JSON, and when it rejects the partner credentials', async () => {
    const stackOnBroken = await startStack({ upstream: { baseUrl: brokenUrl } });
    try {
      const truncated = await stackOnBroken.post('/api/pull/by-external-id', { ids: ['1'] });
      expect(truncated.status).toBe(502);
      expect(await errorOf(truncated)).toMatchObject({ code: 'upstream_bad_json' });
      const rejected = await stackOnBroken.post('/api/pull/by-load-number', { ids: ['1'] });
      expect(rejected.status).toBe(502);
      expect(await errorOf(rejected)).toMatchObject({
        code: 'partner_credentials_rejected',
        details: { upstreamMessage: 'Invalid account', upstreamErrorCode: 1001 },
      });
    } finally {
      await stackOnBroken.close();
    }
  });
});

describe('GET /api/config and /api/health', () => {
  it('tells the SPA what it may know and nothing secret', async () => {
    const response = await fetch(`${stack.proxy.url}/api/config`);
    const text = await response.text();
    const config = ClientConfig.parse(JSON.parse(text));
    expect(config).toMatchObject({ tileUrl: null, tileAttribution: '', refreshSeconds: 30, maxIds: 500 });
    expect(config.demo?.externalIds).toHaveLength(12);
    expect(text).not.toContain(TEST_CREDENTIALS.accountId);
    expect(config.noiseRules).toEqual(NOISE_RULES);
  });

  it('hands the browser the notice rules as configured', async () => {
    const configured = await startStack({
      env: {
        NOISE_RULES: 'Geofence entered',
        NOISE_RULES_WITHOUT_CODE: 'ping',
        NOISE_RULES_BUILT_IN: 'false',
      },
    });
    try {
      const config = ClientConfig.parse(await (await fetch(`${configured.proxy.url}/api/config`)).json());
      expect(config.noiseRules).toEqual([
        { contains: 'Geofence entered' },
        { contains: 'ping', onlyWithoutCode: true },
      ]);
    } finally {
      await configured.close();
    }
  });

  it('hands the browser the tiles’ credit line: OpenStreetMap’s by default, the operator’s made safe', async () => {
    const configOf = async (env: Record<string, string>) => {
      const configured = await startStack({ loads: 1, env });
      try {
        return ClientConfig.parse(await (await fetch(`${configured.proxy.url}/api/config`)).json());
      } finally {
        await configured.close();
      }
    };
    const companyTiles = 'https://tiles.acme.example/{z}/{x}/{y}.png?key=k1';
    expect(await configOf({ TILE_URL: OSM_TILE_URL })).toMatchObject({
      tileUrl: OSM_TILE_URL,
      tileAttribution:
        '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
    });
    expect(
      await configOf({
        TILE_URL: companyTiles,
        TILE_ATTRIBUTION:
          'Tiles &copy; <a href="https://acme.example/?a=1&b=2" target="_blank">Acme & Co</a>',
      }),
    ).toMatchObject({
      tileUrl: companyTiles,
      tileAttribution:
        'Tiles &copy; <a href="https://acme.example/?a=1&amp;b=2" target="_blank" rel="noopener noreferrer">Acme &amp; Co</a>',
    });
    expect(await configOf({ TILE_URL: companyTiles })).toMatchObject({ tileAttribution: '' });
  });

  it('reports liveness and when the upstream last answered', async () => {
    await stack.post('/api/pull/by-external-id', { ids: ids().slice(0, 1) });
    const health = Health.parse(await (await fetch(`${stack.proxy.url}/api/health`)).json());
    expect(health.ok).toBe(true);
    expect(health.upstream.mode).toBe('simulator');
    expect(Date.parse(health.upstream.lastReachableAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
  });
});
