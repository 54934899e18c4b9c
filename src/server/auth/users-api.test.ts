import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxyErrorBody, SessionState } from '@/contract/proxy-api';
import { UserChanged, UsersAnswer } from '@/contract/users-api';
import { cookieOf, loginAs, TEST_PASSWORD } from '@/testing/login';
import { startStack, type Stack } from '@/testing/stack';
import { openMigratedTestStore, STORE_KINDS } from '@/testing/test-store';
import type { Store } from '../store/store';

const errorOf = async (response: Response) => ProxyErrorBody.parse(await response.json()).error;

describe.each(STORE_KINDS)('/api/users, on %s', (kind) => {
  let store: Store;
  let close: () => Promise<void>;
  let stack: Stack;
  beforeAll(async () => {
    ({ store, close } = await openMigratedTestStore(kind));
    stack = await startStack({ store });
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await close?.();
  });

  const send = (method: 'GET' | 'POST' | 'PATCH', path: string, cookie: string, body?: unknown) =>
    fetch(`${stack.proxy.url}${path}`, {
      method,
      headers: { Cookie: cookie, 'X-Requested-With': 'haulview', 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  let admin = '';

  it('in open mode, adds the first user, an admin, with a password shown once; that ends open mode', async () => {
    const dispatcher = await send('POST', '/api/users', '', { name: 'Ops', role: 'dispatcher' });
    expect(dispatcher.status).toBe(400);
    expect((await errorOf(dispatcher)).details).toEqual([
      { path: 'role', message: 'the first user must be an admin, to manage the others' },
    ]);
    const added = await send('POST', '/api/users', '', { name: 'Ada', role: 'admin' });
    expect(added.status).toBe(201);
    const answer = UserChanged.parse(await added.json());
    expect(answer.user).toMatchObject({ name: 'Ada', role: 'admin', disabledAt: null });
    expect(answer.password).toMatch(/^[\w-]{24}$/);
    // At once, not after the next check: the demo's admin is gone, and this browser is Ada now.
    const session = SessionState.parse(await (await fetch(`${stack.proxy.url}/api/session`)).json());
    expect(session).toEqual({ mode: 'users', user: null });
    expect((await send('GET', '/api/users', '')).status).toBe(401);
    admin = cookieOf(added);
    expect(admin).toMatch(/^haulview_session=/);
    expect((await send('GET', '/api/users', admin)).status).toBe(200);
    const login = await stack.post('/api/session', { username: 'Ada', password: answer.password });
    expect(login.status).toBe(204);
  });

  it('lets an admin add, list and change users; each change audited with the admin’s name', async () => {
    const added = await send('POST', '/api/users', admin, {
      name: 'Bea',
      role: 'broker',
      password: TEST_PASSWORD,
    });
    expect(added.status).toBe(201);
    expect(UserChanged.parse(await added.json()).password).toBeUndefined();
    const list = UsersAnswer.parse(await (await send('GET', '/api/users', admin)).json());
    expect(list.users.map((u) => `${u.name} ${u.role}`)).toEqual(['Ada admin', 'Bea broker']);
    expect(JSON.stringify(list)).not.toContain('scrypt');

    const bea = await stack.post('/api/session', { username: 'bea', password: TEST_PASSWORD });
    const beaCookie = cookieOf(bea);
    expect((await send('GET', '/api/users', beaCookie)).status).toBe(403);

    const role = await send('PATCH', '/api/users/Bea', admin, { role: 'dispatcher' });
    expect(UserChanged.parse(await role.json()).user.role).toBe('dispatcher');
    const disabled = await send('PATCH', '/api/users/bea', admin, { disabled: true });
    expect(UserChanged.parse(await disabled.json()).user.disabledAt).not.toBeNull();
    expect((await fetch(`${stack.proxy.url}/api/config`, { headers: { Cookie: beaCookie } })).status).toBe(
      401,
    );
    await send('PATCH', '/api/users/Bea', admin, { disabled: false });
    const reset = UserChanged.parse(
      await (await send('PATCH', '/api/users/Bea', admin, { password: true })).json(),
    );
    expect((await stack.post('/api/session', { username: 'Bea', password: reset.password })).status).toBe(
      204,
    );

    const audit = await store.db
      .selectFrom('audit_log')
      .select(['actor', 'action'])
      .where('subject', '=', 'Bea')
      .where('action', 'like', 'user.%')
      .orderBy('id')
      .execute();
    expect(audit.map((a) => `${a.actor} ${a.action}`)).toEqual([
      'Ada user.add',
      'Ada user.role',
      'Ada user.disable',
      'Ada user.enable',
      'Ada user.password',
    ]);
  });

  it('refuses bad input with the field named, a taken name with 409, an unknown user with 404', async () => {
    const cases: [string, string, unknown, number, string][] = [
      ['POST', '/api/users', { name: 'bea', role: 'broker' }, 409, 'name'],
      ['POST', '/api/users', { name: 'Cy\u0007', role: 'broker' }, 400, 'name'],
      ['POST', '/api/users', { name: 'Cy', role: 'broker', password: 'short' }, 400, 'password'],
      // Past the body's own bound, in the repository's words, not the validator's.
      [
        'POST',
        '/api/users',
        { name: 'Cy', role: 'broker', password: 'x'.repeat(5000) },
        400,
        '{"path":"password","message":"must be at most 1024 characters"}',
      ],
      ['POST', '/api/users', { name: 'Cy', role: 'owner' }, 400, 'role'],
      ['POST', '/api/users', { name: 'Cy', role: 'broker', admin: true }, 400, 'admin'],
      ['PATCH', '/api/users/Bea', { role: 'admin', disabled: true }, 400, 'exactly one'],
      ['PATCH', '/api/users/Bea', {}, 400, 'exactly one'],
      ['PATCH', '/api/users/Nobody', { role: 'broker' }, 404, 'Nobody'],
      // A NUL PostgreSQL cannot keep in a text is the request's fault, never "the store does not answer".
      ['PATCH', '/api/users/%00', { role: 'broker' }, 400, 'the store refused a value sent'],
      ['POST', '/api/users', { name: 'Cy', role: 'broker', password: 'long enough\u0000x' }, 400, 'password'],
      // Said of the field the change was about: not "Role" for a disable.
      [
        'PATCH',
        '/api/users/Ada',
        { disabled: true },
        400,
        '{"path":"disabled","message":"\\"Ada\\" is the last active admin',
      ],
      [
        'PATCH',
        '/api/users/Ada',
        { role: 'broker' },
        400,
        '{"path":"role","message":"stays: \\"Ada\\" is the last active admin',
      ],
    ];
    for (const [method, path, body, status, named] of cases) {
      const response = await send(method as 'POST', path, admin, body);
      const label = `${method} ${path} ${JSON.stringify(body)}`;
      expect(response.status, label).toBe(status);
      expect(JSON.stringify(await response.json()), label).toContain(named);
    }
    expect((await send('POST', '/api/users', admin)).status).toBe(400);
  });

  it('is for admins only', async () => {
    const { cookie } = await loginAs(stack, store.db, 'dispatcher');
    const refused = await send('POST', '/api/users', cookie, { name: 'Eve', role: 'admin' });
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).code).toBe('forbidden_role');
  });
});
