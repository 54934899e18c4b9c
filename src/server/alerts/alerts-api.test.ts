import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertRule, AlertRulesAnswer, AlertsAnswer } from '@/contract/alerts-api';
import { ProxyErrorBody } from '@/contract/proxy-api';
import { LoadView } from '@/contract/load-view';
import { emptyLoad, testLatestLocation } from '@/testing/loads';
import { loginAs } from '@/testing/login';
import { manualClock, startStack, type Stack } from '@/testing/stack';
import { openMigratedTestStore, STORE_KINDS } from '@/testing/test-store';
import type { Load } from '@/domain/model';
import type { Store } from '../store/store';
import { createAlertEngine } from './alert-engine';

const MIN = 60_000;
const errorOf = async (response: Response) => ProxyErrorBody.parse(await response.json()).error;

/** A webhook receiver on loopback: records each body by path; `/flaky` answers 500 to its first two posts, `/down` always. */
async function startReceiver() {
  const got: { path: string; body: unknown }[] = [];
  let flaky = 0;
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const path = req.url ?? '';
      if (path === '/down' || (path === '/flaky' && ++flaky <= 2)) {
        res.writeHead(500).end('not now');
        return;
      }
      got.push({ path, body: JSON.parse(text) });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { got, origin, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe.each(STORE_KINDS)('alerts, on %s', (kind) => {
  const clock = manualClock();
  let store: Store;
  let close: () => Promise<void>;
  let stack: Stack;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let admin: { name: string; cookie: string };
  let ana: { name: string; cookie: string };
  beforeAll(async () => {
    ({ store, close } = await openMigratedTestStore(kind));
    receiver = await startReceiver();
    stack = await startStack({
      store,
      now: clock.now,
      env: {
        ALERT_WEBHOOK_ALLOW: receiver.origin,
        // The tests move the clock by days: sessions outlive them.
        SESSION_IDLE_MINUTES: '10080',
        SESSION_MAX_HOURS: '8760',
      },
    });
    admin = await loginAs(stack, store.db, 'admin', 'Ada');
    ana = await loginAs(stack, store.db, 'dispatcher', 'Ana');
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await receiver?.close();
    await close?.();
  });

  const send = (method: string, path: string, cookie: string, body?: unknown) =>
    fetch(`${stack.proxy.url}/api/alerts${path}`, {
      method,
      headers: { Cookie: cookie, 'X-Requested-With': 'haulview', 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const addRule = async (body: unknown) => {
    const response = await send('POST', '/rules', admin.cookie, body);
    expect(response.status, await response.clone().text()).toBe(201);
    return AlertRule.parse(await response.json());
  };
  const alerts = async (cookie = ana.cookie) =>
    AlertsAnswer.parse(await (await send('GET', '', cookie)).json()).alerts;
  const rules = async () => AlertRulesAnswer.parse(await (await send('GET', '/rules', admin.cookie)).json());
  /** Pulls the fleet as a browser does, so the proxy holds the loads; answers them. */
  const pullFleet = async (): Promise<Load[]> => {
    const ids = stack.sim.fleet.map((p) => String(p.externalId));
    const answer = (await (
      await stack.post('/api/pull/by-external-id', { ids }, { Cookie: ana.cookie })
    ).json()) as {
      loads: unknown[];
    };
    return answer.loads.map((l) => LoadView.parse(l));
  };

  it('non-admins read alerts but get 403 on the rules', async () => {
    expect(await alerts()).toEqual([]);
    for (const [method, path, body] of [
      ['GET', '/rules', undefined],
      ['POST', '/rules', { kind: 'late', minMinutes: 0, enabled: true, webhookUrl: null }],
      ['PUT', '/rules/1', { kind: 'late', minMinutes: 0, enabled: true, webhookUrl: null, version: 1 }],
      ['DELETE', '/rules/1', undefined],
    ] as const) {
      const response = await send(method, path, ana.cookie, body);
      expect(response.status, `${method} ${path}`).toBe(403);
      expect((await errorOf(response)).code).toBe('forbidden_role');
    }
    expect((await rules()).rules).toEqual([]);
  });

  it('refuses bad rules with a 400 naming the field, and stores none', async () => {
    const ok = { kind: 'dark', minMinutes: 45, enabled: true, webhookUrl: null };
    const cases: [unknown, string][] = [
      [{ ...ok, kind: 'excursion' }, 'kind'],
      [{ ...ok, kind: undefined }, 'kind'],
      [{ ...ok, minMinutes: -1 }, 'minMinutes'],
      [{ ...ok, minMinutes: 1.5 }, 'minMinutes'],
      [{ ...ok, minMinutes: '45' }, 'minMinutes'],
      [{ ...ok, minMinutes: 366 * 24 * 60 }, 'minMinutes'],
      [{ ...ok, enabled: 'yes' }, 'enabled'],
      [{ ...ok, webhookUrl: 'ftp://hooks.example.com/x' }, 'webhookUrl'],
      [{ ...ok, webhookUrl: 'not a url' }, 'webhookUrl'],
      [{ ...ok, webhookUrl: 'http://hooks.example.com/x' }, 'webhookUrl'],
      [{ ...ok, webhookUrl: 'https://127.0.0.1/x' }, 'webhookUrl'],
      [{ ...ok, webhookUrl: 'https://localhost:8443/x' }, 'webhookUrl'],
      [{ ...ok, webhookUrl: 'https://10.2.3.4/x' }, 'webhookUrl'],
      [{ ...ok, webhookUrl: 'https://[::ffff:c0a8:101]/x' }, 'webhookUrl'],
      [{ ...ok, webhookUrl: `https://hooks.example.com/${'x'.repeat(500)}` }, 'webhookUrl'],
      [{ ...ok, webhookUrl: 'https://user:secret@hooks.example.com/x' }, 'webhookUrl'],
      [{ ...ok, createdBy: 'Bo' }, 'createdBy'],
    ];
    for (const [body, field] of cases) {
      const response = await send('POST', '/rules', admin.cookie, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(await errorOf(response)), JSON.stringify(body)).toContain(field);
    }
    const badId = await send('PUT', '/rules/abc', admin.cookie, { ...ok, version: 1 });
    expect(badId.status).toBe(400);
    expect((await errorOf(badId)).message).toContain('id');
    expect((await rules()).rules).toEqual([]);
  });

  it('a receiver gets each alert once, however often the proxy and a second instance judge', async () => {
    const rule = await addRule({
      kind: 'late',
      minMinutes: 0,
      enabled: true,
      webhookUrl: `${receiver.origin}/hook`,
    });
    expect(rule).toMatchObject({ kind: 'late', createdBy: 'Ada', updatedBy: 'Ada', version: 1 });
    const loads = await pullFleet();
    const engine = stack.alerts!;
    // A second instance on the same store, judging the same loads.
    const other = createAlertEngine({
      db: store.db,
      loads: () => loads,
      now: clock.now,
      thresholds: { staleAfterMinutes: 30, silentAfterMinutes: 120 },
      log: () => {},
    });
    await Promise.all([engine.tick(), other.tick()]);
    await Promise.all([engine.tick(), other.tick()]);
    const fired = await alerts();
    expect(fired.length).toBeGreaterThan(0);
    expect(new Set(fired.map((a) => a.load)).size).toBe(fired.length);
    for (const a of fired) {
      expect(a).toMatchObject({
        ruleId: rule.id,
        kind: 'late',
        occurrence: expect.stringMatching(/^stop \d+ due \d+$/),
      });
      expect(a.text).toMatch(new RegExp(`^Late for the next stop: load .*${a.load.replace(':', ':')}`));
    }
    const hook = receiver.got.filter((g) => g.path === '/hook');
    const byText = (a: { text: string }, b: { text: string }) => a.text.localeCompare(b.text);
    expect(hook.map((g) => g.body as { text: string }).sort(byText)).toEqual(
      fired.map((a) => ({ text: a.text })).sort(byText),
    );
    expect((await rules()).failing).toEqual([]);
    // A disabled rule fires nothing more.
    const off = await send('PUT', `/rules/${rule.id}`, admin.cookie, {
      kind: rule.kind,
      minMinutes: rule.minMinutes,
      enabled: false,
      webhookUrl: rule.webhookUrl,
      version: 1,
    });
    expect(off.status).toBe(200);
    clock.advance(20 * MIN);
    await pullFleet();
    await engine.tick();
    expect(await alerts()).toEqual(fired);
  });

  it('waits the minimum duration, fires once per occurrence, and again for a new one', async () => {
    const rule = await addRule({ kind: 'dark', minMinutes: 45, enabled: true, webhookUrl: null });
    const t0 = clock.now();
    const pingAt = (instant: number) =>
      emptyLoad('DARK1', 'load-number', {
        latestLocation: testLatestLocation(instant),
      });
    let dark = pingAt(t0);
    const engine = createAlertEngine({
      db: store.db,
      loads: () => [dark],
      now: clock.now,
      thresholds: { staleAfterMinutes: 30, silentAfterMinutes: 120 },
      log: () => {},
    });
    const mine = async () => (await alerts()).filter((a) => a.ruleId === rule.id);
    clock.set(t0 + 44 * MIN);
    expect(await engine.evaluate()).toBe(0);
    clock.set(t0 + 45 * MIN);
    expect(await engine.evaluate()).toBe(1);
    clock.set(t0 + 180 * MIN);
    expect(await engine.evaluate()).toBe(0);
    expect(await mine()).toMatchObject([
      { load: 'n:DARK1', occurrence: `ping ${t0}`, since: new Date(t0).toISOString() },
    ]);
    // A ping, then dark again: a new occurrence, a new alert after its own wait.
    const t1 = clock.now();
    dark = pingAt(t1);
    clock.advance(44 * MIN);
    expect(await engine.evaluate()).toBe(0);
    clock.advance(MIN);
    expect(await engine.evaluate()).toBe(1);
    expect((await mine()).map((a) => a.occurrence)).toEqual([`ping ${t1}`, `ping ${t0}`]);
    await send('DELETE', `/rules/${rule.id}`, admin.cookie);
    expect(await mine()).toEqual([]);
  });

  it('a condition that stops and comes back for the same stop does not fire again', async () => {
    const rule = await addRule({ kind: 'at-risk', minMinutes: 0, enabled: true, webhookUrl: null });
    const withStatus = (status: 'at-risk' | 'on-time') =>
      emptyLoad('RISK1', 'load-number', {
        outlook: { asOf: clock.now(), stops: [{ order: 2, progress: 'upcoming', status, lateMinutes: -20 }] },
      });
    let risky = withStatus('at-risk');
    const engine = createAlertEngine({
      db: store.db,
      loads: () => [risky],
      now: clock.now,
      thresholds: { staleAfterMinutes: 30, silentAfterMinutes: 120 },
      log: () => {},
    });
    expect(await engine.evaluate()).toBe(1);
    risky = withStatus('on-time');
    expect(await engine.evaluate()).toBe(0);
    risky = withStatus('at-risk');
    expect(await engine.evaluate()).toBe(0);
    expect((await alerts()).filter((a) => a.ruleId === rule.id).map((a) => a.occurrence)).toEqual(['stop 2']);
    await send('DELETE', `/rules/${rule.id}`, admin.cookie);
  });

  it('retries a failing webhook after 1 and 5 min, shows the failure to the admin, and gives up after 4 tries', async () => {
    const flaky = await addRule({
      kind: 'dark',
      minMinutes: 0,
      enabled: true,
      webhookUrl: `${receiver.origin}/flaky`,
    });
    const down = await addRule({
      kind: 'dark',
      minMinutes: 0,
      enabled: true,
      webhookUrl: `${receiver.origin}/down`,
    });
    const t0 = clock.now();
    const dark = emptyLoad('DARK2', 'load-number', {
      latestLocation: testLatestLocation(t0 - 60 * MIN),
    });
    const engine = createAlertEngine({
      db: store.db,
      loads: () => [dark],
      now: clock.now,
      thresholds: { staleAfterMinutes: 30, silentAfterMinutes: 120 },
      log: () => {},
    });
    await engine.tick();
    const failing = (await rules()).failing;
    expect(failing.map((f) => [f.load, f.state, f.attempts, f.lastError, f.nextAt])).toEqual([
      ['n:DARK2', 'pending', 1, 'HTTP 500', new Date(t0 + MIN).toISOString()],
      ['n:DARK2', 'pending', 1, 'HTTP 500', new Date(t0 + MIN).toISOString()],
    ]);
    // Not due yet: no attempt.
    clock.set(t0 + MIN - 1);
    expect(await engine.deliver()).toBe(0);
    clock.set(t0 + MIN);
    expect(await engine.deliver()).toBe(2);
    clock.set(t0 + 6 * MIN);
    expect(await engine.deliver()).toBe(2);
    const flakyGot = receiver.got.filter((g) => g.path === '/flaky');
    expect(flakyGot).toEqual([{ path: '/flaky', body: { text: expect.stringContaining('n:DARK2') } }]);
    clock.set(t0 + 36 * MIN);
    expect(await engine.deliver()).toBe(1);
    clock.set(t0 + 1000 * MIN);
    expect(await engine.deliver()).toBe(0);
    const after = (await rules()).failing;
    expect(after.map((f) => [f.state, f.attempts, f.nextAt])).toEqual([['failed', 4, null]]);
    expect(receiver.got.filter((g) => g.path === '/flaky')).toHaveLength(1);
    const log = await store.db.selectFrom('alert_deliveries').select(['url', 'log']).execute();
    const downLog = log.find((l) => l.url.endsWith('/down'))!.log;
    expect(downLog.map((a) => a.status)).toEqual([500, 500, 500, 500]);
    expect(flaky.id).not.toBe(down.id);
  });

  it('audits each rule change with the admin, never the webhook address', async () => {
    const rows = await store.db
      .selectFrom('audit_log')
      .select(['actor', 'action', 'details'])
      .where('action', 'like', 'alert.%')
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.action)).toEqual([
      'alert.rule.create',
      'alert.rule.update',
      'alert.rule.create',
      'alert.rule.delete',
      'alert.rule.create',
      'alert.rule.delete',
      'alert.rule.create',
      'alert.rule.create',
    ]);
    expect(rows.every((r) => r.actor === 'Ada')).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(receiver.origin);
    expect(rows[1]!.details).toEqual({ kind: 'late', minMinutes: 0, enabled: false, webhook: true });
  });

  it('never shows or logs the address a delivery failure quotes (a rule saved before passwords were refused)', async () => {
    const rule = await addRule({
      kind: 'dark',
      minMinutes: 0,
      enabled: true,
      webhookUrl: `${receiver.origin}/x`,
    });
    const withPassword = `${receiver.origin.replace('://', '://hook:s3cret@')}/x`;
    await store.db
      .updateTable('alert_rules')
      .set({ webhook_url: withPassword })
      .where('id', '=', rule.id)
      .execute();
    const logged: string[] = [];
    const engine = createAlertEngine({
      db: store.db,
      loads: () => [
        emptyLoad('DARK3', 'load-number', { latestLocation: testLatestLocation(clock.now() - 60 * MIN) }),
      ],
      now: clock.now,
      thresholds: { staleAfterMinutes: 30, silentAfterMinutes: 120 },
      log: (line) => logged.push(line),
    });
    await engine.tick();
    const [delivery] = await store.db
      .selectFrom('alert_deliveries')
      .select('log')
      .where('url', '=', withPassword)
      .execute();
    expect(delivery?.log.map((a) => a.error)).toEqual([expect.stringContaining('the webhook URL')]);
    expect(JSON.stringify((await rules()).failing)).not.toContain('s3cret');
    expect(logged.join('\n')).not.toContain('s3cret');
  });
});
