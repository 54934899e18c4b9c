import { describe, expect, it } from 'vitest';
import type { LoadDetailWire } from '@/contract/load-detail';
import type { LoadViewWire } from '@/contract/load-view';
import { parsePullAnswer, unreadDetails, type Parsed, type PullAnswer } from '@/contract/parse-pull';
import type { ParseIssue } from '@/contract/parse-issue';
import type { LoadBy } from '@/domain/model';
import { ProxyError } from './errors';
import type { TripStops } from '@/domain/trip-stops';
import { createTrackCache, TOO_LARGE_TRIES, type TrackCacheOptions } from './track-cache';

/**
 * A scripted upstream: each load has pings; `sendNewData: yes` returns only pings added since the
 * previous call for that load, as the real service does.
 */
function upstream() {
  const pings = new Map<
    string,
    { lat: string; lon: string; deviceTimeGmt: string; accuracy: number; timestamp: string }[]
  >();
  const cursor = new Map<string, number>();
  const calls: { ids: string[]; mode: 'yes' | 'no' }[] = [];
  let fail: Error | undefined;
  const minute = (n: number) => `2026-11-22 10:${String(n).padStart(2, '0')}:00`;
  return {
    calls,
    addPing(id: string) {
      const list = pings.get(id) ?? [];
      list.push({
        lat: '41.1',
        lon: String(-90 - list.length / 100),
        deviceTimeGmt: minute(list.length),
        accuracy: 10,
        timestamp: '11/22/2026 04:00 CST',
      });
      pings.set(id, list);
    },
    failNext(error: Error) {
      fail = error;
    },
    pull: async (_by: LoadBy, ids: string[], mode: 'yes' | 'no'): Promise<Parsed<PullAnswer>> => {
      calls.push({ ids, mode });
      const details: LoadDetailWire[] = [];
      for (const id of ids) {
        const list = pings.get(id);
        if (!list) continue;
        const from = mode === 'yes' ? (cursor.get(id) ?? 0) : 0;
        cursor.set(id, list.length);
        const last = list[list.length - 1];
        details.push({
          loadTrackExternalId: Number(id),
          latestLocation: last && {
            ...last,
            timestampUTC: `11/22/2026 ${last.deviceTimeGmt.slice(11)} UTC`,
            city: 'X',
            state: 'Y',
            country: 'US',
          },
          locations: list.slice(from),
          stops: [{ stopOrderNumber: 1 }],
        } as LoadDetailWire);
      }
      if (fail) {
        const error = fail;
        fail = undefined;
        throw error; // after the cursor moved: the delta is lost unless the cache pulls in full
      }
      const parsed = parsePullAnswer({ status: true, timeStamp: '11/22/2026 10:00:00 UTC', details });
      if ('error' in parsed) throw new Error(parsed.error);
      return parsed;
    },
  };
}

function cache(u: ReturnType<typeof upstream>, clock: { t: number }, extra: Partial<TrackCacheOptions> = {}) {
  return createTrackCache({
    pull: u.pull,
    chunkSize: 2,
    maxInFlight: 4,
    freshMs: 1000,
    resyncMs: 600_000,
    maxLoads: 100,
    now: () => clock.t,
    ...extra,
  });
}

/**
 * A cache whose upstream answers with these details (one call, by external id), and with each of
 * `later` in turn on the calls after (the last one again after that).
 */
function answering(details: unknown[], later: unknown[][] = [], now?: () => number) {
  const answers = [details, ...later];
  let call = 0;
  return createTrackCache({
    pull: async () => {
      const parsed = parsePullAnswer({
        status: true,
        timeStamp: '11/22/2026 10:00:00 UTC',
        details: answers[Math.min(call++, answers.length - 1)],
      });
      if ('error' in parsed) throw new Error(parsed.error);
      return parsed;
    },
    chunkSize: 2,
    maxInFlight: 1,
    freshMs: 1000,
    resyncMs: 600_000,
    maxLoads: 10,
    ...(now ? { now } : {}),
  });
}

const pingCount = (d: LoadViewWire | undefined) => d?.pings?.length ?? 0;

describe('track cache', () => {
  it('pulls a chunk too large again in halves, in full; the load too large alone is behind, then retried and whole', async () => {
    const u = upstream();
    const clock = { t: 0 };
    let tooLarge = false;
    const noted: string[] = [];
    const c = cache(u, clock, {
      // Load 1's answer is too large while `tooLarge` is set; refused after its cursor moved, as a
      // body cut off at the cap is.
      pull: async (by, ids, mode) => {
        const answer = await u.pull(by, ids, mode);
        if (tooLarge && ids.includes('1'))
          throw new ProxyError(502, 'upstream_too_large', "the upstream's answer is larger than 100 bytes");
        return answer;
      },
      onTooLarge: (_by, id, note) => noted.push(`${id}: ${note.kind}`),
    });
    for (const id of ['1', '2']) u.addPing(id);
    await c.get('external-id', ['1', '2'], undefined, undefined);
    for (const id of ['1', '2']) u.addPing(id);
    tooLarge = true;
    clock.t += 1000;
    const served = await c.get('external-id', ['1', '2'], undefined, undefined);
    // The refused delta moved both cursors: the halves are pulled in full, so load 2 loses nothing.
    expect(u.calls.slice(1)).toEqual([
      { ids: ['1', '2'], mode: 'yes' },
      { ids: ['1'], mode: 'no' },
      { ids: ['2'], mode: 'no' },
    ]);
    const [one, two] = served.loads;
    expect(pingCount(two)).toBe(2);
    // Load 1 keeps what it had, and says it is behind; a passing burst is not reported.
    expect(pingCount(one)).toBe(1);
    expect(one?.issues?.map((i) => [i.kind, i.skipped])).toEqual([
      ['too_large', false],
      ['unknown_field', false],
    ]);
    expect(one?.issues?.[0]?.message).toMatch(/tried again at the next refresh/);
    expect(served.missing).toEqual([]);
    expect(noted).toEqual([]);

    // At the next refresh it is tried again, alone and in full: it fits now, and nothing is lost.
    tooLarge = false;
    clock.t += 1000;
    const healed = await c.get('external-id', ['1', '2'], undefined, undefined);
    expect(u.calls.slice(4)).toEqual([
      { ids: ['1'], mode: 'no' },
      { ids: ['2'], mode: 'yes' },
    ]);
    expect(pingCount(healed.loads[0])).toBe(2);
    expect(healed.loads[0]?.issues?.map((i) => i.kind)).toEqual(['unknown_field']);
    expect(noted).toEqual([]);
  });

  it(`reports a load too large alone once, after ${TOO_LARGE_TRIES} refusals in a row; the others are served every time`, async () => {
    const u = upstream();
    const clock = { t: 0 };
    const noted: string[] = [];
    const c = cache(u, clock, {
      pull: async (by, ids, mode) => {
        const answer = await u.pull(by, ids, mode);
        if (ids.includes('1') && u.calls.length > 1)
          throw new ProxyError(502, 'upstream_too_large', "the upstream's answer is larger than 100 bytes");
        return answer;
      },
      onTooLarge: (_by, id, note) => noted.push(`${id}: ${note.kind}`),
    });
    for (const id of ['1', '2']) u.addPing(id);
    await c.get('external-id', ['1', '2'], undefined, undefined);
    const tries = (refreshes: number) =>
      u.calls.slice(0, refreshes).filter((x) => x.ids.length === 1 && x.ids[0] === '1').length;
    for (let refresh = 1; refresh <= TOO_LARGE_TRIES + 3; refresh++) {
      u.addPing('2');
      clock.t += 1000;
      const served = await c.get('external-id', ['1', '2'], undefined, undefined);
      // Load 2 is never held back, and load 1 keeps its last good track.
      expect(pingCount(served.loads[1]), `refresh ${refresh}`).toBe(1 + refresh);
      expect(pingCount(served.loads[0]), `refresh ${refresh}`).toBe(1);
      const note = served.loads[0]?.issues?.[0];
      expect(note?.kind).toBe('too_large');
      expect(note?.skipped, `refresh ${refresh}`).toBe(refresh >= TOO_LARGE_TRIES);
      expect(noted, `refresh ${refresh}`).toEqual(refresh >= TOO_LARGE_TRIES ? ['1: too_large'] : []);
    }
    // Tried alone at each refresh until reported, then left until the resync.
    expect(tries(u.calls.length)).toBe(TOO_LARGE_TRIES);
    // Refused again at the resync: still noted on the load, not reported again.
    clock.t += 600_000;
    const later = await c.get('external-id', ['1', '2'], undefined, undefined);
    expect(tries(u.calls.length)).toBe(TOO_LARGE_TRIES + 1);
    expect(later.loads[0]?.issues?.[0]).toMatchObject({ kind: 'too_large', skipped: true });
    expect(noted).toEqual(['1: too_large']);
  });

  it('serves a load whose first answer is too large as pending, not missing, until it is read', async () => {
    const u = upstream();
    const clock = { t: 0 };
    // The chunk's call, then load 1's alone, then its retry at the next refresh.
    let refusals = 3;
    const c = cache(u, clock, {
      pull: async (by, ids, mode) => {
        const answer = await u.pull(by, ids, mode);
        if (ids.includes('1') && refusals > 0) {
          refusals--;
          throw new ProxyError(502, 'upstream_too_large', "the upstream's answer is larger than 100 bytes");
        }
        return answer;
      },
    });
    for (const id of ['1', '2']) u.addPing(id);
    const first = await c.get('external-id', ['1', '2'], undefined, undefined);
    expect(first.loads.map((l) => l.id)).toEqual(['2']);
    expect(first.pending).toEqual(['1']);
    expect(first.missing).toEqual([]);
    clock.t += 1000;
    expect((await c.get('external-id', ['1'], undefined, undefined)).pending).toEqual(['1']);
    clock.t += 1000;
    const read = await c.get('external-id', ['1'], undefined, first.cursor);
    expect(read.pending).toBeUndefined();
    expect(pingCount(read.loads[0])).toBe(1);
  });

  it('passes on an error other than too large without splitting the chunk', async () => {
    const u = upstream();
    const c = cache(u, { t: 0 });
    for (const id of ['1', '2']) u.addPing(id);
    u.failNext(new ProxyError(502, 'upstream_error', 'the upstream answered with HTTP 500'));
    await expect(c.get('external-id', ['1', '2'], undefined, undefined)).rejects.toMatchObject({
      code: 'upstream_error',
    });
    expect(u.calls).toHaveLength(1);
  });

  it('pulls a load in full first, then only deltas, and serves the merged track', async () => {
    const u = upstream();
    const clock = { t: 0 };
    const c = cache(u, clock);
    u.addPing('1');
    u.addPing('1');
    expect(pingCount((await c.get('external-id', ['1'], undefined, undefined)).loads[0])).toBe(2);
    u.addPing('1');
    clock.t += 1000;
    const served = await c.get('external-id', ['1'], undefined, undefined);
    expect(u.calls.map((x) => x.mode)).toEqual(['no', 'yes']);
    expect(pingCount(served.loads[0])).toBe(3);
    // Undocumented fields (stops) survive the round trip.
    expect(served.loads[0]?.extras?.stops).toEqual([{ stopOrderNumber: 1 }]);
  });

  it('serializes a full answer once per change and include flags; what it serves equals get()', async () => {
    const u = upstream();
    const clock = { t: 0 };
    const c = cache(u, clock);
    const board = { locations: false, events: false, documents: false, comments: false };
    const parsed = (d: Buffer[]) => d.map((b) => JSON.parse(b.toString('utf8')) as LoadViewWire);
    u.addPing('1');
    u.addPing('2');
    const first = await c.getJson('external-id', ['1', '2'], board, undefined);
    expect(parsed(first.loads)).toEqual((await c.get('external-id', ['1', '2'], board, undefined)).loads);
    // Nothing new: the very bytes again, for every browser.
    const again = await c.getJson('external-id', ['1', '2'], board, undefined);
    expect(again.loads[0]).toBe(first.loads[0]);
    // Other include flags: serialized for them, and the pings are there.
    const everything = await c.getJson('external-id', ['1'], undefined, undefined);
    expect(pingCount(parsed(everything.loads)[0])).toBe(1);
    // Both are kept: a page's board and its documents pull alternate, and neither is written again.
    expect((await c.getJson('external-id', ['1'], board, undefined)).loads[0]).toBe(first.loads[0]);
    expect((await c.getJson('external-id', ['1'], undefined, undefined)).loads[0]).toBe(everything.loads[0]);
    // At most four sets of flags are kept per load: a fifth pushes out the one kept longest.
    for (const flags of [{ events: false }, { comments: false }, { documents: false }])
      await c.getJson('external-id', ['1'], flags, undefined);
    expect((await c.getJson('external-id', ['1'], board, undefined)).loads[0]).not.toBe(first.loads[0]);
    // New data: serialized again, with it.
    u.addPing('1');
    clock.t += 1000;
    const later = await c.getJson('external-id', ['1'], undefined, undefined);
    expect(later.loads[0]).not.toBe(everything.loads[0]);
    expect(pingCount(parsed(later.loads)[0])).toBe(2);
    // After a cursor, only what came since, as get() answers it.
    u.addPing('1');
    clock.t += 1000;
    const delta = await c.getJson('external-id', ['1'], undefined, later.cursor);
    expect(pingCount(parsed(delta.loads)[0])).toBe(1);
    expect(parsed(delta.loads)).toEqual((await c.get('external-id', ['1'], undefined, later.cursor)).loads);
  });

  it('leaves the readings list out when include.temperatures is false, and keeps the latest reading', async () => {
    const reading = (minute: number, supply: number) => ({
      deviceId: 'R1',
      timestamp: `11/22/2026 04:${String(minute).padStart(2, '0')} CST`,
      temperature: { zone1: { supply, return: supply + 1, set: 34 }, UnitOfMeasurement: 'F' },
    });
    const c = answering([
      {
        loadTrackExternalId: 7,
        latestTemperature: reading(2, 36),
        temperatures: [reading(1, 35), reading(2, 36)],
      },
    ]);
    const board = await c.getJson('external-id', ['7'], { temperatures: false }, undefined);
    const lean = JSON.parse(board.loads[0]!.toString('utf8')) as LoadViewWire;
    expect(lean.readings).toBeUndefined();
    expect(lean.latestTemperature?.supply).toBe(36);
    // The default, and the detail's request, still get every reading.
    const full = (await c.get('external-id', ['7'], undefined, undefined)).loads[0];
    expect(full?.readings).toHaveLength(2);
  });

  it('leaves out undocumented fields and the notes that kept them when include.extras is false, not other notes', async () => {
    const c = answering([
      {
        loadTrackExternalId: 7,
        stops: [{ stopOrderNumber: 1, city: 'Boston' }],
        locations: [
          {
            lat: '41.1',
            lon: '-90.1',
            deviceTimeGmt: '2026-11-22 10:00:00',
            accuracy: 10,
            timestamp: '',
          },
          {
            lat: 'north',
            lon: '-90.2',
            deviceTimeGmt: '2026-11-22 10:01:00',
            accuracy: 10,
            timestamp: '',
          },
        ],
      },
    ]);
    const kinds = (notes: { kind: string; skipped: boolean }[] | undefined) =>
      (notes ?? []).map((n) => `${n.kind}:${n.skipped ? 'skipped' : 'kept'}`).sort();
    const read = (b: Buffer) => JSON.parse(b.toString('utf8')) as LoadViewWire;
    const full = read((await c.getJson('external-id', ['7'], undefined, undefined)).loads[0]!);
    expect(full.extras?.stops).toEqual([{ stopOrderNumber: 1, city: 'Boston' }]);
    expect(kinds(full.issues)).toContain('unknown_field:kept');
    const skippedOnly = kinds(full.issues).filter((k) => k !== 'unknown_field:kept');
    expect(skippedOnly.length).toBeGreaterThan(0);

    const lean = read((await c.getJson('external-id', ['7'], { extras: false }, undefined)).loads[0]!);
    expect(lean).not.toHaveProperty('extras');
    expect(lean.pings).toHaveLength(1);
    // What was skipped is still told; only the notes about the fields left out go with them.
    expect(kinds(lean.issues)).toEqual(skippedOnly);
    expect((await c.get('external-id', ['7'], { extras: false }, undefined)).loads[0]).not.toHaveProperty(
      'extras',
    );
    // The serialized load kept for full answers is one per flag: the default gets the stops again.
    expect(read((await c.getJson('external-id', ['7'], {}, undefined)).loads[0]!).extras?.stops).toHaveLength(
      1,
    );
  });

  it('lets a small request through while it serves a large one, and loses nothing merged meanwhile', async () => {
    const u = upstream();
    const clock = { t: 0 };
    const c = cache(u, clock, { chunkSize: 5000, maxLoads: 5000 });
    const ids = Array.from({ length: 2500 }, (_, i) => String(i));
    for (const id of ids) u.addPing(id);
    const first = await c.getJson('external-id', ids, undefined, undefined);
    expect(first.loads).toHaveLength(2500);

    // All fresh: the board is served from the cache. Load 0 moves meanwhile, and a request for it
    // alone comes while the board is being served.
    clock.t = 500;
    const done: string[] = [];
    const board = c.get('external-id', ids, undefined, undefined).then((b) => (done.push('board'), b));
    await new Promise((resolve) => setImmediate(resolve));
    clock.t = 1500;
    u.addPing('0');
    const one = await c.get('external-id', ['0'], undefined, undefined).then((b) => (done.push('one'), b));
    const served = await board;
    // The one load was answered before the board of 2,500 was finished.
    expect(done).toEqual(['one', 'board']);
    expect(pingCount(one.loads[0])).toBe(2);
    expect(served.loads).toHaveLength(2500);
    // The board was served before the move reached its first loads: its cursor is from before the
    // move, so the next poll after it brings the new ping.
    expect(pingCount(served.loads[0])).toBe(1);
    const next = await c.get('external-id', ids, undefined, served.cursor);
    expect(next.loads.map((d) => d.id)).toContain('0');
    expect(pingCount(next.loads.find((d) => d.id === '0'))).toBe(1);
  });

  it('serves a load refreshed less than freshMs ago from the cache', async () => {
    const u = upstream();
    const clock = { t: 0 };
    const c = cache(u, clock);
    u.addPing('1');
    await c.get('external-id', ['1'], undefined, undefined);
    clock.t += 999;
    await c.get('external-id', ['1'], undefined, undefined);
    expect(u.calls).toHaveLength(1);
  });

  it('after a failed delta call pulls in full, so the delta the failure swallowed is not lost', async () => {
    const u = upstream();
    const clock = { t: 0 };
    const c = cache(u, clock);
    u.addPing('1');
    await c.get('external-id', ['1'], undefined, undefined);
    u.addPing('1');
    u.failNext(new ProxyError(502, 'upstream_truncated', 'cut'));
    clock.t += 1000;
    await expect(c.get('external-id', ['1'], undefined, undefined)).rejects.toThrow('cut');
    const served = await c.get('external-id', ['1'], undefined, undefined);
    expect(u.calls.map((x) => x.mode)).toEqual(['no', 'yes', 'no']);
    expect(pingCount(served.loads[0])).toBe(2);
  });

  it('shares one upstream call among requests that arrive together (fan-in)', async () => {
    const u = upstream();
    const clock = { t: 0 };
    const c = cache(u, clock);
    for (const id of ['1', '2', '3', '4']) u.addPing(id);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => c.get('external-id', ['1', '2', '3', '4'], undefined, undefined)),
    );
    expect(u.calls).toHaveLength(2); // 4 ids in chunks of 2
    expect(answers.every((a) => a.loads.length === 4)).toBe(true);
  });

  it('lets a request for a load being refreshed wait for that load’s own call, and share its failure', async () => {
    const u = upstream();
    const clock = { t: 0 };
    // Each call waits until the test lets it answer (or fail).
    const gates: { open: (error?: Error) => void }[] = [];
    const c = cache(u, clock, {
      maxInFlight: 1,
      pull: async (by, ids, mode) => {
        const error = await new Promise<Error | undefined>((open) => gates.push({ open }));
        if (error) throw error;
        return u.pull(by, ids, mode);
      },
    });
    for (const id of ['1', '2', '3', '4', '5', '6']) u.addPing(id);
    const turn = c.refreshLoads('external-id', ['1', '2', '3', '4', '5', '6']);
    const settled = (p: Promise<unknown>) =>
      p.then(
        () => 'answered',
        (error: Error) => error.message,
      );
    const first = settled(c.get('external-id', ['1'], undefined, undefined));
    const second = settled(c.get('external-id', ['3'], undefined, undefined));
    const late = { first: '', second: '' };
    void first.then((r) => (late.first = r));
    void second.then((r) => (late.second = r));
    const tick = () => new Promise((r) => setTimeout(r, 0));
    await tick();
    gates[0]?.open();
    await tick();
    // Load 1's call answered: its request is served while the rest of the turn is still out.
    expect(late.first).toBe('answered');
    expect(late.second).toBe('');
    gates[1]?.open(new Error('reset'));
    await tick();
    expect(late.second).toBe('reset');
    gates[2]?.open();
    await expect(turn).rejects.toThrow('reset');
    // No call of their own: both waited on the turn's.
    expect(gates).toHaveLength(3);
  });

  it('gives a since cursor only what was merged after it, plus the latest location', async () => {
    const u = upstream();
    const clock = { t: 0 };
    const c = cache(u, clock);
    u.addPing('1');
    const first = await c.get('external-id', ['1'], undefined, undefined);
    u.addPing('1');
    clock.t += 1000;
    const delta = await c.get('external-id', ['1'], undefined, first.cursor);
    expect(pingCount(delta.loads[0])).toBe(1);
    expect(delta.loads[0]?.latestLocation).toBeDefined();
    // Nothing new: the load is left out, and it is not missing either (the browser keeps its copy).
    clock.t += 1000;
    const none = await c.get('external-id', ['1'], undefined, delta.cursor);
    expect(none.loads).toEqual([]);
    expect(none.missing).toEqual([]);
    // A cursor of another process, or garbage, gets everything.
    expect(pingCount((await c.get('external-id', ['1'], undefined, 'other.1')).loads[0])).toBe(2);
    expect(
      pingCount(
        (await c.get('external-id', ['1'], undefined, first.cursor.split('.')[0] + '.999999')).loads[0],
      ),
    ).toBe(2);
  });

  it('after a cursor, a changed load brings its latest location, status and temperature, and only the items since', async () => {
    const at = (minute: number) => ({
      timestamp: `11/22/2026 04:${String(minute).padStart(2, '0')} CST`,
      timestampUTC: `11/22/2026 10:${String(minute).padStart(2, '0')} UTC`,
    });
    const ping = (minute: number) => ({
      lat: '41.1',
      lon: String(-90 - minute / 100),
      deviceTimeGmt: `2026-11-22 10:${String(minute).padStart(2, '0')}:00`,
      accuracy: 10,
      timestamp: at(minute).timestamp,
    });
    const reading = (minute: number, supply: number) => ({
      deviceId: 'R1',
      timestamp: at(minute).timestamp,
      temperature: { zone1: { supply, return: supply + 1, set: 34 }, UnitOfMeasurement: 'F' },
    });
    const status = { name: 'In Transit', code: 'X3', ...at(1) };
    const answers = [
      {
        loadTrackExternalId: 7,
        latestLocation: { ...ping(1), ...at(1), city: 'A', state: 'IL', country: 'US' },
        latestStatus: status,
        latestTemperature: reading(1, 35),
        locations: [ping(1)],
        events: [{ id: 'e1', name: 'In Transit', code: 'X3', ...at(1) }],
        temperatures: [reading(1, 35)],
      },
      // The delta: one ping and one reading; the status has not changed.
      {
        loadTrackExternalId: 7,
        latestLocation: { ...ping(2), ...at(2), city: 'B', state: 'IL', country: 'US' },
        latestStatus: status,
        latestTemperature: reading(2, 37),
        locations: [ping(2)],
        temperatures: [reading(2, 37)],
      },
    ];
    const clock = { t: 0 };
    const c = answering([answers[0]], [[answers[1]]], () => clock.t);
    const first = await c.get('external-id', ['7'], undefined, undefined);
    clock.t += 1000;
    const delta = (await c.get('external-id', ['7'], undefined, first.cursor)).loads[0];
    const full = (await c.get('external-id', ['7'], undefined, undefined)).loads[0];
    expect(delta?.pings).toEqual([full?.pings?.[1]]);
    expect(delta?.pings?.[0]).toMatchObject({ lat: 41.1, lon: -90.02 });
    expect(delta?.readings).toEqual([full?.readings?.[1]]);
    expect(delta?.readings?.[0]).toMatchObject({ supply: 37 });
    expect(delta?.events).toBeUndefined();
    expect(delta?.latestLocation).toMatchObject({ place: { city: 'B' } });
    expect(delta?.latestStatus).toEqual(full?.latestStatus);
    expect(delta?.latestStatus).toMatchObject({ name: status.name });
    expect(delta?.latestTemperature).toMatchObject({ supply: 37 });
  });

  it('keeps at most maxInFlight upstream calls in flight, and makes every chunk’s call', async () => {
    let inFlight = 0;
    let most = 0;
    const called: string[][] = [];
    const c = createTrackCache({
      pull: async (_by, ids) => {
        called.push(ids);
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        const parsed = parsePullAnswer({ status: true, timeStamp: '11/22/2026 10:00:00 UTC', details: [] });
        if ('error' in parsed) throw new Error(parsed.error);
        return parsed;
      },
      chunkSize: 1,
      maxInFlight: 4,
      freshMs: 1000,
      resyncMs: 600_000,
      maxLoads: 100,
    });
    const ids = Array.from({ length: 10 }, (_, i) => String(i + 1));
    const answer = await c.get('external-id', ids, undefined, undefined);
    expect(most).toBe(4);
    expect(called.flat().sort()).toEqual([...ids].sort());
    expect(answer.missing.sort()).toEqual([...ids].sort());
  });

  it('holds one full call at a time (maxFullInFlight 1), from its call until it is stored, across refreshes; deltas as many as maxInFlight', async () => {
    const u = upstream();
    const ids = Array.from({ length: 8 }, (_, i) => String(i + 1));
    for (const id of ids) u.addPing(id);
    const clock = { t: 0 };
    const open = { no: 0, yes: 0 };
    const most = { no: 0, yes: 0 };
    const stored: string[] = [];
    const c = cache(u, clock, {
      chunkSize: 1,
      maxInFlight: 4,
      maxFullInFlight: 1,
      pull: async (by, wanted, mode) => {
        most[mode] = Math.max(most[mode], ++open[mode]);
        await new Promise((r) => setTimeout(r, 1));
        const answer = await u.pull(by, wanted, mode);
        // A delta is done when it comes; a full answer once it is stored.
        if (mode === 'yes') open.yes--;
        return answer;
      },
      persist: async (_by, answer) => {
        await new Promise((r) => setTimeout(r, 1));
        stored.push(...answer.loads.map((l) => l.id));
        open.no--;
      },
    });
    // The puller's round and a request for new loads at the same time.
    await Promise.all([
      c.refreshLoads('external-id', ids.slice(0, 4)),
      c.refreshLoads('external-id', ids.slice(4)),
    ]);
    expect(most.no).toBe(1);
    expect(stored.sort()).toEqual(ids);
    for (const id of ids) u.addPing(id);
    clock.t += 1000;
    await c.refreshLoads('external-id', ids);
    expect(u.calls.filter((x) => x.mode === 'yes')).toHaveLength(8);
    expect(most.yes).toBe(4);
  });

  it('after a cursor, serves only the loads that changed; a load back from missing counts as changed', async () => {
    const u = upstream();
    const clock = { t: 0 };
    const c = cache(u, clock, { chunkSize: 10 });
    for (const id of ['1', '2', '3']) u.addPing(id);
    const board = { locations: false, events: false, documents: false, comments: false, temperatures: false };
    const first = await c.getJson('external-id', ['1', '2', '3', '4'], board, undefined);
    expect(first.loads).toHaveLength(3);
    expect(first.missing).toEqual(['4']);
    // Load 2 moved; load 4 became known to the upstream.
    u.addPing('2');
    u.addPing('4');
    clock.t += 1000;
    const ids = (d: Buffer[]) => d.map((b) => (JSON.parse(b.toString('utf8')) as LoadViewWire).id);
    // Load 4 was missing, so it is pulled in full again at once.
    const delta = await c.getJson('external-id', ['1', '2', '3', '4'], board, first.cursor);
    expect(ids(delta.loads)).toEqual(['2', '4']);
    expect(delta.missing).toEqual([]);
    // The whole board again without a cursor: every load, as before.
    expect(ids((await c.getJson('external-id', ['1', '2', '3', '4'], board, undefined)).loads)).toEqual([
      '1',
      '2',
      '3',
      '4',
    ]);
  });

  it('leaves out the lists the browser did not ask for, yet pulls them so the cursor skips nothing', async () => {
    const u = upstream();
    const clock = { t: 0 };
    const c = cache(u, clock);
    u.addPing('1');
    const board = await c.get(
      'external-id',
      ['1'],
      { locations: false, events: false, documents: false, comments: false },
      undefined,
    );
    expect(board.loads[0]?.pings).toBeUndefined();
    expect(board.loads[0]?.latestLocation).toBeDefined();
    const full = await c.get('external-id', ['1'], undefined, undefined);
    expect(pingCount(full.loads[0])).toBe(1);
  });

  it('reports ids the upstream does not know as missing', async () => {
    const u = upstream();
    const clock = { t: 0 };
    const c = cache(u, clock);
    u.addPing('1');
    const served = await c.get('external-id', ['1', '404'], undefined, undefined);
    expect(served.missing).toEqual(['404']);
    expect(served.loads).toHaveLength(1);
  });

  it('forgets the least recently used tracks beyond maxLoads, and pulls them in full when asked again', async () => {
    const u = upstream();
    const clock = { t: 0 };
    const c = cache(u, clock, { maxLoads: 2, chunkSize: 1 });
    for (const id of ['1', '2', '3']) u.addPing(id);
    await c.get('external-id', ['1'], undefined, undefined);
    await c.get('external-id', ['2'], undefined, undefined);
    await c.get('external-id', ['3'], undefined, undefined);
    expect(c.size()).toBe(2);
    clock.t += 1000;
    const again = await c.get('external-id', ['1'], undefined, undefined);
    expect(u.calls.at(-1)).toEqual({ ids: ['1'], mode: 'no' });
    expect(pingCount(again.loads[0])).toBe(1);
  });

  it('forgets by last use, not by first: a track asked for again is kept over one asked for since', async () => {
    const u = upstream();
    const clock = { t: 0 };
    const c = cache(u, clock, { maxLoads: 2, chunkSize: 1 });
    for (const id of ['1', '2', '3']) u.addPing(id);
    await c.get('external-id', ['1'], undefined, undefined);
    await c.get('external-id', ['2'], undefined, undefined);
    await c.get('external-id', ['1'], undefined, undefined);
    await c.get('external-id', ['3'], undefined, undefined);
    const calls = u.calls.length;
    // Still fresh, and still held: served without a call.
    await c.get('external-id', ['1'], undefined, undefined);
    expect(u.calls).toHaveLength(calls);
    await c.get('external-id', ['2'], undefined, undefined);
    expect(u.calls.at(-1)).toEqual({ ids: ['2'], mode: 'no' });
  });

  it('counts and forgets tracks of both operations together, by last use', async () => {
    const u = upstream();
    const clock = { t: 0 };
    const c = cache(u, clock, { maxLoads: 2, chunkSize: 1 });
    for (const id of ['1', '2']) u.addPing(id);
    await c.get('external-id', ['1'], undefined, undefined);
    await c.get('load-number', ['1'], undefined, undefined);
    expect(c.size()).toBe(2);
    await c.get('external-id', ['1'], undefined, undefined);
    await c.get('external-id', ['2'], undefined, undefined);
    expect(c.size()).toBe(2);
    const calls = u.calls.length;
    // The load-number track went (least recently used); the external-id one is held, still fresh.
    await c.get('external-id', ['1'], undefined, undefined);
    expect(u.calls).toHaveLength(calls);
    await c.get('load-number', ['1'], undefined, undefined);
    expect(u.calls.at(-1)).toEqual({ ids: ['1'], mode: 'no' });
    c.reset();
    expect(c.size()).toBe(0);
  });

  it('runs a full resync after resyncMs', async () => {
    const u = upstream();
    const clock = { t: 0 };
    const c = cache(u, clock, { resyncMs: 5000 });
    u.addPing('1');
    await c.get('external-id', ['1'], undefined, undefined);
    clock.t += 1000;
    await c.get('external-id', ['1'], undefined, undefined);
    clock.t += 5000;
    await c.get('external-id', ['1'], undefined, undefined);
    expect(u.calls.map((x) => x.mode)).toEqual(['no', 'yes', 'no']);
  });
});

/**
 * The fleet's pull with each answer's details handed over as text, as the client hands a full
 * answer (each with an unknown field, so it brings a note): `read(i, raw, call)` gives detail i's
 * value when it is taken (throw to refuse the answer there); `call` counts the pulls from 0.
 */
function unreadPull(
  u: ReturnType<typeof upstream>,
  read: (i: number, raw: unknown, call: number) => unknown = (_i, raw) => raw,
): TrackCacheOptions['pull'] {
  let calls = 0;
  return async (by, wanted, mode) => {
    const whole = await u.pull(by, wanted, mode);
    const raws = whole.data.details.map((d) => ({ ...d, surplus: 1 }));
    const issues: ParseIssue[] = [];
    const answer: Parsed<PullAnswer> = { data: { ...whole.data, details: [], detailIssues: [] }, issues };
    const call = calls++;
    answer.data.unread = unreadDetails(raws.length, 0, (i) => read(i, raws[i], call), issues);
    return answer;
  };
}

/** A `persist` that notes each part stored: its loads' ids, their pings, the ids found missing. */
function storedParts() {
  const parts: { ids: string[]; pings: number; missing: string[] }[] = [];
  const persist: TrackCacheOptions['persist'] = async (_by, answer) => {
    parts.push({
      ids: answer.loads.map((l) => l.id),
      pings: answer.loads.reduce((n, l) => n + l.pings.length, 0),
      missing: answer.missing.map((m) => m.id),
    });
  };
  return { parts, persist };
}

describe('track cache, calls sized by items (UPSTREAM_MAX_ITEMS)', () => {
  /** Loads 1–4 with 20, 20, 2 and 2 pings. */
  function fleet() {
    const u = upstream();
    for (const [id, n] of [
      ['1', 20],
      ['2', 20],
      ['3', 2],
      ['4', 2],
    ] as const)
      for (let i = 0; i < n; i++) u.addPing(id);
    return u;
  }
  const ids = ['1', '2', '3', '4'];
  const pingsOf = (served: { loads: LoadViewWire[] }) =>
    Object.fromEntries(served.loads.map((l) => [l.id, l.pings?.map((p) => p.key)]));

  it('splits a chunk whose loads are known to be large before the call, and serves the same answers', async () => {
    const u = fleet();
    const plain = fleet();
    const clock = { t: 0 };
    const c = cache(u, clock, { chunkSize: 100, maxItems: 25, resyncMs: 5000 });
    const p = cache(plain, clock, { chunkSize: 100, resyncMs: 5000 });
    // Nothing known yet: one call, whatever it brings.
    const first = await c.get('external-id', ids, undefined, undefined);
    expect(pingsOf(first)).toEqual(pingsOf(await p.get('external-id', ids, undefined, undefined)));
    expect(u.calls.map((x) => x.ids)).toEqual([ids]);
    // A full resync: each load is expected to bring what it holds (20, 20, 2, 2), and at least what
    // the latest full answer brought per load (11): against 25 items a call.
    clock.t += 5000;
    u.calls.length = 0;
    const again = await c.get('external-id', ids, undefined, undefined);
    expect(u.calls.map((x) => [x.mode, x.ids])).toEqual([
      ['no', ['1']],
      ['no', ['2']],
      ['no', ['3', '4']],
    ]);
    expect(pingsOf(again)).toEqual(pingsOf(first));
    expect(Object.values(pingsOf(again)).map((k) => k?.length)).toEqual([20, 20, 2, 2]);
  });

  it('sizes a delta by the most a delta of that load brought, and loses nothing a larger delta brings', async () => {
    const u = fleet();
    const clock = { t: 0 };
    const c = cache(u, clock, { chunkSize: 100, maxItems: 25 });
    await c.get('external-id', ids, undefined, undefined);
    // Load 1's delta brings 30 pings: more than expected (nothing), taken whole, not refused.
    for (let i = 0; i < 30; i++) u.addPing('1');
    u.addPing('2');
    clock.t += 1000;
    u.calls.length = 0;
    const delta = await c.get('external-id', ids, undefined, undefined);
    expect(u.calls.map((x) => [x.mode, x.ids])).toEqual([['yes', ids]]);
    expect(Object.values(pingsOf(delta)).map((k) => k?.length)).toEqual([50, 21, 2, 2]);
    // Its next delta is expected to be as large: it goes alone.
    clock.t += 1000;
    u.calls.length = 0;
    await c.get('external-id', ids, undefined, undefined);
    expect(u.calls.map((x) => [x.mode, x.ids])).toEqual([
      ['yes', ['1']],
      ['yes', ['2', '3', '4']],
    ]);
  });

  it('starts a refresh of more than a chunk with small calls, sized next by what they brought', async () => {
    const u = upstream();
    const many = Array.from({ length: 20 }, (_, i) => String(i + 1));
    for (const id of many) u.addPing(id);
    const clock = { t: 0 };
    const c = cache(u, clock, { chunkSize: 15, maxItems: 50, maxInFlight: 1 });
    // A first pull of more than a chunk: 10 loads go first; they brought a ping a load, so the rest
    // go together.
    await c.get('external-id', many, undefined, undefined);
    expect(u.calls.map((x) => x.ids.length)).toEqual([10, 10]);
    // The service's clock moved far: every delta brings 10 pings, which no load's history foretold.
    for (const id of many) for (let i = 0; i < 10; i++) u.addPing(id);
    clock.t += 1000;
    u.calls.length = 0;
    const delta = await c.get('external-id', many, undefined, undefined);
    expect(u.calls.map((x) => x.ids.length)).toEqual([10, 5, 5]);
    expect(delta.loads.map(pingCount)).toEqual(many.map(() => 11));
  });

  it('expects a small refresh to bring per load what the latest answer of its mode brought', async () => {
    const u = upstream();
    const many = Array.from({ length: 40 }, (_, i) => String(i + 1));
    for (const id of many) u.addPing(id);
    const clock = { t: 0 };
    const c = cache(u, clock, { chunkSize: 15, maxItems: 50, maxInFlight: 1 });
    await c.get('external-id', many, undefined, undefined);
    for (const id of many) for (let i = 0; i < 10; i++) u.addPing(id);
    clock.t += 1000;
    await c.get('external-id', many.slice(0, 20), undefined, undefined);
    // Loads whose own deltas never brought much, in a refresh of less than a chunk: sized by the
    // latest deltas (10 a load), not taken 12 at once.
    u.calls.length = 0;
    const rest = await c.get('external-id', many.slice(20, 32), undefined, undefined);
    expect(u.calls.map((x) => x.ids.length)).toEqual([5, 5, 2]);
    expect(rest.loads.map(pingCount)).toEqual(many.slice(20, 32).map(() => 11));
  });

  it('takes no bound from a maxItems that is not a positive count, and still cuts at chunkSize', async () => {
    for (const maxItems of [0, -5, Number.NaN]) {
      const u = fleet();
      const clock = { t: 0 };
      const c = cache(u, clock, { chunkSize: 3, maxItems, resyncMs: 5000 });
      await c.get('external-id', ids, undefined, undefined);
      clock.t += 5000;
      u.calls.length = 0;
      await c.get('external-id', ids, undefined, undefined);
      expect(u.calls.map((x) => x.ids)).toEqual([['1', '2', '3'], ['4']]);
    }
  });

  it('stores a large answer in parts of at most maxItems (or one load), each load once', async () => {
    const u = fleet();
    const clock = { t: 0 };
    const { parts, persist } = storedParts();
    const c = cache(u, clock, { chunkSize: 100, maxItems: 25, persist });
    await c.refreshLoads('external-id', [...ids, '99']);
    expect(parts).toEqual([
      { ids: ['1'], pings: 20, missing: [] },
      { ids: ['2', '3', '4'], pings: 24, missing: ['99'] },
    ]);
  });

  it('stores one answer in parts of at most storeItems (or one load) when maxItems allows more', async () => {
    const u = fleet();
    const clock = { t: 0 };
    const { parts, persist } = storedParts();
    const c = cache(u, clock, { chunkSize: 100, maxItems: 100, storeItems: 21, persist });
    await c.refreshLoads('external-id', [...ids, '99']);
    expect(u.calls.map((x) => x.ids)).toEqual([[...ids, '99']]);
    expect(parts).toEqual([
      { ids: ['1'], pings: 20, missing: [] },
      { ids: ['2'], pings: 20, missing: [] },
      { ids: ['3', '4'], pings: 4, missing: ['99'] },
    ]);
  });

  it("reads a full answer's details one at a time, each part stored before the next details are read", async () => {
    const u = fleet();
    const clock = { t: 0 };
    const steps: string[] = [];
    const noted: string[][] = [];
    const c = cache(u, clock, {
      chunkSize: 100,
      maxItems: 100,
      storeItems: 21,
      pull: unreadPull(u, (_i, raw) => {
        steps.push(`read ${String((raw as LoadDetailWire).loadTrackExternalId)}`);
        return raw;
      }),
      persist: async (_by, answer) => {
        steps.push(`store ${answer.loads.map((l) => `${l.id}:${l.pings.length}`).join(',')}`);
      },
      onAnswer: (_by, answer) => noted.push(answer.issues.map((i) => `${i.kind} ${i.path}`)),
    });
    await c.refreshLoads('external-id', ids);
    // Every detail merged and stored with all its pings.
    expect(steps).toEqual([
      'read 1',
      'read 2',
      'store 1:20',
      'read 3',
      'store 2:20',
      'read 4',
      'store 3:2,4:2',
    ]);
    // Each detail's notes reach the drift report, as read.
    expect(noted).toEqual([
      ['details[0].stops', 'details[0].surplus', 'details[1].stops', 'details[1].surplus']
        .concat(['details[2].stops', 'details[2].surplus', 'details[3].stops', 'details[3].surplus'])
        .map((path) => `unknown_field ${path}`),
    ]);
  });

  it('a full answer refused at a detail that is not JSON: the loads merged but not stored are pulled again at once, its notes not reported', async () => {
    const u = fleet();
    const clock = { t: 0 };
    const stored: string[] = [];
    const noted: number[] = [];
    const c = cache(u, clock, {
      chunkSize: 100,
      maxItems: 100,
      storeItems: 21,
      pull: unreadPull(u, (i, raw, call) => {
        // The first answer's third detail is cut text: it refuses the answer when read.
        if (call === 0 && i === 2) throw new ProxyError(502, 'upstream_bad_json', 'not JSON');
        return raw;
      }),
      persist: async (_by, answer) => {
        stored.push(...answer.loads.map((l) => `${l.id}:${l.pings.length}`));
      },
      onAnswer: (_by, answer) => noted.push(answer.issues.length),
    });
    await expect(c.refreshLoads('external-id', ids)).rejects.toMatchObject({ code: 'upstream_bad_json' });
    // Load 1's part was stored; load 2 was merged, its part not written yet.
    expect(stored).toEqual(['1:20']);
    expect(noted).toEqual([]);
    clock.t += 1;
    await c.refreshLoads('external-id', ids);
    // Not load 1 (stored, fresh), but load 2 with 3 and 4, in full: nothing merged is left unstored.
    expect(u.calls.map((x) => [x.ids, x.mode])).toEqual([
      [ids, 'no'],
      [['2', '3', '4'], 'no'],
    ]);
    expect(stored).toEqual(['1:20', '2:20', '3:2', '4:2']);
    expect(noted).toEqual([6]);
  });

  it('after a part of an answer failed to be stored, pulls the whole chunk in full again', async () => {
    const u = fleet();
    const clock = { t: 0 };
    let failOn = 2;
    const stored: string[] = [];
    const c = cache(u, clock, {
      chunkSize: 100,
      maxItems: 25,
      persist: async (_by, answer) => {
        if (--failOn === 0) throw new Error('store down');
        stored.push(...answer.loads.map((l) => l.id));
      },
    });
    await expect(c.refreshLoads('external-id', ids)).rejects.toThrow('store down');
    expect(stored).toEqual(['1']);
    clock.t += 1000;
    u.calls.length = 0;
    await c.refreshLoads('external-id', ids);
    expect(u.calls.every((x) => x.mode === 'no')).toBe(true);
    expect(u.calls.flatMap((x) => x.ids).sort()).toEqual(ids);
    expect(stored.sort()).toEqual(['1', '1', '2', '3', '4']);
  });
});

describe('a delta that brings nothing new (the puller)', () => {
  it('is neither stored nor announced, wherever the load stands in the answer; a new ping or stop is', async () => {
    const u = upstream();
    for (const id of ['1', '2']) for (let i = 0; i < 3; i++) u.addPing(id);
    const ids = ['1', '2'];
    const clock = { t: 0 };
    let reversed = false;
    const moved: { stops?: unknown[] } = {};
    const stored: { ids: string[]; notes: string[] }[] = [];
    const changed: string[] = [];
    const c = cache(u, clock, {
      chunkSize: 100,
      // The same loads at other places in the answer (another chunking), and load 2's stops moved.
      pull: async (by, wanted, mode) => {
        const answer = await u.pull(by, reversed ? [...wanted].reverse() : wanted, mode);
        for (const d of answer.data.details)
          if (moved.stops && String(d.loadTrackExternalId) === '2')
            (d as Record<string, unknown>).stops = moved.stops;
        return answer;
      },
      persist: async (_by, answer) => {
        stored.push({
          ids: answer.loads.map((l) => l.id),
          notes: answer.notes.flatMap((n) => n.notes.map((i) => `${n.id}:${i.path}`)),
        });
      },
      onChange: (_by, id) => changed.push(id),
    });
    await c.refreshLoads('external-id', ids);
    expect(stored).toEqual([{ ids, notes: ['1:stops', '2:stops'] }]);
    const served = (await c.get('external-id', ids, undefined, undefined)).loads;

    const nextRound = async () => {
      clock.t += 1000;
      stored.length = 0;
      changed.length = 0;
      await c.refreshLoads('external-id', ids);
      expect(u.calls.at(-1)?.mode).toBe('yes');
    };
    reversed = true;
    await nextRound();
    expect(stored).toEqual([]);
    expect(changed).toEqual([]);
    expect((await c.get('external-id', ids, undefined, undefined)).loads).toEqual(served);

    u.addPing('2');
    await nextRound();
    expect(stored).toEqual([{ ids: ['2'], notes: ['2:stops'] }]);
    expect(changed).toEqual(['2']);

    // No item, but the head changed: stored and announced as well.
    moved.stops = [{ stopOrderNumber: 1 }, { stopOrderNumber: 2 }];
    await nextRound();
    expect(stored.map((s) => s.ids)).toEqual([['2']]);
    expect(changed).toEqual(['2']);
    const after = (await c.get('external-id', ['2'], undefined, undefined)).loads[0];
    expect(after?.extras?.stops).toEqual(moved.stops);
  });
});

describe('a delta the same as the last one that changed nothing (the puller at rest)', () => {
  const location = (city: string) => ({
    lat: '41.1',
    lon: '-90',
    deviceTimeGmt: '2026-11-22 10:00:00',
    accuracy: 10,
    timestamp: '11/22/2026 04:00 CST',
    timestampUTC: '11/22/2026 10:00:00 UTC',
    city,
    state: 'Y',
    country: 'US',
  });

  /** Load 1 pulled as the puller pulls it, from `details()`; each answer's details read and its notes. */
  function atRest(details: () => unknown[]) {
    const read: number[] = [];
    const noted: string[][] = [];
    const clock = { t: 0 };
    const c = createTrackCache({
      pull: async (by, _ids, _mode, seen) => {
        const raw = {
          status: true,
          timeStamp: '11/22/2026 10:00:00 UTC',
          details: structuredClone(details()),
        };
        const parsed = parsePullAnswer(raw, seen && { by, seen });
        if ('error' in parsed) throw new Error(parsed.error);
        read.push(parsed.data.details.length);
        return parsed;
      },
      onAnswer: (_by, answer) => noted.push(answer.issues.map((i) => `${i.kind} ${i.path}`)),
      chunkSize: 10,
      maxInFlight: 1,
      freshMs: 1000,
      resyncMs: 600_000,
      maxLoads: 10,
      now: () => clock.t,
    });
    const round = async () => {
      clock.t += 1000;
      await c.refreshLoads('external-id', ['1']);
    };
    return { c, round, read, noted };
  }

  it('is left unread and counted as answered, its notes counted; a changed head is read and merged', async () => {
    const head = (city: string) => ({
      loadTrackExternalId: 1,
      latestLocation: location(city),
      stops: [{ stopOrderNumber: 1 }],
    });
    let next: Record<string, unknown> = { ...head('X'), locations: [location('X')] };
    const { c, round, read, noted } = atRest(() => [next]);
    const city = async () =>
      (await c.get('external-id', ['1'], undefined, undefined)).loads[0]?.latestLocation?.place?.city;

    await c.refreshLoads('external-id', ['1']);
    const served = (await c.get('external-id', ['1'], undefined, undefined)).loads;
    next = { ...head('X'), locations: [] };
    await round(); // read: merging it changes nothing, so it is remembered
    await round(); // the same again: not read
    expect(read).toEqual([1, 1, 0]);
    expect(noted.at(-1)).toEqual(['unknown_field details[0].stops']);
    expect((await c.get('external-id', ['1'], undefined, undefined)).loads).toEqual(served);

    next = { ...head('Z'), locations: [] };
    await round();
    expect(read.at(-1)).toBe(1);
    expect(await city()).toBe('Z');
    await round(); // changed the load: not remembered, read once more
    await round();
    expect(read.slice(-2)).toEqual([1, 0]);
    expect(await city()).toBe('Z');
    // A full pull is read whatever it holds.
    c.markFull('external-id', ['1']);
    await round();
    expect(read.at(-1)).toBe(1);
  });

  it("is read, with every detail of its answer, when one detail's id is not plainly read before parsing", async () => {
    const quiet = { loadTrackExternalId: 1, latestLocation: location('X') };
    let next: unknown[] = [quiet];
    const { c, round } = atRest(() => next);
    await c.refreshLoads('external-id', ['1']);
    await round(); // the quiet detail is remembered
    // The news comes first, under an id only the parser reads (a fraction, then its fallback); the
    // quiet detail again after it. The first detail of a load counts.
    next = [{ loadTrackExternalId: 1.5, ltExternalId: 1, latestLocation: location('Z') }, quiet];
    await round();
    const load = (await c.get('external-id', ['1'], undefined, undefined)).loads[0];
    expect(load?.latestLocation?.place?.city).toBe('Z');
  });
});

describe('each trip’s stops (keepTripStops)', () => {
  it('are kept once, again only when they change (not at each ping), and a failed keep is tried again', async () => {
    const u = upstream();
    for (let i = 0; i < 3; i++) u.addPing('1');
    const clock = { t: 0 };
    const far = {
      stopOrderNumber: 1,
      stopType: 'DELIVERY',
      lat: '41.1',
      lon: '-100.0',
      stopExternalId: 'S1',
    };
    let stops: unknown[] = [far];
    const kept: { id: string; trip: TripStops }[] = [];
    let fail = false;
    const c = cache(u, clock, {
      pull: async (by, wanted, mode) => {
        const answer = await u.pull(by, wanted, mode);
        for (const d of answer.data.details) (d as Record<string, unknown>).stops = stops;
        return answer;
      },
      keepTripStops: async (_by, id, trip) => {
        if (fail) throw new Error('store down');
        kept.push({ id, trip });
      },
    });
    const round = async () => {
      clock.t += 1000;
      u.addPing('1');
      await c.refreshLoads('external-id', ['1']);
    };
    await c.refreshLoads('external-id', ['1']);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({
      id: '1',
      trip: {
        from: -Infinity,
        stops: [{ order: 1, externalId: 'S1', type: 'delivery', progress: 'upcoming' }],
      },
    });
    // Not what moves with each ping: the ETA is not kept.
    expect(kept[0]?.trip.stops[0]).not.toHaveProperty('eta');

    // Each ping moves the stop's ETA: nothing kept again.
    const eta = async () =>
      (await c.get('external-id', ['1'], undefined, undefined)).loads[0]?.outlook?.stops[0]?.eta;
    const before = await eta();
    await round();
    await round();
    expect(await eta()).not.toBe(before);
    expect(kept).toHaveLength(1);

    // The stops change: kept again; a failed keep is tried again at the next change.
    stops = [far, { stopOrderNumber: 2, lat: '41.1', lon: '-101.0' }];
    fail = true;
    await round();
    expect(kept).toHaveLength(1);
    fail = false;
    await round();
    expect(kept).toHaveLength(2);
    expect(kept[1]?.trip.stops.map((s) => s.order)).toEqual([1, 2]);
    await round();
    expect(kept).toHaveLength(2);
  });
});
