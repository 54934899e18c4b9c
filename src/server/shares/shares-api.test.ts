import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxyErrorBody } from '@/contract/proxy-api';
import { SHARE_NOT_VALID, ShareCreated, SharesAnswer, ShareView } from '@/contract/share-api';
import { loginAs } from '@/testing/login';
import { manualClock, startStack, type Stack } from '@/testing/stack';
import { openMigratedTestStore, STORE_KINDS } from '@/testing/test-store';
import { SHARE_LIMIT_PER_ADDRESS, SHARE_LIMIT_PER_TOKEN } from '../routes/shares';
import type { Store } from '../store/store';
import { liveShareLoads } from './shares';

const MINUTE = 60_000;
const DAY = 86_400_000;

describe.each(STORE_KINDS)('share links, on %s', (kind) => {
  let store: Store;
  let close: () => Promise<void>;
  let stack: Stack;
  let ana: string;
  let bo: string;
  let rolling: { externalId: string; phone: string; driver: string; loadNumber: string };
  const clock = manualClock();
  // Each request names its own address (TRUST_PROXY=1), so the limits per address are the test's to hit.
  let nextAddress = 1;
  const freshAddress = () => `10.9.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

  beforeAll(async () => {
    ({ store, close } = await openMigratedTestStore(kind));
    stack = await startStack({ store, now: clock.now, env: { TRUST_PROXY: '1' } });
    ana = (await loginAs(stack, store.db, 'dispatcher', 'Ana')).cookie;
    bo = (await loginAs(stack, store.db, 'broker', 'Bo Broker')).cookie;
    const plan = stack.sim.fleet[3]!;
    rolling = {
      externalId: String(plan.externalId),
      loadNumber: plan.loadNumber,
      phone: plan.driver.phoneNumber,
      driver: plan.driver.name,
    };
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await close?.();
  });

  const send = (method: 'GET' | 'POST' | 'DELETE', path: string, cookie: string, body?: unknown) =>
    fetch(`${stack.proxy.url}${path}`, {
      method,
      headers: {
        Cookie: cookie,
        'X-Requested-With': 'haulview',
        'Content-Type': 'application/json',
        'X-Forwarded-For': freshAddress(),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const open = (token: string, address = freshAddress(), poll = false) =>
    fetch(`${stack.proxy.url}/api/share/${token}${poll ? '?poll=1' : ''}`, {
      headers: { 'X-Forwarded-For': address },
    });
  const create = async (cookie: string, body: unknown) => {
    const response = await send('POST', '/api/shares', cookie, body);
    expect(response.status, await response.clone().text()).toBe(201);
    return ShareCreated.parse(await response.json());
  };
  const linksOf = async (cookie: string) =>
    SharesAnswer.parse(await (await send('GET', '/api/shares', cookie)).json()).links;

  it('shows the shared load to anyone with the link, without the driver, and counts the view', async () => {
    const made = await create(bo, {
      loads: [`e:${rolling.externalId}`],
      shows: { map: true, status: true, stops: true, pod: true },
    });
    expect(made.token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(made.path).toBe(`/share/${made.token}`);
    expect(made.link).toMatchObject({ createdBy: 'Bo Broker', views: 0, live: true, lastViewAt: null });
    expect(Date.parse(made.link.expiresAt) - clock.now()).toBe(7 * DAY);
    // The token is nowhere in the store, only its hash.
    const stored = JSON.stringify(await store.db.selectFrom('share_links').selectAll().execute());
    expect(stored).not.toContain(made.token);

    const response = await open(made.token);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-robots-tag')).toContain('noindex');
    // The token opens the load to anyone: the request log names the route, not the token.
    expect(stack.logs.join('\n')).not.toContain(made.token);
    expect(stack.logs.at(-1)).toContain('"path":"/api/share/…"');
    const text = await response.text();
    const view = ShareView.parse(JSON.parse(text));
    expect(view.broker).toBe('Bo Broker');
    expect(view.loads).toHaveLength(1);
    const load = view.loads[0]!;
    expect(load).toMatchObject({ label: rolling.externalId, found: true });
    expect(load.position?.lat).toEqual(expect.any(Number));
    // The place near which it is belongs to the position: shown with it.
    expect(load.place?.city).toEqual(expect.any(String));
    expect(load.stops?.length).toBeGreaterThan(0);
    // The dashboard's own pull of the same load carries the driver: the link's answer never does.
    const full = await (
      await send('POST', '/api/pull/by-load-number', ana, { ids: [rolling.loadNumber] })
    ).text();
    expect(full).toContain(rolling.phone);
    expect(text).not.toContain(rolling.phone);
    expect(text).not.toContain(rolling.driver);
    expect(text).not.toMatch(/phone|driver|comment/i);

    const [link] = await linksOf(bo);
    expect(link).toMatchObject({ id: made.link.id, views: 1, live: true });
    expect(link?.lastViewAt).toBe(new Date(clock.now()).toISOString());
    // A page's refreshes are not views.
    await open(made.token, freshAddress(), true);
    expect((await linksOf(bo))[0]?.views).toBe(1);
    const audit = await store.db
      .selectFrom('audit_log')
      .select(['actor', 'action'])
      .where('action', 'like', 'share.%')
      .execute();
    expect(audit).toEqual([
      { actor: 'Bo Broker', action: 'share.create' },
      { actor: 'anonymous', action: 'share.view' },
    ]);
  });

  it('shows only what the link says', async () => {
    const made = await create(ana, {
      loads: [`n:${rolling.loadNumber}`, 'e:no-such-load'],
      shows: { map: false, status: true, stops: false, pod: false },
    });
    const view = ShareView.parse(await (await open(made.token)).json());
    expect(view.loads[0]).not.toHaveProperty('position');
    // Where it is now, in a city's words, is the position too: a customer not shown the map reads neither.
    expect(view.loads[0]).not.toHaveProperty('place');
    expect(view.loads[0]).not.toHaveProperty('stops');
    expect(view.loads[0]).not.toHaveProperty('pod');
    expect(view.loads[1]).toEqual({ label: 'no-such-load', found: false });
  });

  it('names the loads by the customer’s reference, never by our ids, when the broker gives one', async () => {
    const made = await create(bo, {
      loads: [`e:${rolling.externalId}`, `n:${rolling.loadNumber}`],
      reference: '  PO 4471 ',
    });
    expect(made.link.reference).toBe('PO 4471');
    const text = await (await open(made.token)).text();
    const view = ShareView.parse(JSON.parse(text));
    expect(view.loads.map((l) => l.label)).toEqual(['PO 4471 · 1 of 2', 'PO 4471 · 2 of 2']);
    expect(view.loads.every((l) => l.found)).toBe(true);
    expect(text).not.toContain(rolling.externalId);
    expect(text).not.toContain(rolling.loadNumber);
    for (const reference of ['', '   ', 'x'.repeat(61), 12]) {
      const refused = await send('POST', '/api/shares', bo, {
        loads: [`e:${rolling.externalId}`],
        reference,
      });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain('reference');
    }
  });

  it('stops answering the moment a link is revoked, with the same answer as an unknown token', async () => {
    const made = await create(ana, { loads: [`e:${rolling.externalId}`] });
    expect((await open(made.token)).status).toBe(200);
    const revoked = await send('DELETE', `/api/shares/${made.link.id}`, bo);
    expect(revoked.status).toBe(200);
    const after = await open(made.token);
    expect(after.status).toBe(404);
    expect(await after.json()).toEqual(SHARE_NOT_VALID);
    const link = (await linksOf(bo)).find((l) => l.id === made.link.id);
    expect(link).toMatchObject({ live: false, revokedBy: 'Bo Broker' });
    const entry = await store.db
      .selectFrom('audit_log')
      .select(['actor'])
      .where('action', '=', 'share.revoke')
      .executeTakeFirst();
    expect(entry).toEqual({ actor: 'Bo Broker' });
    expect((await send('DELETE', '/api/shares/999999', bo)).status).toBe(404);
  });

  it('ends a link at its expiry, and lists only live links’ loads for the puller', async () => {
    const made = await create(ana, { loads: ['e:expiring-1'], expiry: { kind: 'days', days: 1 } });
    expect(await liveShareLoads(store.db, clock.now())).toContain('e:expiring-1');
    clock.advance(DAY - MINUTE);
    expect((await open(made.token)).status).toBe(200);
    clock.advance(MINUTE);
    const expired = await open(made.token);
    expect(expired.status).toBe(404);
    expect(await expired.json()).toEqual(SHARE_NOT_VALID);
    const live = await liveShareLoads(store.db, clock.now());
    expect(live).not.toContain('e:expiring-1');
    // The first link (7 days) still works; the revoked one is gone.
    expect(live).toEqual([`e:${rolling.externalId}`, 'e:no-such-load', `n:${rolling.loadNumber}`]);
    // A day went by: the sessions made at the start have gone idle.
    ana = (await loginAs(stack, store.db, 'dispatcher')).cookie;
    bo = (await loginAs(stack, store.db, 'broker')).cookie;
  });

  it('answers 1,000 guessed tokens with the one not-valid answer, never data', async () => {
    const answers = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const token =
        i % 2 === 0 ? randomBytes(16).toString('base64url') : randomBytes(1 + (i % 40)).toString('hex');
      // A fresh address every 20 guesses: the guesses themselves, not the limit, are answered here.
      const address = `10.8.${Math.floor(i / 20)}.1`;
      const response = await open(encodeURIComponent(token), address);
      answers.add(`${response.status} ${await response.text()}`);
    }
    expect([...answers]).toEqual([`404 ${JSON.stringify(SHARE_NOT_VALID)}`]);
  }, 120_000);

  it('limits requests per address and per token with 429 and Retry-After', async () => {
    const address = freshAddress();
    for (let i = 0; i < SHARE_LIMIT_PER_ADDRESS; i++)
      expect((await open(randomBytes(16).toString('base64url'), address)).status).toBe(404);
    const refused = await open(randomBytes(16).toString('base64url'), address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(ProxyErrorBody.parse(await refused.json()).error.code).toBe('too_many_requests');
    clock.advance(MINUTE);
    expect((await open(randomBytes(16).toString('base64url'), address)).status).toBe(404);

    const made = await create(ana, { loads: [`e:${rolling.externalId}`] });
    for (let i = 0; i < SHARE_LIMIT_PER_TOKEN; i++)
      expect((await open(made.token, freshAddress(), true)).status).toBe(200);
    const tooMany = await open(made.token, freshAddress(), true);
    expect(tooMany.status).toBe(429);
    expect(await tooMany.text()).not.toContain(rolling.externalId);
  }, 120_000);

  it('keeps the team’s routes behind the login, and refuses malformed links with a 400', async () => {
    expect((await fetch(`${stack.proxy.url}/api/shares`)).status).toBe(401);
    const cases: [unknown, string][] = [
      [{ loads: [] }, 'loads'],
      [{ loads: ['9001'] }, 'loads'],
      [{ loads: ['e:1'], expiry: { kind: 'days', days: 0 } }, 'expiry'],
      [{ loads: ['e:1'], expiry: { kind: 'weeks', days: 2 } }, 'expiry'],
      [{ loads: ['e:1'], shows: { map: true } }, 'shows'],
      [{ loads: ['e:1'], createdBy: 'someone' }, 'createdBy'],
    ];
    for (const [body, field] of cases) {
      const response = await send('POST', '/api/shares', ana, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(await response.json())).toContain(field);
    }
    expect((await send('DELETE', '/api/shares/abc', bo)).status).toBe(400);
  });

  it('lets a dispatcher make a link, but only brokers and admins list and revoke the team’s', async () => {
    const made = await create(ana, { loads: [`e:${rolling.externalId}`] });
    for (const [method, path] of [
      ['GET', '/api/shares'],
      ['DELETE', `/api/shares/${made.link.id}`],
    ] as const) {
      const refused = await send(method, path, ana);
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(await refused.json()).toMatchObject({ error: { code: 'forbidden_role' } });
    }
    expect((await open(made.token)).status).toBe(200);
    expect((await linksOf(bo)).find((l) => l.id === made.link.id)).toMatchObject({ live: true });
  });
});
