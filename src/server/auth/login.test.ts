import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxyErrorBody, SessionState } from '@/contract/proxy-api';
import { cookieOf, loginAs, TEST_PASSWORD } from '@/testing/login';
import { manualClock, startStack, type Stack } from '@/testing/stack';
import { openMigratedTestStore, STORE_KINDS } from '@/testing/test-store';
import type { Store } from '../store/store';
import { addUser, disableUser } from './users';

const codeOf = async (response: Response) => ProxyErrorBody.parse(await response.json()).error.code;

const get = (stack: Stack, path: string, cookie = '') =>
  fetch(`${stack.proxy.url}${path}`, { headers: cookie ? { Cookie: cookie } : {} });

const sessionOf = async (stack: Stack, cookie = '') =>
  SessionState.parse(await (await get(stack, '/api/session', cookie)).json());

const logout = (stack: Stack, cookie: string) =>
  fetch(`${stack.proxy.url}/api/session`, {
    method: 'DELETE',
    headers: { Cookie: cookie, 'X-Requested-With': 'haulview', 'Content-Type': 'application/json' },
    body: '{}',
  });

const auditActions = async (store: Store, subject: string) =>
  (
    await store.db
      .selectFrom('audit_log')
      .select(['action', 'actor'])
      .where('subject', '=', subject)
      .orderBy('id')
      .execute()
  ).map((r) => `${r.actor} ${r.action}`);

describe.each(STORE_KINDS)('logging in, on %s', (kind) => {
  let store: Store;
  let close: () => Promise<void>;
  const clock = manualClock(Date.parse('2026-11-27T08:00:00Z'));
  let stack: Stack;
  beforeAll(async () => {
    ({ store, close } = await openMigratedTestStore(kind));
    stack = await startStack({
      store,
      now: clock.now,
      env: { SESSION_IDLE_MINUTES: '60', SESSION_MAX_HOURS: '10' },
    });
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await close?.();
  });

  it('runs open while the store has no user: everyone acts as admin, or views as another role', async () => {
    expect(await sessionOf(stack)).toEqual({ mode: 'open', user: { name: 'Demo', role: 'admin' } });
    expect((await get(stack, '/api/diagnostics')).status).toBe(200);
    const asDispatcher = await stack.post('/api/session/view-as', { role: 'dispatcher' });
    expect(asDispatcher.status).toBe(204);
    const cookie = cookieOf(asDispatcher);
    expect(await sessionOf(stack, cookie)).toEqual({
      mode: 'open',
      user: { name: 'Demo', role: 'dispatcher' },
    });
    const diagnostics = await get(stack, '/api/diagnostics', cookie);
    expect(diagnostics.status).toBe(403);
    expect(await codeOf(diagnostics)).toBe('forbidden_role');
    expect((await stack.post('/api/pull/by-external-id', { ids: ['1'] }, { Cookie: cookie })).status).toBe(
      200,
    );
    // A role that does not exist is refused, naming the field.
    const bad = await stack.post('/api/session/view-as', { role: 'owner' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('role');
  });

  it('needs a login once a user exists: wrong passwords are refused and audited, a right one opens /api', async () => {
    await addUser(store.db, { name: 'Ana', role: 'broker', password: TEST_PASSWORD }, 'test');
    clock.advance(5000); // past the open-mode check's memory
    expect(await sessionOf(stack)).toEqual({ mode: 'users', user: null });
    const config = await get(stack, '/api/config');
    expect(config.status).toBe(401);
    expect(await codeOf(config)).toBe('login_required');
    const viewAs = await stack.post('/api/session/view-as', { role: 'admin' });
    expect(viewAs.status).toBe(403);
    expect(await codeOf(viewAs)).toBe('not_open_mode');

    const wrong = await stack.post('/api/session', { username: 'ana', password: 'not her password' });
    expect(wrong.status).toBe(401);
    expect(await codeOf(wrong)).toBe('wrong_credentials');
    const unknown = await stack.post('/api/session', { username: 'nobody', password: TEST_PASSWORD });
    expect(await codeOf(unknown)).toBe('wrong_credentials');

    // The name is matched whatever its case; the session is shown with the name as added.
    const login = await stack.post('/api/session', { username: 'ANA', password: TEST_PASSWORD });
    expect(login.status).toBe(204);
    const setCookie = login.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^haulview_session=/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).not.toMatch(/Secure/);
    const cookie = cookieOf(login);
    expect(await sessionOf(stack, cookie)).toEqual({ mode: 'users', user: { name: 'Ana', role: 'broker' } });
    expect((await get(stack, '/api/config', cookie)).status).toBe(200);
    expect((await get(stack, '/api/diagnostics', cookie)).status).toBe(403);

    expect((await logout(stack, cookie)).status).toBe(204);
    expect((await get(stack, '/api/config', cookie)).status).toBe(401);
    expect(await auditActions(store, 'ana')).toEqual(['anonymous login.failed']);
    expect(await auditActions(store, 'Ana')).toEqual(['test user.add', 'Ana login', 'Ana logout']);
  });

  it('keeps sessions in the store: another server on it (a restart) knows them', async () => {
    const { cookie } = await loginAs(stack, store.db, 'dispatcher');
    const restarted = await startStack({ store, now: clock.now });
    try {
      expect((await get(restarted, '/api/config', cookie)).status).toBe(200);
      expect((await sessionOf(restarted, cookie)).user?.role).toBe('dispatcher');
    } finally {
      await restarted.close();
    }
  });

  it('ends a session idle too long, one past its absolute limit, and those of a disabled user', async () => {
    const idle = await loginAs(stack, store.db, 'dispatcher');
    const busy = await loginAs(stack, store.db, 'admin');
    // A request every 59 minutes keeps a session alive up to its 10 hours, not a minute longer.
    for (let step = 1; step <= 10; step++) {
      clock.advance(59 * 60_000);
      expect((await get(stack, '/api/config', busy.cookie)).status, `after ${step * 59} min`).toBe(200);
    }
    expect((await get(stack, '/api/config', idle.cookie)).status).toBe(401);
    clock.advance(11 * 60_000);
    expect((await get(stack, '/api/config', busy.cookie)).status).toBe(401);

    const leaving = await loginAs(stack, store.db, 'broker');
    expect((await get(stack, '/api/config', leaving.cookie)).status).toBe(200);
    await disableUser(store.db, leaving.name, 'test');
    expect((await get(stack, '/api/config', leaving.cookie)).status).toBe(401);
    const again = await stack.post('/api/session', { username: leaving.name, password: TEST_PASSWORD });
    expect(await codeOf(again)).toBe('wrong_credentials');
  });

  it('refuses malformed logins with a 400 naming the field', async () => {
    for (const [body, field] of [
      [{ username: 'Ana' }, 'password'],
      [{ username: 5, password: TEST_PASSWORD }, 'username'],
      [{ username: 'Ana', password: TEST_PASSWORD, role: 'admin' }, 'role'],
      [{ username: '', password: TEST_PASSWORD }, 'username'],
    ] as const) {
      const response = await stack.post('/api/session', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(await response.json()), JSON.stringify(body)).toContain(field);
    }
    expect((await stack.post('/api/session', '{"username":')).status).toBe(400);
  });
});

describe.each(STORE_KINDS)('failed logins are slowed per address and per username, on %s', (kind) => {
  let store: Store;
  let close: () => Promise<void>;
  const clock = manualClock(Date.parse('2026-11-27T08:00:00Z'));
  let stack: Stack;
  beforeAll(async () => {
    ({ store, close } = await openMigratedTestStore(kind));
    // One proxy of our own in front: X-Forwarded-For names the client.
    stack = await startStack({ store, now: clock.now, env: { TRUST_PROXY: '1' } });
    for (const name of ['Bo', 'Cy', 'Di'])
      await addUser(store.db, { name, role: 'dispatcher', password: TEST_PASSWORD }, 'test');
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await close?.();
  });

  const attempt = (from: string, username: string, password: string) =>
    stack.post('/api/session', { username, password }, { 'X-Forwarded-For': `10.9.9.9, ${from}` });

  it('50 failed logins from one address do not stop a correct login from another', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) statuses.push((await attempt('203.0.113.7', `guess-${i}`, 'wrong')).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(new Set(statuses.slice(10))).toEqual(new Set([429]));
    const refused = await attempt('203.0.113.7', 'Bo', TEST_PASSWORD);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(JSON.stringify(await refused.json())).toContain('from this address');
    expect((await attempt('198.51.100.2', 'Bo', TEST_PASSWORD)).status).toBe(204);
  });

  it('failures for one username from many addresses slow that username, with a growing wait, not others', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 8; i++) statuses.push((await attempt(`192.0.2.${i}`, 'Cy', 'wrong')).status);
    expect(statuses.slice(0, 5)).toEqual(Array(5).fill(401));
    const slowed = await attempt('192.0.2.100', 'cy', TEST_PASSWORD);
    expect(slowed.status).toBe(429);
    expect(JSON.stringify(await slowed.json())).toContain('for this username');
    const wait = Number(slowed.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    // Another user logs in meanwhile, from an address that just failed for Cy.
    expect((await attempt('192.0.2.1', 'Di', TEST_PASSWORD)).status).toBe(204);
    // Once the wait is over, one more failure makes the next wait twice as long.
    clock.advance(wait * 1000);
    expect((await attempt('192.0.2.101', 'Cy', 'wrong')).status).toBe(401);
    const longer = Number((await attempt('192.0.2.102', 'Cy', TEST_PASSWORD)).headers.get('retry-after'));
    expect(longer).toBe(wait * 2);
    clock.advance(longer * 1000);
    expect((await attempt('192.0.2.103', 'Cy', TEST_PASSWORD)).status).toBe(204);
  });

  it('counts an IPv6 client by its /56: addresses taken in turn from one prefix are one client', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 12; i++)
      statuses.push((await attempt(`2001:db8:77:${i.toString(16)}::${i}`, `v6-guess-${i}`, 'wrong')).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
    // A client of another prefix logs in meanwhile.
    expect((await attempt('2001:db8:78::1', 'Di', TEST_PASSWORD)).status).toBe(204);
  });

  it('believes X-Forwarded-For only with TRUST_PROXY: without it, made-up addresses are one socket', async () => {
    const direct = await startStack({ store, now: clock.now });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const response = await direct.post(
          '/api/session',
          { username: `nobody-${i}`, password: 'wrong' },
          { 'X-Forwarded-For': `198.18.0.${i}` },
        );
        statuses.push(response.status);
      }
      expect(statuses).toEqual([...Array(10).fill(401), 429]);
    } finally {
      await direct.close();
    }
  });
});
