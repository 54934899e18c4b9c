import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_RECORDED_HEADER } from '@/contract/admin-api';
import { ProxyErrorBody, SessionState } from '@/contract/proxy-api';
import { Webhook } from '@/contract/webhook';
import { DEMO_JWT_SECRET } from '@/simulator/demo';
import { demoToken } from '@/simulator/webhooks';
import { loginAs, TEST_PASSWORD } from '@/testing/login';
import { manualClock, startStack, type Stack } from '@/testing/stack';
import { asClusterAdmin, createTestDatabase, type TestDatabase } from '@/testing/test-store';
import { migrateToLatest } from '../store/migrate';
import { openStore, type Store } from '../store/store';

// A real outage of a real server: the database stops taking connections and its sessions are cut.
// (The embedded store lives in the process: it is down only when Haulview is.)
describe('the store lost while running (PostgreSQL)', () => {
  let database: TestDatabase;
  let store: Store;
  let stack: Stack;
  let name: string;
  const clock = manualClock(Date.now());
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    name = new URL(database.options.databaseUrl!).pathname.slice(1);
    store = await openStore(database.options);
    await migrateToLatest(store.db);
    const demo = { externalIds: [], loadNumbers: [], webhookToken: await demoToken(DEMO_JWT_SECRET) };
    stack = await startStack({ store, now: clock.now, upstream: { demo } });
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await store?.close();
    await database?.drop();
  });

  const get = (path: string, cookie: string) =>
    fetch(`${stack.proxy.url}${path}`, { headers: { Cookie: cookie } });
  const codeOf = async (r: Response) => ProxyErrorBody.parse(await r.json()).error.code;

  it('keeps the map and board of a recent session going, answers 503 store_unavailable for what needs it', async () => {
    const { name: user, cookie } = await loginAs(stack, store.db, 'broker');
    const admin = await loginAs(stack, store.db, 'admin');
    expect((await get('/api/session', admin.cookie)).status).toBe(200);
    expect((await stack.post('/api/pull/by-external-id', { ids: ['1'] }, { Cookie: cookie })).status).toBe(
      200,
    );

    await asClusterAdmin(`alter database ${name} allow_connections false`);
    await asClusterAdmin(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}'`);
    try {
      // The proxy's own work goes on for the session the store vouched for a moment ago.
      expect((await stack.post('/api/pull/by-external-id', { ids: ['1'] }, { Cookie: cookie })).status).toBe(
        200,
      );
      expect(SessionState.parse(await (await get('/api/session', cookie)).json()).user?.name).toBe(user);
      // What needs the store says so.
      const ready = await fetch(`${stack.proxy.url}/api/ready`);
      expect(ready.status).toBe(503);
      const review = await fetch(`${stack.proxy.url}/api/documents/reviews`, {
        method: 'PUT',
        headers: { Cookie: cookie, 'X-Requested-With': 'haulview', 'Content-Type': 'application/json' },
        body: JSON.stringify({ load: 'e:1', url: 'https://docs.example.com/pod.jpg', decision: 'approved' }),
      });
      expect(review.status).toBe(503);
      expect(await codeOf(review)).toBe('store_unavailable');
      // A webhook the service accepted exists whatever the store says: the admin gets the 201, marked
      // as not recorded, and the page says it is missing from the list.
      const webhook = await stack.post(
        '/api/webhooks',
        { eventType: 'PdvRequestCompleted', clientUrl: 'https://hooks.example.com/outage' },
        { Cookie: admin.cookie, Authorization: `Bearer ${await demoToken(DEMO_JWT_SECRET)}` },
      );
      expect(webhook.status).toBe(201);
      expect(webhook.headers.get(NOT_RECORDED_HEADER)).toBe('store_unavailable');
      expect(Webhook.parse(await webhook.json()).clientUrl).toBe('https://hooks.example.com/outage');
      const login = await stack.post('/api/session', { username: user, password: TEST_PASSWORD });
      expect(login.status).toBe(503);
      expect(await codeOf(login)).toBe('store_unavailable');
      // A cookie the store never vouched for here cannot be checked: 503, not a guess.
      const stranger = await get('/api/config', 'haulview_session=not-a-session-anyone-has');
      expect(await codeOf(stranger)).toBe('store_unavailable');
      // The grace is bounded: after it, the session is no longer trusted without the store.
      clock.advance(16 * 60_000);
      expect(await codeOf(await get('/api/config', cookie))).toBe('store_unavailable');
    } finally {
      await asClusterAdmin(`alter database ${name} allow_connections true`);
    }
    // Back: the session is the store's to judge again, and it still holds.
    expect((await get('/api/config', cookie)).status).toBe(200);
  }, 60_000);

  it('with TRACKS=store the loads are kept there: their pull answers 503 store_unavailable, saying so', async () => {
    const several = await startStack({ store, now: clock.now, env: { TRACKS: 'store' } });
    try {
      const { cookie } = await loginAs(several, store.db, 'dispatcher');
      const pull = () => several.post('/api/pull/by-external-id', { ids: ['1'] }, { Cookie: cookie });
      expect((await pull()).status).toBe(200);
      await asClusterAdmin(`alter database ${name} allow_connections false`);
      await asClusterAdmin(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}'`,
      );
      try {
        const refused = await pull();
        expect(refused.status).toBe(503);
        const { error } = ProxyErrorBody.parse(await refused.json());
        expect(error).toMatchObject({ code: 'store_unavailable', details: { waits: 'loads' } });
        expect(error.message).toContain('the loads are kept there');
      } finally {
        await asClusterAdmin(`alter database ${name} allow_connections true`);
      }
      expect((await pull()).status).toBe(200);
    } finally {
      await several.close();
    }
  }, 60_000);
});
