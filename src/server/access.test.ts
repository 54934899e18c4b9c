import { describe, expect, it } from 'vitest';
import { ProxyErrorBody } from '@/contract/proxy-api';
import { Diagnostics } from '@/contract/diagnostics-api';
import { json, startFakeUpstream } from '@/testing/fake-upstream';
import { manualClock, startStack } from '@/testing/stack';

describe('GET /api/diagnostics', () => {
  it('counts where answers departed from the documented schema, per path and kind', async () => {
    const upstream = await startFakeUpstream((_req, res) =>
      json(res, 200, {
        status: true,
        details: [
          {
            loadTrackExternalId: 1,
            stops: [],
            locations: [
              { lat: null, lon: '1' },
              { lat: '1', lon: '2', deviceTimeGmt: '2026-11-22 10:00:00' },
            ],
          },
          { loadTrackExternalId: 2, stops: [] },
        ],
      }),
    );
    const clock = manualClock();
    const stack = await startStack({ upstream: { baseUrl: upstream.url }, now: clock.now });
    try {
      await stack.post('/api/pull/by-external-id', { ids: ['1', '2'] });
      clock.advance(60_000); // past the fresh window, so the second request reaches the upstream
      await stack.post('/api/pull/by-external-id', { ids: ['1'] });
      const report = Diagnostics.parse(await (await fetch(`${stack.proxy.url}/api/diagnostics`)).json());
      expect(report.answersRead).toBe(2);
      const stops = report.entries.find((e) => e.path === 'details[].stops');
      expect(stops).toMatchObject({
        kind: 'unknown_field',
        count: 4,
        skipped: false,
        operation: 'external-id',
      });
      const lat = report.entries.find((e) => e.path === 'details[].locations[].lat');
      expect(lat).toMatchObject({ kind: 'null_where_required', count: 2, skipped: true });
    } finally {
      await stack.close();
      await upstream.close();
    }
  });
});

describe('POST /api/webhooks', () => {
  it('relays the upstream answer and Location, forwarding only a well-formed bearer token', async () => {
    const upstream = await startFakeUpstream((req, res) =>
      req.headers.authorization === 'Bearer good.token'
        ? json(
            res,
            201,
            {
              uuid: 'u-1',
              eventType: 'PdvRequestCompleted',
              clientUrl: 'https://x.example',
              isActive: true,
              createdAt: '2026-11-22T13:00:00.000Z',
            },
            { Location: '/api/v1/webhooks/u-1' },
          )
        : json(res, 401, { statusCode: 401, errors: [{ message: 'invalid token' }] }),
    );
    const stack = await startStack({ upstream: { baseUrl: upstream.url } });
    try {
      const body = { eventType: 'PdvRequestCompleted', clientUrl: 'https://x.example' };
      const created = await stack.post('/api/webhooks', body, { Authorization: 'Bearer good.token' });
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toBe('/api/v1/webhooks/u-1');
      expect(((await created.json()) as { uuid: string }).uuid).toBe('u-1');
      const refused = await stack.post('/api/webhooks', body, { Authorization: 'Basic dXNlcjpwdw==' });
      expect(refused.status).toBe(401);
      expect(upstream.seen[1]?.headers.authorization).toBeUndefined();
      // The token is never logged.
      expect(stack.logs.join('\n')).not.toContain('good.token');
      // Unknown fields are the proxy's own 400; values are the upstream's to judge.
      expect((await stack.post('/api/webhooks', { ...body, secret: 1 })).status).toBe(400);
      expect(upstream.seen).toHaveLength(2);
    } finally {
      await stack.close();
      await upstream.close();
    }
  });
});

describe('POST /api/webhooks, a created subscription that departs from its schema', () => {
  it('is relayed with its uuid found, and each departure is counted on /api/diagnostics', async () => {
    const answers = [
      // Wrapped one level deeper, an integer uuid, an address sent as an object.
      { body: { webhook: { uuid: 42, eventType: 'PdvRequestCompleted', clientUrl: { href: 'x' } } } },
      // No uuid at all but in the Location header.
      { body: { uuid: null, eventType: 'PdvRequestCompleted' }, location: '/api/v1/webhooks/w-7' },
      // Nothing names it: relayed as it came, recorded nowhere, counted as skipped.
      { body: { ok: true } },
    ];
    let call = 0;
    const upstream = await startFakeUpstream((_req, res) => {
      const { body, location } = answers[call++]!;
      json(res, 201, body, location ? { Location: location } : {});
    });
    const stack = await startStack({ upstream: { baseUrl: upstream.url } });
    try {
      const body = { eventType: 'PdvRequestCompleted', clientUrl: 'https://x.example' };
      const sent = async () => {
        const answer = await stack.post('/api/webhooks', body, { Authorization: 'Bearer good.token' });
        expect(answer.status).toBe(201);
        return (await answer.json()) as Record<string, unknown>;
      };
      expect(await sent()).toMatchObject({ uuid: '42', eventType: 'PdvRequestCompleted' });
      expect(await sent()).toMatchObject({ uuid: 'w-7' });
      expect(await sent()).toEqual({ ok: true });
      const report = Diagnostics.parse(await (await fetch(`${stack.proxy.url}/api/diagnostics`)).json());
      expect(report.answersRead).toBe(3);
      const of = report.entries
        .filter((e) => e.operation === 'create-webhook')
        .map((e) => [e.path, e.kind, e.skipped, e.keptItem ?? false]);
      expect(of).toEqual(
        expect.arrayContaining([
          ['webhook', 'wrapped_item', false, false],
          ['webhook.uuid', 'wrong_type', false, true],
          ['webhook.clientUrl', 'wrong_type', false, true],
          ['uuid', 'null_where_required', false, true],
          ['uuid', 'missing', true, false],
        ]),
      );
      expect(of).toHaveLength(5);
    } finally {
      await stack.close();
      await upstream.close();
    }
  });
});

describe('POST /api/webhooks, a client URL the service must not call', () => {
  it('refuses localhost, loopback and private-range addresses with a 400 naming clientUrl, without an upstream call', async () => {
    const upstream = await startFakeUpstream((_req, res) => json(res, 201, { uuid: 'u-1' }));
    const stack = await startStack({ upstream: { baseUrl: upstream.url } });
    try {
      for (const clientUrl of [
        'https://localhost/hooks',
        'https://app.localhost/hooks',
        'https://127.0.0.1/hooks',
        'https://127.1/hooks',
        'https://10.1.2.3/hooks',
        'https://172.16.0.1/hooks',
        'https://172.31.255.1/hooks',
        'https://192.168.1.10:8443/hooks',
        'https://169.254.169.254/latest',
        'https://[::1]/hooks',
        'https://[fd12:3456::1]/hooks',
        'https://[::ffff:10.0.0.1]/hooks',
      ]) {
        const answer = await stack.post(
          '/api/webhooks',
          { eventType: 'PdvRequestCompleted', clientUrl },
          { Authorization: 'Bearer good.token' },
        );
        expect(answer.status, clientUrl).toBe(400);
        const body = ProxyErrorBody.parse(await answer.json());
        expect(body.error.code).toBe('invalid_request');
        expect(body.error.details).toEqual([expect.objectContaining({ path: 'clientUrl' })]);
      }
      expect(upstream.seen).toHaveLength(0);
      // Public addresses, and private-looking ones outside the ranges, go to the service.
      for (const clientUrl of ['https://hooks.example.com/x', 'https://172.32.0.1/x', 'https://8.8.8.8/x']) {
        const answer = await stack.post(
          '/api/webhooks',
          { eventType: 'PdvRequestCompleted', clientUrl },
          { Authorization: 'Bearer good.token' },
        );
        expect(answer.status, clientUrl).toBe(201);
      }
      expect(upstream.seen).toHaveLength(3);
    } finally {
      await stack.close();
      await upstream.close();
    }
  });
});

describe('GET /api/diagnostics, the service’s state', () => {
  it('says the last success and error, a 429’s Retry-After while it lasts, and a pause after repeated failures', async () => {
    let answer: 'ok' | 'slow down' | 'fail' = 'ok';
    const upstream = await startFakeUpstream((_req, res) =>
      answer === 'ok'
        ? json(res, 200, { status: true, details: [] })
        : answer === 'slow down'
          ? json(res, 429, { message: 'slow down' }, { 'Retry-After': '30' })
          : json(res, 500, { message: 'boom' }),
    );
    const clock = manualClock();
    const stack = await startStack({ upstream: { baseUrl: upstream.url }, now: clock.now });
    const state = async () =>
      Diagnostics.parse(await (await fetch(`${stack.proxy.url}/api/diagnostics`)).json()).upstream!;
    const pull = (id: string) => stack.post('/api/pull/by-external-id', { ids: [id] });
    try {
      expect(await state()).toEqual({
        lastSuccessAt: null,
        lastError: null,
        rateLimited: null,
        consecutiveFailures: 0,
        pauseAfterFailures: 5,
        pausedUntil: null,
      });
      await pull('1');
      const okAt = new Date(clock.now()).toISOString();
      expect((await state()).lastSuccessAt).toBe(okAt);

      answer = 'slow down';
      clock.advance(60_000);
      expect((await pull('2')).status).toBe(429);
      const limited = await state();
      expect(limited.rateLimited).toEqual({
        retryAfterSeconds: 30,
        until: new Date(clock.now() + 30_000).toISOString(),
      });
      expect(limited.lastError).toMatchObject({ code: 'upstream_rate_limited' });
      expect(limited.lastSuccessAt).toBe(okAt);
      // Past its wait, it is no longer said.
      clock.advance(31_000);
      expect((await state()).rateLimited).toBeNull();

      answer = 'fail';
      for (let i = 0; i < 5; i++) {
        clock.advance(60_000);
        await pull(`f${i}`);
      }
      const paused = await state();
      expect(paused.consecutiveFailures).toBe(5);
      expect(paused.pausedUntil).toBe(new Date(clock.now() + 30_000).toISOString());
      expect(paused.lastError).toMatchObject({ code: 'upstream_error' });
      // A refusal while paused is the proxy's own: the last error stays the service's.
      expect((await pull('g')).status).toBe(503);
      expect((await state()).lastError).toMatchObject({ code: 'upstream_error' });
    } finally {
      await stack.close();
      await upstream.close();
    }
  });
});
