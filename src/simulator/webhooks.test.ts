import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookErrorBody } from '@/contract/errors';
import { Webhook } from '@/contract/webhook';
import { manualClock, TEST_CREDENTIALS } from '@/testing/stack';
import { startSimulator, type RunningSimulator } from './start';
import { demoToken, WEBHOOK_APP_NAME } from './webhooks';

const SECRET = 'webhook-test-secret-of-32-characters';
const clock = manualClock();
let sim: RunningSimulator;
let token: string;

beforeAll(async () => {
  sim = await startSimulator({
    port: 0,
    seed: 3,
    loads: 2,
    speed: 60,
    ...TEST_CREDENTIALS,
    jwtSecret: SECRET,
    now: clock.now,
  });
  token = await demoToken(SECRET, clock.now());
});
afterAll(() => sim.close());

const HOUR = 60 * 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let hooks = 0;
/** A clientUrl no other test has used, so tests do not collide on the 409. */
const freshUrl = () => `https://tms.example.com/hooks/${++hooks}`;

function create(body: unknown, authorization: string | null = `Bearer ${token}`) {
  return fetch(`${sim.url}/api/v1/webhooks`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(authorization === null ? {} : { Authorization: authorization }),
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Checks the 7.2 body against the contract and returns its entries. */
async function errorsOf(response: Response, status: number) {
  expect(response.status).toBe(status);
  expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
  const body = WebhookErrorBody.parse(await response.json());
  expect(body.statusCode).toBe(status);
  expect(body.errors.length).toBeGreaterThan(0);
  for (const entry of body.errors) {
    expect(entry.appName).toBe(WEBHOOK_APP_NAME);
    expect(entry.dateTime).toBe(new Date(clock.now()).toISOString());
    expect(entry.message).toBeTruthy();
    expect(entry.keyword).toBeTruthy();
  }
  return body.errors;
}

describe('creating a webhook', () => {
  it('answers 201 with the 2.7 body and a Location naming the new webhook', async () => {
    const clientUrl = freshUrl();
    const response = await create({ eventType: 'PdvRequestCompleted', clientUrl });
    expect(response.status).toBe(201);
    const raw = (await response.json()) as Record<string, unknown>;
    const webhook = Webhook.parse(raw);
    expect(webhook.uuid).toMatch(UUID);
    expect(response.headers.get('Location')).toBe(`/api/v1/webhooks/${webhook.uuid}`);
    expect(raw).toEqual({
      uuid: webhook.uuid,
      eventType: 'PdvRequestCompleted',
      clientUrl,
      isActive: true,
      createdAt: new Date(clock.now()).toISOString(),
    });
    // ISO 8601 UTC with milliseconds, as 2.7 says.
    expect(raw.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('gives each webhook its own uuid', async () => {
    const a = Webhook.parse(
      await (await create({ eventType: 'PdvRequestCompleted', clientUrl: freshUrl() })).json(),
    );
    const b = Webhook.parse(
      await (await create({ eventType: 'PdvRequestCompleted', clientUrl: freshUrl() })).json(),
    );
    expect(a.uuid).not.toBe(b.uuid);
  });

  it('answers 409 when a webhook exists for the same event type and URL, even written differently', async () => {
    const clientUrl = freshUrl();
    expect((await create({ eventType: 'PdvRequestCompleted', clientUrl })).status).toBe(201);
    const again = await errorsOf(await create({ eventType: 'PdvRequestCompleted', clientUrl }), 409);
    expect(again[0]?.params?.field).toBe('clientUrl');
    const sameAddress = clientUrl.replace('tms.example.com', 'TMS.example.com:443');
    await errorsOf(await create({ eventType: 'PdvRequestCompleted', clientUrl: sameAddress }), 409);
    // Another address is another webhook.
    expect((await create({ eventType: 'PdvRequestCompleted', clientUrl: `${clientUrl}/other` })).status).toBe(
      201,
    );
  });
});

describe('the bearer token', () => {
  const body = () => ({ eventType: 'PdvRequestCompleted', clientUrl: freshUrl() });

  it('answers 401 in the 7.2 shape when the token is missing, malformed, or signed with another secret', async () => {
    const foreign = await demoToken('some-other-secret-of-32-characters', clock.now());
    for (const authorization of [
      null,
      '',
      'Bearer',
      `Basic ${token}`,
      'Bearer not.a.jwt',
      `Bearer ${foreign}`,
    ]) {
      const response = await create(body(), authorization);
      const errors = await errorsOf(response, 401);
      expect(errors[0]?.message, String(authorization)).toMatch(/token/);
      expect(response.headers.get('WWW-Authenticate')).toMatch(/^Bearer/);
    }
  });

  it('answers 401 for a token without an expiry, or with another algorithm', async () => {
    const key = new TextEncoder().encode(SECRET);
    const noExp = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).sign(key);
    const hs512 = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS512' })
      .setExpirationTime('1h')
      .sign(key);
    for (const t of [noExp, hs512]) await errorsOf(await create(body(), `Bearer ${t}`), 401);
  });

  it('accepts a demo token for 24 hours and says when it has expired', async () => {
    const issuedAt = clock.now();
    const demo = await demoToken(SECRET, issuedAt);
    const claims = decodeJwt(demo);
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(24 * 60 * 60);
    try {
      clock.set(issuedAt + 23 * HOUR);
      expect((await create(body(), `Bearer ${demo}`)).status).toBe(201);
      clock.set(issuedAt + 24 * HOUR + 1000);
      const errors = await errorsOf(await create(body(), `Bearer ${demo}`), 401);
      expect(errors[0]?.message).toMatch(/expired/);
    } finally {
      clock.set(issuedAt);
    }
  });

  it('is checked before the body, so a caller without a token learns nothing of its request', async () => {
    await errorsOf(await create('{"eventType": ', null), 401);
    await errorsOf(await create({ eventType: 'Nope' }, 'Bearer x'), 401);
  });
});

describe('a bad request', () => {
  it('answers 400 when the body is not JSON, or not a JSON object', async () => {
    for (const raw of ['{"eventType": ', '', 'null', '[]', '"PdvRequestCompleted"', '42']) {
      const errors = await errorsOf(await create(raw), 400);
      expect(errors[0]?.message, raw).toMatch(/JSON/);
    }
  });

  it('answers 422 with keyword enum, the field and its allowed values for an unknown eventType', async () => {
    for (const eventType of ['PdvRequestStarted', 'pdvrequestcompleted', 7, null]) {
      const errors = await errorsOf(await create({ eventType, clientUrl: freshUrl() }), 422);
      expect(errors).toHaveLength(1);
      expect(errors[0]?.keyword).toBe('enum');
      expect(errors[0]?.params).toEqual({ field: 'eventType', allowedValues: ['PdvRequestCompleted'] });
    }
  });

  it('answers 422 naming clientUrl when it is not a valid https URL', async () => {
    for (const clientUrl of [
      'http://tms.example.com/hooks',
      'not a url',
      '',
      '   ',
      42,
      'ftp://tms.example.com',
    ]) {
      const errors = await errorsOf(await create({ eventType: 'PdvRequestCompleted', clientUrl }), 422);
      expect(errors).toHaveLength(1);
      expect(errors[0]?.keyword).toBe('format');
      expect(errors[0]?.params?.field).toBe('clientUrl');
    }
  });

  it('answers 422 with keyword required for each missing field', async () => {
    const errors = await errorsOf(await create({}), 422);
    expect(errors.map((e) => [e.keyword, e.params?.field])).toEqual([
      ['required', 'eventType'],
      ['required', 'clientUrl'],
    ]);
    expect(errors[0]?.params?.allowedValues).toEqual(['PdvRequestCompleted']);
  });

  it('answers 422 naming an unknown field, and reports every problem of one request', async () => {
    const errors = await errorsOf(
      await create({ eventType: 'Other', clientUrl: 'http://x.example.com', isActive: false }),
      422,
    );
    expect(errors.map((e) => [e.keyword, e.params?.field]).sort()).toEqual([
      ['additionalProperties', 'isActive'],
      ['enum', 'eventType'],
      ['format', 'clientUrl'],
    ]);
  });

  it('creates nothing, so the corrected request then succeeds', async () => {
    const clientUrl = freshUrl();
    await errorsOf(await create({ eventType: 'PdvRequestCompleted', clientUrl, extra: 1 }), 422);
    expect((await create({ eventType: 'PdvRequestCompleted', clientUrl })).status).toBe(201);
  });
});
