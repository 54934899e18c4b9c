import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startFakeUpstream } from '@/testing/fake-upstream';
import { loginAs } from '@/testing/login';
import { startStack, type Stack } from '@/testing/stack';
import { openMigratedTestStore } from '@/testing/test-store';
import { readProcessEnv } from './config';
import { isLoopback } from './middleware/access';
import { documentOrigins } from './start';

/**
 * Hardening of the proxy as a browser or an attacker meets it (issue 10): security headers on every
 * HTML answer, path and method tricks, headers that must not travel upstream, credentials that must
 * not travel anywhere, and who may reach /api when the dashboard runs open or has users.
 */

/** Distinctive credentials: any occurrence of them in an answer or a log line is a leak. */
// Base64-like, as account ids are: its +, / and = change when it is quoted URL-encoded.
const CANARY = { partnerId: 918273645, accountId: 'U2FsdGVkX1+canary/acct=5f0e2d' };
const FIXED_PATHS = [
  '/loadtrackservice/getLoadTrackDetailsServiceV2',
  '/loadtrackservice/getLoadTrackDetailsServiceByLoadNumber',
  '/api/v1/webhooks',
];
const OK_ANSWER = { status: true, timeStamp: '11/22/2026 13:00:00 UTC', details: [] };

/**
 * One raw HTTP/1.1 exchange, so request lines (and Host headers) no fetch would send can be tried.
 * The Host header names the server's own address unless `host` is given.
 */
function rawRequest(
  url: string,
  head: string,
  body = '',
  host?: string,
): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `${head}\r\nHost: ${host ?? `${hostname}:${port}`}\r\nConnection: close\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    });
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('end', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text }));
    socket.on('error', reject);
  });
}

function csp(response: Response): Map<string, string> {
  const header = response.headers.get('content-security-policy') ?? '';
  return new Map(
    header
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name = '', ...values] = d.split(/\s+/);
        return [name, values.join(' ')] as const;
      }),
  );
}

describe('caching of the built SPA', () => {
  let stack: Stack;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'haulview-dist-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Haulview</title>');
    writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'assets', 'index-3f2a9c1d.js'), 'import("./board-77aa01b2.js");');
    stack = await startStack({ distDir: dist });
  });
  afterAll(async () => {
    await stack.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves a hashed asset as immutable for a year', async () => {
    const response = await fetch(`${stack.proxy.url}/assets/index-3f2a9c1d.js`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('board-77aa01b2.js');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('answers 404 for an asset this build does not have (a chunk of the previous build), never index.html', async () => {
    for (const path of ['/assets/board-77aa01b2.js', '/assets/deep/old-1234.css']) {
      const response = await fetch(`${stack.proxy.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.text()).not.toContain('<title>');
    }
  });

  it('serves an asset put in its folder after it started (the next build’s, staged for a rolling deploy)', async () => {
    writeFileSync(join(dist, 'assets', 'main-5e6f7a8b.js'), 'export const next = 1;');
    const response = await fetch(`${stack.proxy.url}/assets/main-5e6f7a8b.js`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('export const next = 1;');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('names its build in every page and every /api answer, alike', async () => {
    const config = await fetch(`${stack.proxy.url}/api/config`);
    const build = config.headers.get('haulview-build') ?? '';
    expect(build).toMatch(/^[0-9a-f]{16}$/);
    const refused = await fetch(`${stack.proxy.url}/api/pull/external-id`, { method: 'POST', body: '{' });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('haulview-build')).toBe(build);
    for (const path of ['/', '/index.html', '/loads/external-id/1']) {
      const page = await (await fetch(`${stack.proxy.url}${path}`)).text();
      expect(page, path).toContain(`<meta name="haulview-build" content="${build}">`);
      expect(page, path).toContain('<title>Haulview</title>');
    }
  });

  it('makes browsers ask again for index.html and the unhashed files', async () => {
    for (const path of ['/', '/index.html', '/loads/external-id/1', '/favicon.svg']) {
      const response = await fetch(`${stack.proxy.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('cache-control'), path).toBe('no-cache');
      await response.arrayBuffer();
    }
  });
});

describe('security headers of the HTML answers', () => {
  let stack: Stack;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'haulview-dist-'));
    writeFileSync(
      join(dist, 'index.html'),
      '<!doctype html><title>Haulview</title><script type="module" src="/assets/app.js"></script>',
    );
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'assets', 'app.js'), 'console.log(1);');
    // `npm run build` puts the server's own build beside the SPA's files.
    mkdirSync(join(dist, 'server'));
    writeFileSync(join(dist, 'server', 'main.js'), 'const SERVER_CODE = 1;');
    stack = await startStack({ distDir: dist });
  });
  afterAll(async () => {
    await stack.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const pages = [
    '/',
    '/index.html',
    '/loads/external-id/123',
    '/loads/load-number/LN%2F7',
    '/webhooks',
    '/documents',
    '/diagnostics',
    '/no/such/page?x=<script>',
  ];
  for (const path of pages) {
    it(`${path} answers the SPA with a CSP that allows scripts from self only, and the other headers`, async () => {
      const response = await fetch(`${stack.proxy.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await response.text()).toContain('<title>Haulview</title>');
      const policy = csp(response);
      expect(policy.get('script-src')).toBe("'self'");
      expect(policy.get('default-src')).toBe("'self'");
      expect(policy.get('object-src')).toBe("'none'");
      expect(policy.get('base-uri')).toBe("'none'");
      expect(policy.get('frame-ancestors')).toBe("'none'");
      expect(policy.get('connect-src')).toBe("'self'");
      // Images: self, https hosts (documents come from hosts not known in advance; TILE_URL=none
      // here), data: and blob: (Leaflet's inlined control icons), and in demo mode the simulator's
      // own origin, which serves the demo's documents over http on loopback. No plain http host.
      const images = (policy.get('img-src') ?? '').split(' ');
      expect(images).toEqual(expect.arrayContaining(["'self'", 'https:']));
      for (const source of images)
        expect(
          ["'self'", 'https:', 'data:', 'blob:'].includes(source) ||
            /^http:\/\/127\.0\.0\.1:\d+$/.test(source),
          source,
        ).toBe(true);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
    });
  }

  it('never serves the server’s own build in dist/server/: such paths answer the SPA', async () => {
    for (const path of ['/server/main.js', '/SERVER/main.js', '/server/', '/server']) {
      const response = await fetch(`${stack.proxy.url}${path}`);
      expect(response.headers.get('content-type'), path).toMatch(/^text\/html/);
      expect(await response.text(), path).not.toContain('SERVER_CODE');
    }
    for (const path of ['/server%2Fmain.js', '/%73erver/main.js', '/assets/../server/main.js'])
      expect(await (await fetch(`${stack.proxy.url}${path}`)).text(), path).not.toContain('SERVER_CODE');
  });

  it('lets pictures come over plain http only from the simulator’s own origin', () => {
    const simulator = { mode: 'simulator', baseUrl: 'http://127.0.0.1:40123' } as const;
    expect(documentOrigins(simulator)).toEqual(['http://127.0.0.1:40123']);
    // The stand-alone simulator on loopback, set as UPSTREAM_BASE_URL, is the service here.
    expect(documentOrigins({ mode: 'remote', baseUrl: 'http://127.0.0.1:8081' })).toEqual([
      'http://127.0.0.1:8081',
    ]);
    expect(documentOrigins({ mode: 'remote', baseUrl: 'http://localhost:8081/api' })).toEqual([
      'http://localhost:8081',
    ]);
    // A service elsewhere: its documents come from https hosts, which the policy allows already.
    expect(documentOrigins({ mode: 'remote', baseUrl: 'http://tracking.example.com' })).toEqual([]);
    expect(documentOrigins({ mode: 'remote', baseUrl: 'https://tracking.example.com' })).toEqual([]);
  });

  it('sends the same headers with the scripts and the API answers', async () => {
    for (const path of ['/assets/app.js', '/api/config', '/api/nothing']) {
      const response = await fetch(`${stack.proxy.url}${path}`);
      expect(csp(response).get('script-src'), path).toBe("'self'");
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });
});

describe('requests that try to reach another upstream path, or carry the browser along', () => {
  let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
  let stack: Stack;
  beforeAll(async () => {
    upstream = await startFakeUpstream((req, res) =>
      req.url === '/api/v1/webhooks'
        ? json(res, 409, { statusCode: 409, errors: [{ message: 'exists' }] })
        : json(res, 200, OK_ANSWER),
    );
    stack = await startStack({ upstream: { baseUrl: upstream.url } });
  });
  afterAll(async () => {
    await stack.close();
    await upstream.close();
  });

  const pullBody = JSON.stringify({ ids: ['1'] });
  const spaHeaders = 'X-Requested-With: haulview\r\nContent-Type: application/json';

  it('path tricks in the request line reach only the three fixed upstream paths', async () => {
    const targets = [
      '/api/pull/../../loadtrackservice/secret',
      '/api/pull/%2e%2e/%2e%2e/loadtrackservice/secret',
      '/api/pull/by-external-id/..%2f..%2f..%2fadmin',
      '/api/pull/by-external-id%2F..%2F..%2Fadmin',
      '/api/pull//evil.example/by-external-id',
      '//evil.example/api/pull/by-external-id',
      '/api/pull/by-external-id?url=http://evil.example/x&partnerId=1',
      '/api/pull/by-external-id#/../../admin',
      '/api/%2e%2e/api/pull/by-load-number',
      '/api/pull/by-external-id\\..\\..\\admin',
    ];
    for (const target of targets) {
      const { status } = await rawRequest(
        stack.proxy.url,
        `POST ${target} HTTP/1.1\r\n${spaHeaders}`,
        pullBody,
      );
      // Either an honest refusal or the normal pull; never a failure of the proxy itself.
      expect([200, 400, 403, 404], target).toContain(status);
    }
    expect(upstream.seen.length).toBeGreaterThan(0);
    // A full URL in the request line (what forward proxies get) is refused, user info or not.
    for (const target of [
      'http://evil.example/api/pull/by-external-id',
      'http://evil.example:80@127.0.0.1/api/pull/by-external-id',
      'http://user:pw@127.0.0.1/api/config',
      '*',
    ]) {
      const method = target === '*' ? 'OPTIONS' : 'POST';
      const { status } = await rawRequest(
        stack.proxy.url,
        `${method} ${target} HTTP/1.1\r\n${spaHeaders}`,
        pullBody,
      );
      expect(status, target).toBe(400);
    }
    const upstreamHost = new URL(upstream.url).host;
    for (const seen of upstream.seen) {
      expect(FIXED_PATHS).toContain(seen.url);
      expect(seen.method).toBe('POST');
      expect(seen.headers.host).toBe(upstreamHost);
    }
  });

  it('open on loopback, /api answers only loopback names: a site re-pointed at 127.0.0.1 (DNS rebinding) gets 403 and no upstream call', async () => {
    const port = new URL(stack.proxy.url).port;
    const before = upstream.seen.length;
    // Its script is same-origin with its own page: the Origin matches the Host it sends.
    for (const name of ['attacker.example', 'localhost.evil.example', '127.0.0.1.nip.io', '192.168.1.20']) {
      const site = `${name}:${port}`;
      const pull = await rawRequest(
        stack.proxy.url,
        `POST /api/pull/by-external-id HTTP/1.1\r\n${spaHeaders}\r\nOrigin: http://${site}`,
        JSON.stringify({ ids: [`rebound-${name}`] }),
        site,
      );
      expect(pull.status, name).toBe(403);
      expect(pull.text, name).toContain('"code":"host_not_allowed"');
      expect(pull.text, name).toContain('npm run users -- add');
      const config = await rawRequest(stack.proxy.url, 'GET /api/config HTTP/1.1', '', site);
      expect(config.status, name).toBe(403);
    }
    expect(upstream.seen.length).toBe(before);
    // The names a person on this machine uses are answered, and the pull reaches the upstream.
    for (const name of ['localhost', 'LOCALHOST', 'localhost.', 'app.localhost', '127.1', '[::1]']) {
      const site = `${name}:${port}`;
      // A browser sends the origin serialized: lower case, IPv6 in its shortest form.
      const origin = new URL(`http://${site}`).origin;
      const pull = await rawRequest(
        stack.proxy.url,
        `POST /api/pull/by-external-id HTTP/1.1\r\n${spaHeaders}\r\nOrigin: ${origin}`,
        JSON.stringify({ ids: [`local-${name}`] }),
        site,
      );
      expect(pull.status, name).toBe(200);
    }
    expect(upstream.seen.length).toBe(before + 6);
  });

  it('with users, a session is what counts, whatever name the dashboard is reached by', async () => {
    const { store, close } = await openMigratedTestStore('pglite');
    const guarded = await startStack({ upstream: { baseUrl: upstream.url }, store });
    try {
      const { cookie } = await loginAs(guarded, store.db, 'dispatcher');
      const site = `dashboard.example.com:${new URL(guarded.proxy.url).port}`;
      const config = (withCookie: boolean) =>
        rawRequest(
          guarded.proxy.url,
          `GET /api/config HTTP/1.1${withCookie ? `\r\nCookie: ${cookie}` : ''}`,
          '',
          site,
        );
      expect((await config(true)).status).toBe(200);
      expect((await config(false)).status).toBe(401);
    } finally {
      await guarded.close();
      await close();
    }
    // Opening the embedded store runs every migration: seconds on a busy machine.
  }, 60_000);

  it('other methods on /api/pull/* are refused and call nothing upstream', async () => {
    const before = upstream.seen.length;
    for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'OPTIONS']) {
      for (const path of ['/api/pull/by-external-id', '/api/pull/by-load-number']) {
        for (const headers of ['', `\r\n${spaHeaders}\r\nCookie: haulview_session=stolen`]) {
          const { status, text } = await rawRequest(
            stack.proxy.url,
            `${method} ${path} HTTP/1.1${headers}`,
            method === 'GET' || method === 'HEAD' ? '' : pullBody,
          );
          expect(status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
          expect(status, `${method} ${path}`).toBeLessThan(500);
          // TRACE must not echo the request (and its cookie) back.
          expect(text).not.toContain('stolen');
        }
      }
    }
    expect(upstream.seen.length).toBe(before);
  });

  it('the browser’s Cookie, Authorization and X-Forwarded-* headers never reach the pull upstream', async () => {
    const before = upstream.seen.length;
    const browserHeaders = {
      Cookie: 'haulview_session=abc; other=1',
      Authorization: 'Bearer browser.jwt.token',
      'X-Forwarded-For': '203.0.113.9',
      'X-Forwarded-Host': 'evil.example',
      'X-Forwarded-Proto': 'http',
      'X-Real-IP': '203.0.113.9',
      Forwarded: 'for=203.0.113.9;host=evil.example',
      'X-Custom-Tenant': 'other-partner',
    };
    for (const path of ['/api/pull/by-external-id', '/api/pull/by-load-number']) {
      expect((await stack.post(path, { ids: [`fwd-${path.length}`] }, browserHeaders)).status).toBe(200);
    }
    // The webhook operation takes the bearer token on purpose, and nothing else of the browser's.
    await stack.post(
      '/api/webhooks',
      { eventType: 'PdvRequestCompleted', clientUrl: 'https://x.example' },
      browserHeaders,
    );
    const calls = upstream.seen.slice(before);
    expect(calls.map((c) => c.url)).toEqual(FIXED_PATHS);
    for (const call of calls) {
      const names = Object.keys(call.headers);
      for (const name of [
        'cookie',
        'x-forwarded-for',
        'x-forwarded-host',
        'x-forwarded-proto',
        'x-real-ip',
      ]) {
        expect(names, `${call.url} ${name}`).not.toContain(name);
      }
      expect(names).not.toContain('forwarded');
      expect(names).not.toContain('x-custom-tenant');
      expect(JSON.stringify(call.headers)).not.toContain('evil.example');
      expect(JSON.stringify(call.headers)).not.toContain('203.0.113.9');
    }
    expect(calls[0]?.headers.authorization).toBeUndefined();
    expect(calls[1]?.headers.authorization).toBeUndefined();
    expect(calls[2]?.headers.authorization).toBe('Bearer browser.jwt.token');
  });
});

describe('what the upstream sends besides its answer', () => {
  it('its Set-Cookie and other headers never come back to the browser, from a pull or a webhook', async () => {
    const upstreamHeaders = {
      'Set-Cookie': 'upstream_session=partner-secret; Path=/; HttpOnly',
      'X-Powered-By': 'UpstreamServer/1.0',
      'X-Upstream-Trace': 'trace-123',
      'Access-Control-Allow-Origin': '*',
      Server: 'upstream-server',
    };
    const upstream = await startFakeUpstream((req, res) =>
      req.url === '/api/v1/webhooks'
        ? json(res, 201, { id: 'w1' }, { ...upstreamHeaders, Location: '/api/v1/webhooks/w1' })
        : json(res, 200, OK_ANSWER, upstreamHeaders),
    );
    const stack = await startStack({ upstream: { baseUrl: upstream.url } });
    try {
      const answers = [
        await stack.post('/api/pull/by-external-id', { ids: ['1'] }),
        await stack.post('/api/pull/by-load-number', { ids: ['1'] }),
        await stack.post(
          '/api/webhooks',
          { eventType: 'PdvRequestCompleted', clientUrl: 'https://x.example' },
          { Authorization: 'Bearer t' },
        ),
      ];
      expect(answers.map((a) => a.status)).toEqual([200, 200, 201]);
      for (const answer of answers) {
        const names = [...answer.headers.keys()];
        expect(names).not.toContain('set-cookie');
        expect(names).not.toContain('x-powered-by');
        expect(names).not.toContain('x-upstream-trace');
        expect(names).not.toContain('access-control-allow-origin');
        expect(answer.headers.get('server') ?? '').not.toContain('upstream');
        expect(await answer.text()).not.toContain('partner-secret');
      }
      // The webhook's Location is the one header relayed, as the upstream gave it.
      expect(answers[2]?.headers.get('location')).toBe('/api/v1/webhooks/w1');
    } finally {
      await stack.close();
      await upstream.close();
    }
  });
});

describe('the partner credentials', () => {
  const encoded = encodeURIComponent(CANARY.accountId);
  const secrets = [CANARY.accountId, encoded, encoded.toLowerCase(), String(CANARY.partnerId)];
  const leaks = (text: string) => secrets.filter((s) => text.includes(s));

  it('appear in no answer, header or log line, whatever the upstream answers', async () => {
    // An upstream that echoes the credentials in its error messages, as a careless service might.
    let mode = 'ok';
    const upstream = await startFakeUpstream((req, res) => {
      const echo = `partner ${CANARY.partnerId} / account ${CANARY.accountId} (${encoded})`;
      if (req.url === '/api/v1/webhooks')
        json(res, 401, { statusCode: 401, message: `token of ${echo} expired` });
      else if (mode === 'ok') json(res, 200, OK_ANSWER);
      else if (mode === 'echo-fields') {
        // The request quoted back in undocumented fields, which the proxy keeps and serves.
        const id = (JSON.parse(req.body) as { loadTrackExternalIds: string[] }).loadTrackExternalIds[0];
        json(res, 200, {
          ...OK_ANSWER,
          details: [
            {
              loadTrackExternalId: id,
              request: { partnerId: CANARY.partnerId, accountId: CANARY.accountId },
              links: [`https://files.example/list?partner=${CANARY.partnerId}&account=${encoded}`],
            },
          ],
        });
      } else if (mode === '401')
        json(res, 401, { status: false, message: `Invalid ${echo}`, errorCode: 1001 });
      else if (mode === 'status-false') json(res, 200, { status: false, message: `Suspended: ${echo}` });
      else if (mode === '500')
        json(res, 500, { status: false, message: `Exception for ${echo}`, body: req.body });
      else if (mode === 'bad-json') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(`{"status": true, "echo": "${echo}", "details": [`);
      } else if (mode === 'not-an-answer') json(res, 200, { status: 'maybe', details: echo });
      else json(res, 429, { message: echo }, { 'Retry-After': '0' });
    });
    const stack = await startStack({ upstream: { baseUrl: upstream.url, ...CANARY } });
    try {
      const seenByBrowser: string[] = [];
      for (const m of [
        'ok',
        'echo-fields',
        '401',
        'status-false',
        '500',
        'bad-json',
        'not-an-answer',
        '429',
      ]) {
        mode = m;
        for (const path of ['/api/pull/by-external-id', '/api/pull/by-load-number']) {
          const response = await stack.post(path, { ids: [`${m}-${path.length}`] });
          seenByBrowser.push(
            `${m} ${response.status} ${JSON.stringify([...response.headers])} ${await response.text()}`,
          );
        }
      }
      const webhook = await stack.post(
        '/api/webhooks',
        { eventType: 'PdvRequestCompleted', clientUrl: 'https://x.example' },
        { Authorization: 'Bearer t' },
      );
      seenByBrowser.push(`webhook ${webhook.status} ${await webhook.text()}`);
      for (const path of ['/api/config', '/api/health', '/api/diagnostics', '/api/session']) {
        const response = await fetch(`${stack.proxy.url}${path}`);
        seenByBrowser.push(`${path} ${JSON.stringify([...response.headers])} ${await response.text()}`);
      }
      // The upstream did receive them: the check above is not vacuous.
      expect(upstream.seen.some((s) => s.body.includes(CANARY.accountId))).toBe(true);
      expect(seenByBrowser.filter((s) => leaks(s).length > 0)).toEqual([]);
      expect(stack.logs.length).toBeGreaterThan(10);
      expect(stack.logs.filter((l) => leaks(l).length > 0)).toEqual([]);
      // What the upstream said is still relayed, with the credentials taken out: the load with them
      // in its undocumented fields is served, and the webhook service's refusal relayed.
      const served = seenByBrowser.find((t) => t.startsWith('echo-fields 200'));
      expect(served).toContain('"request":{"partnerId":"[partner id]","accountId":"[account id]"}');
      expect(served).toContain('?partner=[partner id]&account=[account id]');
      expect(seenByBrowser.find((t) => t.startsWith('webhook'))).toMatch(
        /^webhook 401 .*token of partner \[partner id\] \/ account \[account id\] \(\[account id\]\) expired/,
      );
      mode = '401';
      const rejected = await stack.post('/api/pull/by-external-id', { ids: ['again'] });
      expect(await rejected.json()).toMatchObject({
        error: {
          code: 'partner_credentials_rejected',
          details: { upstreamMessage: expect.stringMatching(/^Invalid partner/) },
        },
      });
    } finally {
      await stack.close();
      await upstream.close();
    }
  });

  it('stay out of the answers and the log with the simulator too', async () => {
    const stack = await startStack({ credentials: CANARY, loads: 4 });
    try {
      const ids = stack.sim.fleet.map((p) => String(p.externalId));
      const texts: string[] = [];
      for (const path of ['/api/pull/by-external-id', '/api/pull/by-load-number']) {
        const response = await stack.post(path, {
          ids: path.endsWith('number') ? stack.sim.fleet.map((p) => p.loadNumber) : ids,
        });
        expect(response.status).toBe(200);
        texts.push(JSON.stringify([...response.headers]), await response.text());
      }
      expect(texts.join('\n').length).toBeGreaterThan(1000);
      expect(leaks(texts.join('\n'))).toEqual([]);
      expect(leaks(stack.logs.join('\n'))).toEqual([]);
    } finally {
      await stack.close();
    }
  });
});

describe('listening on a network', () => {
  it('counts only loopback addresses as loopback', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])
      expect(isLoopback(host), host).toBe(true);
    // A name the resolver decides is not an address to listen on, even if it is one to be named by.
    expect(isLoopback('app.localhost')).toBe(false);
    for (const host of [
      '0.0.0.0',
      '::',
      '192.168.1.20',
      '127.0.0.1.nip.io',
      'localhost.evil.example',
      'example.com',
    ])
      expect(isLoopback(host), host).toBe(false);
  });

  it('refuses to start with DASHBOARD_TOKEN, left from before users: exit code 2 and what to do instead', async () => {
    const child = spawn('npx', ['tsx', 'src/server/main.ts'], {
      env: { ...readProcessEnv(), PORT: '8484', SIM_PORT: '8485', DASHBOARD_TOKEN: 'an-old-shared-token' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(output).toContain('DASHBOARD_TOKEN is no longer used');
    expect(output).toContain('npm run users -- add NAME --role admin');
    expect(output).not.toContain('an-old-shared-token');
    expect(output).not.toMatch(/Haulview: http/);
    expect(code).toBe(2);
  }, 30_000);
});
