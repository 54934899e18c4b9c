import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxyErrorBody, SessionState } from '@/contract/proxy-api';
import { ProxyPullAnswer } from '@/contract/load-view';
import { cookieOf, TEST_PASSWORD } from '@/testing/login';
import { manualClock, startStack, type Stack } from '@/testing/stack';
import { openMigratedTestStore, STORE_KINDS } from '@/testing/test-store';
import { startTlsTerminator, type TlsTerminator } from '@/testing/tls-terminator';
import type { Store } from '../store/store';
import { addUser } from './users';

const codeOf = async (response: Response) => ProxyErrorBody.parse(await response.json()).error.code;

/** The attributes of a Set-Cookie header, lower-cased names, `name=value` first. */
const attributesOf = (setCookie: string) =>
  setCookie
    .split(';')
    .slice(1)
    .map((a) => a.trim().split('=')[0]?.toLowerCase());

const failedLoginAddresses = async (store: Store, subject: string) =>
  (
    await store.db
      .selectFrom('audit_log')
      .select('details')
      .where('subject', '=', subject)
      .where('action', '=', 'login.failed')
      .orderBy('id')
      .execute()
  ).map((r) => (typeof r.details === 'string' ? JSON.parse(r.details) : r.details) as { address: string });

// Haulview on plain HTTP behind a TLS terminator of its own (one trusted proxy), as a site runs it.
describe.each(STORE_KINDS)('behind a TLS terminator, on %s', (kind) => {
  let store: Store;
  let close: () => Promise<void>;
  let tls: TlsTerminator;
  let stack: Stack;
  const clock = manualClock(Date.parse('2026-11-27T08:00:00Z'));

  beforeAll(async () => {
    ({ store, close } = await openMigratedTestStore(kind));
    // The terminator reaches Haulview from another loopback address than its clients use, so the
    // address Haulview's socket sees is not the client's; and it names Haulview's own address as
    // Host (nginx's default), so only PUBLIC_ORIGIN says which origin is the public one.
    tls = await startTlsTerminator({ fromAddress: '127.0.0.2', passHost: false });
    stack = await startStack({
      store,
      now: clock.now,
      env: { PUBLIC_ORIGIN: tls.url, TRUST_PROXY: '1' },
    });
    tls.forwardTo(stack.proxy.url);
    await addUser(store.db, { name: 'Ana', role: 'dispatcher', password: TEST_PASSWORD }, 'test');
  }, 60_000);
  afterAll(async () => {
    await tls?.close();
    await stack?.close();
    await close?.();
  });

  /** A POST as the SPA on the public origin sends it, unless told otherwise. */
  const post = (path: string, body: unknown, headers: Record<string, string> = {}, localAddress?: string) =>
    tls.fetch(path, {
      method: 'POST',
      headers: {
        Origin: tls.url,
        'Content-Type': 'application/json',
        'X-Requested-With': 'haulview',
        ...headers,
      },
      body: JSON.stringify(body),
      localAddress,
    });
  const login = (username: string, password: string, headers?: Record<string, string>, from?: string) =>
    post('/api/session', { username, password }, headers, from);

  it('answers a login with a Secure, HttpOnly, SameSite=Strict __Host- cookie for the whole site', async () => {
    const answer = await login('ana', TEST_PASSWORD);
    expect(answer.status).toBe(204);
    const [setCookie = '', ...others] = answer.headers.getSetCookie();
    expect(others).toEqual([]);
    expect(setCookie).toMatch(/^__Host-haulview_session=[^;]{20,};/);
    expect(attributesOf(setCookie)).toEqual(
      expect.arrayContaining(['secure', 'httponly', 'samesite', 'path']),
    );
    expect(setCookie).toMatch(/; SameSite=Strict(;|$)/);
    expect(setCookie).toMatch(/; Path=\/(;|$)/);
    // Browsers refuse a __Host- cookie that names a domain.
    expect(attributesOf(setCookie)).not.toContain('domain');
  });

  it('accepts a POST from the public https origin and refuses one from the plain-http origin', async () => {
    const cookie = cookieOf(await login('Ana', TEST_PASSWORD));
    const id = String(stack.sim.fleet[0]?.externalId);
    const own = await post('/api/pull/by-external-id', { ids: [id] }, { Cookie: cookie });
    expect(own.status).toBe(200);

    const plainHttp = tls.url.replace(/^https:/, 'http:');
    const refused = await post(
      '/api/pull/by-external-id',
      { ids: [id] },
      { Cookie: cookie, Origin: plainHttp },
    );
    expect(refused.status).toBe(403);
    expect(await codeOf(refused)).toBe('foreign_origin');
    // Nor Haulview's own plain address, which the terminator names as Host.
    const inner = await post(
      '/api/pull/by-external-id',
      { ids: [id] },
      { Cookie: cookie, Origin: stack.proxy.url },
    );
    expect(await codeOf(inner)).toBe('foreign_origin');
    const refusedLogin = await login('Ana', TEST_PASSWORD, { Origin: plainHttp });
    expect(refusedLogin.status).toBe(403);
    expect(refusedLogin.headers.getSetCookie()).toEqual([]);
  });

  it('knows the session by its __Host- cookie for GET /api/session, a pull and the log-out', async () => {
    const cookie = cookieOf(await login('Ana', TEST_PASSWORD));
    expect(cookie).toMatch(/^__Host-haulview_session=/);
    const session = await tls.fetch('/api/session', { headers: { Cookie: cookie } });
    expect(SessionState.parse(await session.json())).toEqual({
      mode: 'users',
      user: { name: 'Ana', role: 'dispatcher' },
    });
    const ids = stack.sim.fleet.slice(0, 3).map((p) => String(p.externalId));
    const pull = await post('/api/pull/by-external-id', { ids }, { Cookie: cookie });
    expect(pull.status).toBe(200);
    const body = ProxyPullAnswer.parse(await pull.json());
    expect(body.loads).toHaveLength(3);
    expect(body.missing).toEqual([]);

    // The bare name is another cookie: it opens nothing here.
    const bare = cookie.replace(/^__Host-/, '');
    expect((await tls.fetch('/api/config', { headers: { Cookie: bare } })).status).toBe(401);

    const logout = await tls.fetch('/api/session', {
      method: 'DELETE',
      headers: {
        Cookie: cookie,
        Origin: tls.url,
        'X-Requested-With': 'haulview',
        'Content-Type': 'application/json',
      },
      body: '{}',
    });
    expect(logout.status).toBe(204);
    const cleared = logout.headers.getSetCookie().find((c) => c.startsWith('__Host-haulview_session='));
    expect(cleared).toMatch(/Max-Age=0/);
    expect(cleared).toMatch(/Secure/);
    expect((await tls.fetch('/api/config', { headers: { Cookie: cookie } })).status).toBe(401);
  });

  it('throttles failed logins by the address the terminator forwarded, not by one the client wrote', async () => {
    // Each attempt claims another address on the left of X-Forwarded-For: were it believed, none
    // would ever be slowed.
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const answer = await login(
        `guess-${i}`,
        'wrong',
        { 'X-Forwarded-For': `198.51.100.${i}` },
        '127.0.0.3',
      );
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429, 429]);
    const refused = await login('Ana', TEST_PASSWORD, { 'X-Forwarded-For': '198.51.100.200' }, '127.0.0.3');
    expect(refused.status).toBe(429);
    expect(JSON.stringify(await refused.json())).toContain('from this address');
    // Another client of the same terminator logs in meanwhile.
    expect((await login('Ana', TEST_PASSWORD, {}, '127.0.0.4')).status).toBe(204);
    // The audit names the client, neither the forged address nor the terminator's own.
    expect(await failedLoginAddresses(store, 'guess-0')).toEqual([
      expect.objectContaining({ address: '127.0.0.3' }),
    ]);
  });
});

// Without TRUST_PROXY, nothing a client writes in X-Forwarded-* is believed.
describe.each(STORE_KINDS)('over plain HTTP with TRUST_PROXY=0, on %s', (kind) => {
  let store: Store;
  let close: () => Promise<void>;
  let stack: Stack;
  const clock = manualClock(Date.parse('2026-11-27T08:00:00Z'));
  const forged = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '203.0.113.9' };

  beforeAll(async () => {
    ({ store, close } = await openMigratedTestStore(kind));
    stack = await startStack({ store, now: clock.now, env: { TRUST_PROXY: '0' } });
    await addUser(store.db, { name: 'Bo', role: 'dispatcher', password: TEST_PASSWORD }, 'test');
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await close?.();
  });

  it('keeps the plain cookie and the plain origin whatever X-Forwarded-Proto says', async () => {
    const answer = await stack.post('/api/session', { username: 'Bo', password: TEST_PASSWORD }, forged);
    expect(answer.status).toBe(204);
    const setCookie = answer.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^haulview_session=/);
    expect(attributesOf(setCookie)).not.toContain('secure');
    const cookie = cookieOf(answer);
    const ids = [String(stack.sim.fleet[0]?.externalId)];

    const httpsOrigin = stack.proxy.url.replace(/^http:/, 'https:');
    const refused = await stack.post(
      '/api/pull/by-external-id',
      { ids },
      { ...forged, Cookie: cookie, Origin: httpsOrigin },
    );
    expect(refused.status).toBe(403);
    expect(await codeOf(refused)).toBe('foreign_origin');
    const accepted = await stack.post(
      '/api/pull/by-external-id',
      { ids },
      { ...forged, Cookie: cookie, Origin: stack.proxy.url },
    );
    expect(accepted.status).toBe(200);
  });

  it('counts failed logins against the socket’s address, not a written X-Forwarded-For', async () => {
    const wrong = await stack.post('/api/session', { username: 'nobody-here', password: 'wrong' }, forged);
    expect(wrong.status).toBe(401);
    expect(await failedLoginAddresses(store, 'nobody-here')).toEqual([
      expect.objectContaining({ address: '127.0.0.1' }),
    ]);
  });
});
