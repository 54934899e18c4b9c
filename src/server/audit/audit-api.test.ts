import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditAnswer } from '@/contract/admin-api';
import { ProxyErrorBody } from '@/contract/proxy-api';
import { loginAs } from '@/testing/login';
import { startStack, type Stack } from '@/testing/stack';
import { openMigratedTestStore, STORE_KINDS } from '@/testing/test-store';
import { recordAudit } from '../store/audit';
import type { Store } from '../store/store';

const errorOf = async (response: Response) => ProxyErrorBody.parse(await response.json()).error;

describe.each(STORE_KINDS)('/api/audit, on %s', (kind) => {
  let store: Store;
  let close: () => Promise<void>;
  let stack: Stack;
  let bo: { name: string; cookie: string };
  let ana: { name: string; cookie: string };
  let ops: { name: string; cookie: string };
  beforeAll(async () => {
    ({ store, close } = await openMigratedTestStore(kind));
    stack = await startStack({ store });
    bo = await loginAs(stack, store.db, 'admin', 'Bo');
    ana = await loginAs(stack, store.db, 'broker', 'Ana');
    ops = await loginAs(stack, store.db, 'dispatcher', 'Ops');
    // Things users did, through the API, so the log holds what the server wrote itself.
    expect((await stack.post('/api/session', { username: 'Ana', password: 'wrong password' })).status).toBe(
      401,
    );
    const review = await fetch(`${stack.proxy.url}/api/documents/reviews`, {
      method: 'PUT',
      headers: { Cookie: ana.cookie, 'X-Requested-With': 'haulview', 'Content-Type': 'application/json' },
      body: JSON.stringify({
        load: 'e:9001',
        url: 'https://files.example.com/pod.jpg',
        decision: 'approved',
      }),
    });
    expect(review.status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await close?.();
  });

  const get = (query: string, cookie = bo.cookie) =>
    fetch(`${stack.proxy.url}/api/audit${query}`, { headers: { Cookie: cookie } });
  const read = async (query = '') => {
    const response = await get(query);
    expect(response.status, await response.clone().text()).toBe(200);
    return AuditAnswer.parse(await response.json());
  };

  it('lists who did what, newest first, with the actions the log holds', async () => {
    const { entries, older, actions } = await read();
    expect(entries.map((e) => [e.actor, e.action, e.subject])).toEqual([
      ['Ana', 'review', 'https://files.example.com/pod.jpg'],
      ['anonymous', 'login.failed', 'Ana'],
      ['Ops', 'login', 'Ops'],
      ['test', 'user.add', 'Ops'],
      ['Ana', 'login', 'Ana'],
      ['test', 'user.add', 'Ana'],
      ['Bo', 'login', 'Bo'],
      ['test', 'user.add', 'Bo'],
    ]);
    expect(entries[0]?.details).toEqual({ decision: 'approved', reason: null, load: 'e:9001' });
    expect(entries[1]?.details).toMatchObject({ address: expect.any(String) });
    expect(older).toBeNull();
    expect(actions).toEqual(['login', 'login.failed', 'review', 'user.add']);
    const ids = entries.map((e) => BigInt(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    for (const e of entries) expect(Number.isNaN(Date.parse(e.at))).toBe(false);
  });

  it('filters by action', async () => {
    const { entries } = await read('?action=login');
    expect(entries.map((e) => e.subject)).toEqual(['Ops', 'Ana', 'Bo']);
    expect((await read('?action=webhook.create')).entries).toEqual([]);
  });

  it('pages to older entries with ?limit= and ?before=, to the oldest and no further', async () => {
    const all = (await read()).entries;
    const first = await read('?limit=3');
    expect(first.entries).toEqual(all.slice(0, 3));
    expect(first.older).toBe(all[2]?.id);
    const second = await read(`?limit=3&before=${first.older}`);
    expect(second.entries).toEqual(all.slice(3, 6));
    const last = await read(`?limit=3&before=${second.older}`);
    expect(last.entries).toEqual(all.slice(6));
    expect(last.older).toBeNull();
    const logins = await read(`?action=login&limit=2`);
    expect(logins.entries.map((e) => e.subject)).toEqual(['Ops', 'Ana']);
    expect(
      (await read(`?action=login&limit=2&before=${logins.older}`)).entries.map((e) => e.subject),
    ).toEqual(['Bo']);
  });

  it('bounds ?limit=: the default is 50, at most 200', async () => {
    for (let i = 0; i < 210; i++)
      await recordAudit(store.db, { actor: 'cli', action: 'user.password', subject: `u${i}` });
    expect((await read()).entries).toHaveLength(50);
    const most = await read('?limit=200');
    expect(most.entries).toHaveLength(200);
    expect(most.entries[0]?.subject).toBe('u209');
    expect(most.older).not.toBeNull();
  });

  it('answers 400 naming each bad parameter', async () => {
    const cases: [string, string][] = [
      ['?limit=0', 'limit'],
      ['?limit=201', 'limit'],
      ['?limit=ten', 'limit'],
      ['?limit=-5', 'limit'],
      ['?before=abc', 'before'],
      ['?before=0', 'before'],
      ['?before=1%3B%20drop%20table%20audit_log', 'before'],
      ['?before=99999999999999999999', 'before'],
      ['?action=LOGIN', 'action'],
      ['?action=login%27%20or%201%3D1', 'action'],
      [`?action=${'a'.repeat(65)}`, 'action'],
      ['?actor=Bo', 'actor'],
    ];
    for (const [query, name] of cases) {
      const response = await get(query);
      expect(response.status, query).toBe(400);
      expect(JSON.stringify(await errorOf(response)), query).toContain(name);
    }
    // Nothing was dropped or matched by the odd values.
    expect((await read('?action=review')).entries).toHaveLength(1);
  });

  it('answers 403 forbidden_role to brokers and dispatchers, 401 without a session', async () => {
    for (const who of [ana, ops]) {
      const response = await get('', who.cookie);
      expect(response.status).toBe(403);
      expect((await errorOf(response)).code).toBe('forbidden_role');
    }
    expect((await get('', '')).status).toBe(401);
  });
});
