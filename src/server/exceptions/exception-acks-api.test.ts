import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxyErrorBody } from '@/contract/proxy-api';
import { ExceptionAck, ExceptionAcksAnswer } from '@/contract/exceptions-api';
import { loginAs } from '@/testing/login';
import { manualClock, startStack, type Stack } from '@/testing/stack';
import { openMigratedTestStore, STORE_KINDS } from '@/testing/test-store';
import { emptyLoad } from '@/testing/loads';
import { createAlertEngine } from '../alerts/alert-engine';
import type { Store } from '../store/store';

const errorOf = async (response: Response) => ProxyErrorBody.parse(await response.json()).error;

describe.each(STORE_KINDS)('/api/exceptions/acks, on %s', (kind) => {
  const clock = manualClock();
  let store: Store;
  let close: () => Promise<void>;
  let stack: Stack;
  let ana: { name: string; cookie: string };
  let ops: { name: string; cookie: string };
  beforeAll(async () => {
    ({ store, close } = await openMigratedTestStore(kind));
    stack = await startStack({ store, now: clock.now });
    ana = await loginAs(stack, store.db, 'dispatcher', 'Ana');
    ops = await loginAs(stack, store.db, 'broker', 'Ops');
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await close?.();
  });

  const send = (method: 'GET' | 'PUT', cookie: string, body?: unknown) =>
    fetch(`${stack.proxy.url}/api/exceptions/acks`, {
      method,
      headers: { Cookie: cookie, 'X-Requested-With': 'haulview', 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  const act = async (cookie: string, body: unknown) => {
    const response = await send('PUT', cookie, body);
    expect(response.status, await response.clone().text()).toBe(200);
    return ExceptionAck.parse(await response.json());
  };
  const list = async (cookie: string) =>
    ExceptionAcksAnswer.parse(await (await send('GET', cookie)).json()).acks;

  it('a dispatcher snoozes a load’s exception by the proxy’s clock; every user reads it', async () => {
    const ack = await act(ana.cookie, {
      load: 'e:9001',
      kind: 'dark-moving',
      action: 'snooze',
      minutes: 30,
      note: 'driver in a dead zone, calls back at 3',
    });
    expect(ack).toMatchObject({
      load: 'e:9001',
      kind: 'dark-moving',
      state: 'snoozed',
      until: new Date(clock.now() + 30 * 60_000).toISOString(),
      occurrence: null,
      note: 'driver in a dead zone, calls back at 3',
      by: 'Ana',
      version: 1,
    });
    expect(await list(ops.cookie)).toEqual([ack]);
  });

  it('another action on the same load and kind replaces it and counts the version; clear hides it', async () => {
    const acked = await act(ops.cookie, {
      load: 'e:9001',
      kind: 'dark-moving',
      action: 'acknowledge',
      occurrence: 'ping 1764000000000',
    });
    expect(acked).toMatchObject({
      state: 'acknowledged',
      until: null,
      occurrence: 'ping 1764000000000',
      note: null,
      by: 'Ops',
      version: 2,
    });
    // Another kind of the same load is a row of its own.
    const late = await act(ana.cookie, {
      load: 'e:9001',
      kind: 'late',
      action: 'acknowledge',
      occurrence: 'stop 2',
    });
    expect(late.version).toBe(1);
    expect((await list(ana.cookie)).map((a) => [a.kind, a.state])).toEqual([
      ['late', 'acknowledged'],
      ['dark-moving', 'acknowledged'],
    ]);
    const cleared = await act(ana.cookie, { load: 'e:9001', kind: 'dark-moving', action: 'clear' });
    expect(cleared).toMatchObject({ state: 'cleared', until: null, version: 3, by: 'Ana' });
    expect((await list(ops.cookie)).map((a) => a.kind)).toEqual(['late']);
  });

  it('audits each action with the user, the load, the kind and the minutes', async () => {
    const rows = await store.db
      .selectFrom('audit_log')
      .select(['actor', 'action', 'details'])
      .where('action', 'like', 'exception.%')
      .where('subject', '=', 'e:9001')
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      {
        actor: 'Ana',
        action: 'exception.snooze',
        details: {
          kind: 'dark-moving',
          occurrence: null,
          minutes: 30,
          note: 'driver in a dead zone, calls back at 3',
        },
      },
      {
        actor: 'Ops',
        action: 'exception.acknowledge',
        details: { kind: 'dark-moving', occurrence: 'ping 1764000000000' },
      },
      { actor: 'Ana', action: 'exception.acknowledge', details: { kind: 'late', occurrence: 'stop 2' } },
      { actor: 'Ana', action: 'exception.clear', details: { kind: 'dark-moving', occurrence: null } },
    ]);
  });

  it('two actions on one new exception at once: one row, both versions, both audited', async () => {
    const answers = await Promise.all([
      act(ana.cookie, { load: 'n:RACE 1', kind: 'stale', action: 'snooze', minutes: 120 }),
      act(ops.cookie, { load: 'n:RACE 1', kind: 'stale', action: 'acknowledge', occurrence: 'ping 5' }),
    ]);
    expect(answers.map((a) => a.version).sort()).toEqual([1, 2]);
    const later = answers.find((a) => a.version === 2);
    expect((await list(ana.cookie)).filter((a) => a.load === 'n:RACE 1')).toEqual([later]);
  });

  it('refuses every malformed body with a 400 naming the field, and stores nothing', async () => {
    const ok = { load: 'e:7777', kind: 'late', action: 'snooze', minutes: 30 };
    const cases: [unknown, string][] = [
      [{ ...ok, minutes: undefined }, 'minutes'],
      [{ ...ok, minutes: 0 }, 'minutes'],
      [{ ...ok, minutes: -30 }, 'minutes'],
      [{ ...ok, minutes: 1.5 }, 'minutes'],
      [{ ...ok, minutes: '30' }, 'minutes'],
      [{ ...ok, minutes: 7 * 24 * 60 + 1 }, 'minutes'],
      [{ ...ok, action: 'acknowledge', occurrence: 'stop 1' }, 'minutes'],
      [{ ...ok, action: 'acknowledge', minutes: undefined }, 'occurrence'],
      [{ ...ok, occurrence: '' }, 'occurrence'],
      [{ ...ok, occurrence: 'x'.repeat(121) }, 'occurrence'],
      [{ ...ok, action: 'forget' }, 'action'],
      [{ ...ok, kind: 'excursion' }, 'kind'],
      [{ ...ok, kind: undefined }, 'kind'],
      [{ ...ok, load: '9001' }, 'load'],
      [{ ...ok, load: 'x:9001' }, 'load'],
      [{ ...ok, note: 'n'.repeat(501) }, 'note'],
      [{ ...ok, note: 7 }, 'note'],
      // PostgreSQL keeps no NUL in a text: said of the field, not as the store being down.
      [{ ...ok, note: 'a\u0000b' }, 'note'],
      [{ ...ok, by: 'Bo' }, 'by'],
      [{ ...ok, until: '2099-01-01T00:00:00Z' }, 'until'],
      [[ok], '(body)'],
    ];
    for (const [body, field] of cases) {
      const response = await send('PUT', ana.cookie, body);
      const label = JSON.stringify(body).slice(0, 120);
      expect(response.status, label).toBe(400);
      expect(JSON.stringify((await errorOf(response)).details), label).toContain(`"${field}"`);
    }
    // The six characters \u0000 typed as text are no NUL.
    const typed = await act(ana.cookie, { ...ok, load: 'e:7778', note: 'see C:\\u0000.txt' });
    expect(typed.note).toBe('see C:\\u0000.txt');
    const notJson = await send('PUT', ana.cookie, '{"load":');
    expect(notJson.status).toBe(400);
    expect((await list(ana.cookie)).map((a) => a.load)).not.toContain('e:7777');
  });

  it('an acknowledgement ends when the server sees its exception end: late, at risk, late again comes back', async () => {
    const thresholds = { staleAfterMinutes: 30, silentAfterMinutes: 120 };
    const withStatus = (status: 'late' | 'at-risk') =>
      emptyLoad('LATE1', 'load-number', {
        outlook: {
          asOf: clock.now(),
          stops: [{ order: 2, progress: 'upcoming', status, lateMinutes: status === 'late' ? 20 : -10 }],
        },
      });
    let load = withStatus('late');
    const engine = createAlertEngine({
      db: store.db,
      loads: () => [load],
      now: clock.now,
      thresholds,
      log: () => {},
    });
    const late = { load: 'n:LATE1', kind: 'late', action: 'acknowledge', occurrence: 'stop 2' };
    await act(ana.cookie, late);
    // A snooze of another load is the user's to end, whatever its load does.
    await act(ana.cookie, { load: 'n:LATE1', kind: 'at-risk', action: 'snooze', minutes: 120 });
    const held = async () => (await list(ops.cookie)).filter((a) => a.load === 'n:LATE1').map((a) => a.kind);

    expect(await engine.endAcks()).toBe(0);
    expect(await held()).toEqual(['at-risk', 'late']);
    load = withStatus('at-risk');
    expect(await engine.endAcks()).toBe(1);
    expect(await held()).toEqual(['at-risk']);
    // Late again at the same stop: a new exception, which the old acknowledgement does not hide.
    load = withStatus('late');
    expect(await engine.endAcks()).toBe(0);
    expect(await held()).toEqual(['at-risk']);
    // Acknowledged again, it holds again.
    const again = await act(ops.cookie, late);
    expect(again).toMatchObject({ state: 'acknowledged', by: 'Ops' });
    expect(await engine.endAcks()).toBe(0);
    expect(await held()).toEqual(['late', 'at-risk']);
    // A load the server does not hold is not judged: its acknowledgement stays.
    load = emptyLoad('OTHER', 'load-number');
    expect(await engine.endAcks()).toBe(0);
    expect(await held()).toEqual(['late', 'at-risk']);
  });

  it('asks for a session and the same-origin header', async () => {
    expect((await send('GET', '')).status).toBe(401);
    const noHeader = await fetch(`${stack.proxy.url}/api/exceptions/acks`, {
      method: 'PUT',
      headers: { Cookie: ana.cookie, 'Content-Type': 'application/json' },
      body: JSON.stringify({ load: 'e:1', kind: 'late', action: 'clear' }),
    });
    expect(noHeader.status).toBe(403);
  });
});
