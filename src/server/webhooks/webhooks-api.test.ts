import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhooksAnswer } from '@/contract/admin-api';
import { ClientConfig, ProxyErrorBody } from '@/contract/proxy-api';
import { Webhook } from '@/contract/webhook';
import { DEMO_JWT_SECRET } from '@/simulator/demo';
import { demoToken } from '@/simulator/webhooks';
import { loginAs } from '@/testing/login';
import { startStack, type Stack } from '@/testing/stack';
import { openMigratedTestStore, STORE_KINDS } from '@/testing/test-store';
import type { Store } from '../store/store';

const errorOf = async (response: Response) => ProxyErrorBody.parse(await response.json()).error;

describe.each(STORE_KINDS)('the webhook registry (/api/webhooks), on %s', (kind) => {
  let store: Store;
  let close: () => Promise<void>;
  let stack: Stack;
  let token: string;
  let bo: { name: string; cookie: string };
  let cy: { name: string; cookie: string };
  let ana: { name: string; cookie: string };
  beforeAll(async () => {
    ({ store, close } = await openMigratedTestStore(kind));
    const demo = { externalIds: [], loadNumbers: [], webhookToken: await demoToken(DEMO_JWT_SECRET) };
    stack = await startStack({ store, upstream: { demo } });
    bo = await loginAs(stack, store.db, 'admin', 'Bo');
    cy = await loginAs(stack, store.db, 'admin', 'Cy');
    ana = await loginAs(stack, store.db, 'broker', 'Ana');
    // The token the page offers, as an admin's browser reads it.
    const config = ClientConfig.parse(
      await (await fetch(`${stack.proxy.url}/api/config`, { headers: { Cookie: bo.cookie } })).json(),
    );
    token = config.demo?.webhookToken ?? '';
    expect(token).not.toBe('');
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await close?.();
  });

  const create = (cookie: string, clientUrl: string, bearer = token) =>
    stack.post(
      '/api/webhooks',
      { eventType: 'PdvRequestCompleted', clientUrl },
      { Cookie: cookie, Authorization: `Bearer ${bearer}` },
    );
  const list = async (cookie: string) => {
    const response = await fetch(`${stack.proxy.url}/api/webhooks`, { headers: { Cookie: cookie } });
    expect(response.status, await response.clone().text()).toBe(200);
    return WebhooksAnswer.parse(await response.json()).webhooks;
  };

  it('records each webhook the service accepted, with who, and lists them newest first to every admin', async () => {
    const first = await create(bo.cookie, 'https://hooks.example.com/first');
    expect(first.status).toBe(201);
    const one = Webhook.parse(await first.json());
    const second = await create(cy.cookie, '  https://hooks.example.com/second ');
    expect(second.status).toBe(201);
    const two = Webhook.parse(await second.json());

    const listed = await list(bo.cookie);
    expect(listed.map((w) => [w.uuid, w.createdBy, w.clientUrl, w.eventType])).toEqual([
      [two.uuid, 'Cy', 'https://hooks.example.com/second', 'PdvRequestCompleted'],
      [one.uuid, 'Bo', 'https://hooks.example.com/first', 'PdvRequestCompleted'],
    ]);
    expect(Date.parse(listed[0]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(listed[1]!.createdAt));
    // Another admin, another browser: the same list.
    expect(await list(cy.cookie)).toEqual(listed);
  });

  it('audits each creation as webhook.create with the user, the uuid, the event type and address', async () => {
    const listed = await list(bo.cookie);
    const rows = await store.db
      .selectFrom('audit_log')
      .select(['actor', 'subject', 'details'])
      .where('action', '=', 'webhook.create')
      .orderBy('id')
      .execute();
    expect(rows).toEqual(
      [...listed].reverse().map((w) => ({
        actor: w.createdBy,
        subject: w.uuid,
        details: { eventType: 'PdvRequestCompleted', clientUrl: w.clientUrl },
      })),
    );
  });

  it('records nothing the service refused (a duplicate, a bad token) or the proxy refused', async () => {
    const before = await list(bo.cookie);
    expect((await create(bo.cookie, 'https://hooks.example.com/first')).status).toBe(409);
    expect((await create(bo.cookie, 'https://hooks.example.com/third', 'not.a.token')).status).toBe(401);
    expect((await create(bo.cookie, 'http://hooks.example.com/plain')).status).toBe(422);
    expect((await create(bo.cookie, 'https://127.0.0.1/inside')).status).toBe(400);
    expect(await list(bo.cookie)).toEqual(before);
    const audited = await store.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'webhook.create')
      .execute();
    expect(audited).toHaveLength(before.length);
  });

  it('keeps the bearer token in no stored row and no audit entry', async () => {
    expect((await create(bo.cookie, 'https://hooks.example.com/token-check')).status).toBe(201);
    const [signature] = token.split('.').slice(-1);
    for (const table of ['webhooks', 'audit_log', 'sessions', 'users', 'document_reviews'] as const) {
      const rows = JSON.stringify(await store.db.selectFrom(table).selectAll().execute());
      expect(rows, table).not.toContain(token);
      expect(rows, table).not.toContain(signature);
      expect(rows, table).not.toMatch(/bearer/i);
    }
  });

  it('answers 403 forbidden_role to other roles, listing and creating, and 401 without a session', async () => {
    const listing = await fetch(`${stack.proxy.url}/api/webhooks`, { headers: { Cookie: ana.cookie } });
    expect(listing.status).toBe(403);
    expect((await errorOf(listing)).code).toBe('forbidden_role');
    const creating = await create(ana.cookie, 'https://hooks.example.com/broker');
    expect(creating.status).toBe(403);
    expect((await fetch(`${stack.proxy.url}/api/webhooks`)).status).toBe(401);
    expect((await list(bo.cookie)).map((w) => w.clientUrl)).not.toContain('https://hooks.example.com/broker');
  });
});
