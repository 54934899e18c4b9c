import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PullErrorBody } from '@/contract/errors';
import { parsePullAnswer } from '@/contract/parse-pull';
import { manualClock, TEST_CREDENTIALS } from '@/testing/stack';
import { DEMO_JWT_SECRET } from './demo';
import { startSimulator, type RunningSimulator } from './start';
import { demoToken } from './webhooks';

const V2 = '/loadtrackservice/getLoadTrackDetailsServiceV2';
const BY_NUMBER = '/loadtrackservice/getLoadTrackDetailsServiceByLoadNumber';
const clock = manualClock();
let sim: RunningSimulator;

const options = { port: 0, seed: 11, loads: 20, speed: 60, ...TEST_CREDENTIALS };

beforeAll(async () => {
  sim = await startSimulator({ ...options, now: clock.now });
});
afterAll(() => sim.close());
beforeEach(() => sim.setFaults({}));

function call(path: string, body: Record<string, unknown>, signal?: AbortSignal, base = sim.url) {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...TEST_CREDENTIALS, ...body }),
    signal,
  });
}

const ids = (n = 3) => sim.fleet.slice(0, n).map((p) => String(p.externalId));

/** Loads whose phone is on and whose trip started, so a minute brings new pings. */
const rolling = () => sim.fleet.filter((p) => p.silentSince === undefined && p.departAt < clock.now());

async function locations(id: string, sendNewData: 'yes' | 'no'): Promise<number> {
  const response = await call(V2, { loadTrackExternalIds: [id], sendNewData });
  expect(response.status).toBe(200);
  const parsed = parsePullAnswer(await response.json());
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.data.details[0]?.locations?.length ?? -1;
}

describe('faults', () => {
  it('are off by default', async () => {
    for (let i = 0; i < 10; i++) {
      const response = await call(V2, { loadTrackExternalIds: ids(), sendNewData: 'no' });
      expect(response.status).toBe(200);
      expect('error' in parsePullAnswer(await response.json())).toBe(false);
    }
  });

  it('answer 500 in the 7.1 shape at an error rate of 1, on both pull operations', async () => {
    sim.setFaults({ errorRate: 1 });
    for (const path of [V2, BY_NUMBER]) {
      const response = await call(path, { loadTrackExternalIds: ids(), loadNumbers: [], sendNewData: 'no' });
      expect(response.status).toBe(500);
      const body = PullErrorBody.parse(await response.json());
      expect(body.status).toBe(false);
      expect(body.errorCode).toBe(500);
      expect(body.message).toBeTruthy();
    }
  });

  it('answer 429 with the configured Retry-After', async () => {
    sim.setFaults({ tooManyRequestsRate: 1, retryAfterSeconds: 7 });
    const response = await call(V2, { loadTrackExternalIds: ids(), sendNewData: 'no' });
    expect(response.status).toBe(429);
    expect(response.headers.get('Retry-After')).toBe('7');
    const body = PullErrorBody.parse(await response.json());
    expect(body.status).toBe(false);
    expect(body.errorCode).toBe(429);
  });

  it('hold the answer back by the added latency: a caller with a shorter deadline gets nothing', async () => {
    sim.setFaults({ latencyMs: 60_000 });
    await expect(
      call(V2, { loadTrackExternalIds: ids(), sendNewData: 'no' }, AbortSignal.timeout(200)),
    ).rejects.toThrow(/abort|timeout/i);
    // A short latency delays the answer but does not change it.
    sim.setFaults({ latencyMs: 20 });
    expect((await call(V2, { loadTrackExternalIds: ids(), sendNewData: 'no' })).status).toBe(200);
  });

  it('answer a 200 that is no JSON at all (a gateway page), without moving the cursor', async () => {
    const id = rolling()[0]!.externalId.toString();
    await locations(id, 'no');
    clock.advance(120_000);
    sim.setFaults({ invalidJsonRate: 1 });
    const response = await call(V2, { loadTrackExternalIds: [id], sendNewData: 'yes' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const text = await response.text();
    expect(() => JSON.parse(text) as unknown).toThrow();
    // The delta the page replaced is still there for the next call.
    sim.setFaults({});
    expect(await locations(id, 'yes')).toBeGreaterThan(0);
  });

  it('truncate a 200 to a strict prefix of its JSON that does not parse', async () => {
    const body = { loadTrackExternalIds: ids(5), sendNewData: 'no' };
    const whole = await (await call(V2, body)).text(); // the clock stands still: the same answer again
    sim.setFaults({ truncateRate: 1 });
    for (let i = 0; i < 3; i++) {
      const response = await call(V2, body);
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text.length).toBeGreaterThan(0);
      expect(text.length).toBeLessThan(whole.length);
      expect(whole.startsWith(text)).toBe(true);
      expect(() => JSON.parse(text) as unknown).toThrow();
    }
  });

  it('reset the connection after the cursor moved: the next delta misses what the lost answer held', async () => {
    const [lost, control] = rolling().map((p) => String(p.externalId));
    expect(lost && control).toBeTruthy();
    // Both cursors start at the same instant.
    await locations(lost!, 'no');
    await locations(control!, 'no');
    clock.advance(60_000); // an hour of driving at 60x: new pings on both loads
    sim.setFaults({ resetRate: 1 });
    await expect(call(V2, { loadTrackExternalIds: [lost!], sendNewData: 'yes' })).rejects.toThrow(
      /fetch failed/,
    );
    sim.setFaults({});
    const lostDelta = await locations(lost!, 'yes');
    const controlDelta = await locations(control!, 'yes');
    const all = await locations(lost!, 'no');
    expect(controlDelta).toBeGreaterThan(0); // what the lost load's delta would have held
    expect(lostDelta).toBe(0);
    expect(lostDelta).toBeLessThan(all);
  });

  it('answer a 200 whose envelope says status: false, with a message, without moving the cursor', async () => {
    const id = rolling()[1]!.externalId.toString();
    await locations(id, 'no');
    clock.advance(120_000);
    sim.setFaults({ statusFalseRate: 1 });
    const response = await call(V2, { loadTrackExternalIds: [id], sendNewData: 'yes' });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { status: unknown; message: unknown };
    expect(body.status).toBe(false);
    expect(body.message).toMatch(/simulated fault/);
    sim.setFaults({});
    expect(await locations(id, 'yes')).toBeGreaterThan(0);
  });

  it('hold a slow answer after the cursor moved: a caller with a shorter deadline loses that delta', async () => {
    const [lost, control] = rolling().map((p) => String(p.externalId));
    await locations(lost!, 'no');
    await locations(control!, 'no');
    clock.advance(120_000);
    sim.setFaults({ slowRate: 1, slowMs: 60_000 });
    await expect(
      call(V2, { loadTrackExternalIds: [lost!], sendNewData: 'yes' }, AbortSignal.timeout(200)),
    ).rejects.toThrow(/abort|timeout/i);
    sim.setFaults({});
    expect(await locations(control!, 'yes')).toBeGreaterThan(0);
    expect(await locations(lost!, 'yes')).toBe(0);
    // A short hold delays the answer but does not change it (the clock stands still: the same answer).
    const body = { loadTrackExternalIds: ids(), sendNewData: 'no' };
    const unheld = await (await call(V2, body)).text();
    sim.setFaults({ slowRate: 1, slowMs: 50 });
    const started = performance.now();
    const held = await call(V2, body);
    expect(held.status).toBe(200);
    expect(await held.text()).toBe(unheld);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('send an answer without end after the cursor moved: a valid start, then blanks, until the caller hangs up (1 GiB at most)', async () => {
    sim.setFaults({ oversizeRate: 1 });
    const controller = new AbortController();
    const response = await call(V2, { loadTrackExternalIds: ids(), sendNewData: 'no' }, controller.signal);
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let text = '';
    let bytes = 0;
    while (bytes < 4 * 2 ** 20) {
      const { value, done } = await reader.read();
      expect(done).toBe(false);
      bytes += value!.length;
      if (text.length < 64) text += new TextDecoder().decode(value!.slice(0, 64));
    }
    controller.abort();
    expect(text.startsWith('{"status":true,"details":[')).toBe(true);
    // The simulator goes on answering.
    sim.setFaults({});
    expect((await call(V2, { loadTrackExternalIds: ids(), sendNewData: 'no' })).status).toBe(200);
  });

  it('leave unsuccessful answers (401) and the other endpoints alone', async () => {
    sim.setFaults({ errorRate: 1, resetRate: 1, truncateRate: 1 });
    // 500 strikes before authentication, as a broken upstream would.
    expect((await call(V2, { accountId: 'wrong', loadTrackExternalIds: ids() })).status).toBe(500);
    sim.setFaults({ resetRate: 1, truncateRate: 1 });
    const unauthorized = await call(V2, { accountId: 'wrong', loadTrackExternalIds: ids() });
    expect(unauthorized.status).toBe(401);
    PullErrorBody.parse(await unauthorized.json());
    sim.setFaults({ errorRate: 1, tooManyRequestsRate: 1, resetRate: 1, truncateRate: 1, latencyMs: 60_000 });
    const webhook = await fetch(`${sim.url}/api/v1/webhooks`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${await demoToken(DEMO_JWT_SECRET, clock.now())}`,
      },
      body: JSON.stringify({ eventType: 'PdvRequestCompleted', clientUrl: 'https://tms.example.com/f' }),
    });
    expect(webhook.status).toBe(201);
    expect((await fetch(`${sim.url}/_sim/fleet`)).status).toBe(200);
  });

  it('refuse settings out of range', () => {
    expect(() => sim.setFaults({ errorRate: 1.5 })).toThrow();
    expect(() => sim.setFaults({ latencyMs: -1 })).toThrow();
    expect(() => sim.setFaults({ resetRate: Number.NaN })).toThrow();
  });
});

describe('fault draws', () => {
  const settings = { errorRate: 0.4, tooManyRequestsRate: 0.2, retryAfterSeconds: 1 };

  async function statuses(base: string, n = 24): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < n; i++)
      out.push((await call(V2, { loadTrackExternalIds: ids(1), sendNewData: 'no' }, undefined, base)).status);
    return out;
  }

  it('repeat for the same seed and settings, and restart when the settings are set again', async () => {
    const twin = await startSimulator({ ...options, now: clock.now, faults: settings });
    try {
      sim.setFaults(settings);
      const first = await statuses(sim.url);
      expect(new Set(first)).toEqual(new Set([200, 429, 500])); // a mix, not all or nothing
      expect(await statuses(twin.url)).toEqual(first); // set at start or at runtime alike
      sim.setFaults(settings);
      expect(await statuses(sim.url)).toEqual(first);
    } finally {
      await twin.close();
    }
  });

  it('differ for another seed', async () => {
    const other = await startSimulator({ ...options, seed: 12, now: clock.now, faults: settings });
    try {
      sim.setFaults(settings);
      expect(await statuses(other.url)).not.toEqual(await statuses(sim.url));
    } finally {
      await other.close();
    }
  });
});
