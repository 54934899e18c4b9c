import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PullErrorBody } from '@/contract/errors';
import { LoadDetail } from '@/contract/load-detail';
import { parsePullAnswer } from '@/contract/parse-pull';
import { parseLocalTimestamp, parseGmtTimestamp } from '@/domain/time';
import { manualClock, TEST_CREDENTIALS } from '@/testing/stack';
import { generateFleet } from './fleet';
import { startSimulator, type RunningSimulator } from './start';

const clock = manualClock();
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({
    port: 0,
    seed: 11,
    loads: 30,
    speed: 60,
    ...TEST_CREDENTIALS,
    jwtSecret: 'app-test-secret-of-32-characters',
    now: clock.now,
  });
});
afterAll(() => sim.close());

const V2 = '/loadtrackservice/getLoadTrackDetailsServiceV2';
const BY_NUMBER = '/loadtrackservice/getLoadTrackDetailsServiceByLoadNumber';

function call(path: string, body: unknown) {
  return fetch(`${sim.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function pull(path: string, body: Record<string, unknown>) {
  const response = await call(path, { ...TEST_CREDENTIALS, ...body });
  expect(response.status).toBe(200);
  const json = (await response.json()) as unknown;
  const parsed = parsePullAnswer(json);
  if ('error' in parsed) throw new Error(parsed.error);
  return { json: json as { details: Record<string, unknown>[]; timeStamp: string }, ...parsed };
}

const rolling = () =>
  sim.fleet.filter((p) => p.silentSince === undefined && p.departAt < clock.now()).slice(0, 3);

describe('simulator pull by external id', () => {
  it('answers in the documented shapes, with integer ids and every kind of item', async () => {
    const ids = sim.fleet.map((p) => String(p.externalId));
    const { json, data, issues } = await pull(V2, { loadTrackExternalIds: ids, sendNewData: 'no' });
    expect(parseLocalTimestamp(json.timeStamp)?.zone).toBe('UTC');
    expect(data.details).toHaveLength(sim.fleet.length);
    expect(typeof json.details[0]?.loadTrackExternalId).toBe('number');
    // Only the undocumented stops are noted; nothing is skipped.
    expect(issues.filter((i) => i.skipped)).toEqual([]);
    expect(new Set(issues.map((i) => i.path.replace(/^details\[\d+\]\./, '')))).toEqual(new Set(['stops']));
    for (const detail of json.details) expect(LoadDetail.safeParse(detail).success).toBe(true);
    const all = data.details;
    expect(all.some((d) => (d.locations?.length ?? 0) > 0)).toBe(true);
    expect(all.some((d) => (d.events?.length ?? 0) > 0)).toBe(true);
    expect(all.some((d) => (d.documents?.length ?? 0) > 0)).toBe(true);
    expect(all.some((d) => (d.temperatures?.length ?? 0) > 0 && d.latestTemperature)).toBe(true);
    const ping = all.flatMap((d) => d.locations ?? [])[0];
    expect(parseGmtTimestamp(ping?.deviceTimeGmt ?? '')).toBeDefined();
    expect(parseLocalTimestamp(ping?.timestamp ?? '')?.zoneKnown).toBe(true);
  });

  it('leaves unknown ids out of details', async () => {
    const { data } = await pull(V2, {
      loadTrackExternalIds: ['no-such-load', String(sim.fleet[0]?.externalId)],
    });
    expect(data.details.map((d) => d.loadTrackExternalId)).toEqual([String(sim.fleet[0]?.externalId)]);
  });

  it('suppresses the lists whose include flag is false, but keeps the latest location and status', async () => {
    const plan = rolling()[0]!;
    const { json } = await pull(V2, {
      loadTrackExternalIds: [String(plan.externalId)],
      includeLocations: false,
      includeEvents: false,
      includeDocuments: false,
      includeComments: false,
    });
    const detail = json.details[0]!;
    expect(detail.locations).toBeUndefined();
    expect(detail.events).toBeUndefined();
    expect(detail.documents).toBeUndefined();
    expect(detail.comments).toBeUndefined();
    expect(detail.latestLocation).toBeDefined();
    expect(detail.latestStatus).toBeDefined();
  });
});

describe('sendNewData', () => {
  it('returns only what is new since the same partner asked for that load, and moves the cursor every time', async () => {
    const plan = rolling()[1]!;
    const ids = [String(plan.externalId)];
    const full = await pull(V2, { loadTrackExternalIds: ids, sendNewData: 'no' });
    const before = full.data.details[0]?.locations?.length ?? 0;
    expect(before).toBeGreaterThan(0);
    const none = await pull(V2, { loadTrackExternalIds: ids, sendNewData: 'yes' });
    expect(none.data.details[0]?.locations).toEqual([]);
    expect(none.data.details[0]?.latestLocation).toBeDefined();
    clock.advance(60_000); // one real minute: an hour of driving at 60x
    const delta = await pull(V2, { loadTrackExternalIds: ids, sendNewData: 'yes' });
    const fresh = delta.data.details[0]?.locations ?? [];
    expect(fresh.length).toBeGreaterThan(0);
    const again = await pull(V2, { loadTrackExternalIds: ids, sendNewData: 'no' });
    expect(again.data.details[0]?.locations?.length).toBe(before + fresh.length);
  });
});

describe('by load number', () => {
  it('reads loadNumbers, and load numbers sent under loadTrackExternalIds too', async () => {
    const [a, b] = sim.fleet;
    const { json } = await pull(BY_NUMBER, {
      loadNumbers: [a!.loadNumber],
      loadTrackExternalIds: [b!.loadNumber],
    });
    expect(json.details.map((d) => d.loadNumber)).toEqual([a!.loadNumber, b!.loadNumber]);
    expect(json.details.every((d) => d.latestTemperature === undefined && d.temperatures === undefined)).toBe(
      true,
    );
    expect(json.details.every((d) => typeof d.ltExternalId === 'number')).toBe(true);
  });
});

describe('errors', () => {
  it('answers 401 with the 7.1 body for a wrong partner or account', async () => {
    for (const creds of [
      { ...TEST_CREDENTIALS, accountId: 'wrong' },
      { ...TEST_CREDENTIALS, partnerId: 1 },
      {},
    ]) {
      const response = await call(V2, { ...creds, loadTrackExternalIds: ['1'] });
      expect(response.status).toBe(401);
      const body = PullErrorBody.parse(await response.json());
      expect(body.status).toBe(false);
      expect(body.message).toBeTruthy();
      expect(typeof body.errorCode).toBe('number');
    }
  });

  it('answers 400 with a clear message for malformed JSON or a missing id list', async () => {
    const bad = await call(V2, '{"partnerId": ');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/not valid JSON/);
    const missing = await call(V2, { ...TEST_CREDENTIALS });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { message: string }).message).toMatch(
      /loadTrackExternalIds is required/,
    );
  });
});

describe('fleet', () => {
  it('is the same for the same seed, and different for another', () => {
    const options = { seed: 5, loads: 20, speed: 60, startedAt: 0 };
    expect(generateFleet(options)).toEqual(generateFleet(options));
    expect(generateFleet({ ...options, seed: 6 })).not.toEqual(generateFleet(options));
  });
});

describe('device-local timestamps', () => {
  it('carry the zone abbreviation of where the device was, with daylight saving right', async () => {
    const { stamps } = await import('./track');
    // 2026-03-08: US daylight saving starts at 02:00 local.
    expect(stamps(Date.parse('2026-03-08T06:59:30Z'), 'America/New_York').timestampSec).toBe(
      '03/08/2026 01:59:30 EST',
    );
    expect(stamps(Date.parse('2026-03-08T07:59:30Z'), 'America/Chicago').timestampSec).toBe(
      '03/08/2026 01:59:30 CST',
    );
    expect(stamps(Date.parse('2026-03-08T08:00:30Z'), 'America/Chicago').timestampSec).toBe(
      '03/08/2026 03:00:30 CDT',
    );
    expect(stamps(Date.parse('2026-03-08T07:00:00Z'), 'America/New_York').timestamp).toBe(
      '03/08/2026 03:00 EDT',
    );
    expect(stamps(Date.parse('2026-07-01T12:00:00Z'), 'America/Phoenix').timestamp).toBe(
      '07/01/2026 05:00 MST',
    );
    expect(stamps(Date.parse('2026-11-01T05:59:59Z'), 'America/New_York').timestampSec).toBe(
      '11/01/2026 01:59:59 EDT',
    );
    expect(stamps(Date.parse('2026-11-01T06:00:00Z'), 'America/New_York').timestampSec).toBe(
      '11/01/2026 01:00:00 EST',
    );
    expect(stamps(Date.parse('2026-01-15T12:00:00Z'), 'America/Halifax').timestampUTC).toBe(
      '01/15/2026 12:00:00 UTC',
    );
    expect(stamps(Date.parse('2026-01-15T12:00:00Z'), 'America/Halifax').timestamp).toBe(
      '01/15/2026 08:00 AST',
    );
  });
});
