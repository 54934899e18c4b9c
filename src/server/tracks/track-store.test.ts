import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePullAnswer } from '@/contract/parse-pull';
import { applyDelta } from '@/domain/merge';
import type { Load } from '@/domain/model';
import { normalizeLoad } from '@/domain/normalize';
import { createTestDatabase, openMigratedTestStore, STORE_KINDS } from '@/testing/test-store';
import { createLease, LeaseLostError, type Fence } from '../puller/lease';
import { migrateToLatest } from '../store/migrate';
import { openStore, type Store } from '../store/store';
import {
  changesSince,
  liveWatchedLoads,
  watchedMark,
  LISTS,
  readLoad,
  storeDeltas,
  storedItemCounts,
  watchedTracks,
  watchLoads,
} from './track-store';
import { createStoreTracks } from './store-tracks';
import type { ServedJson } from '../track-cache';
import type { IncludeFlags } from '@/contract/proxy-api';

/** One answer's worth of one load, in the upstream's wire shape: minutes after 10:00 UTC. */
interface Delta {
  load: number;
  pings: number[];
  events: { id: number; name: string; minute: number }[];
  documents: { url: number; type: string }[];
  comments: { minute: number; text: string }[];
}

const delta: fc.Arbitrary<Delta> = fc.record({
  load: fc.nat(2),
  pings: fc.array(fc.nat(40), { maxLength: 4 }),
  // Few ids and names: an event comes again, sometimes changed, sometimes at another time.
  events: fc.array(
    fc.record({
      id: fc.nat(3),
      name: fc.constantFrom('Arrived', 'Loaded', 'In transit'),
      minute: fc.nat(40),
    }),
    { maxLength: 2 },
  ),
  documents: fc.array(
    fc.record({ url: fc.nat(3), type: fc.constantFrom('POD', 'BOL', 'PICTURE', 'say "hi" \\ à ☃ 🚚') }),
    { maxLength: 2 },
  ),
  comments: fc.array(fc.record({ minute: fc.nat(40), text: fc.string({ maxLength: 12 }) }), { maxLength: 1 }),
});

const gmt = (minute: number) =>
  `2026-11-22 ${String(10 + Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00`;
const utc = (minute: number) => `11/22/2026 ${gmt(minute).slice(11)} UTC`;

/** The delta as the proxy's normalizer makes it, for load `base + d.load`. */
function toLoad(d: Delta, base: number): Load {
  const last = Math.max(-1, ...d.pings);
  const detail = {
    loadTrackExternalId: base + d.load,
    ...(last >= 0 && {
      latestLocation: {
        lat: '41.1',
        lon: String(-90 - last / 100),
        accuracy: 10,
        deviceTimeGmt: gmt(last),
        timestampUTC: utc(last),
        city: 'X',
        state: 'Y',
        country: 'US',
      },
    }),
    locations: d.pings.map((m) => ({
      lat: '41.1',
      lon: String(-90 - m / 100),
      deviceTimeGmt: gmt(m),
      accuracy: 10,
      timestamp: '',
    })),
    events: d.events.map((e) => ({ id: e.id, name: e.name, code: 'X', timestampUTC: utc(e.minute) })),
    documents: d.documents.map((doc) => ({
      type: doc.type,
      url: `https://docs.example/${doc.url}`,
      timestamp: '',
      location: {},
    })),
    comments: d.comments.map((c) => ({ comment: c.text, timestampUTC: utc(c.minute), commentBy: 'driver' })),
  };
  const parsed = parsePullAnswer({ status: true, timeStamp: utc(0), details: [detail] });
  if ('error' in parsed) throw new Error(parsed.error);
  const load = normalizeLoad(parsed.data.details[0] as never, 'external-id', 'details[0]');
  if (!load) throw new Error('the delta did not normalize');
  return load;
}

/** As a browser reads it: written out as JSON and read back. */
const asJson = (load: Load | undefined) =>
  load === undefined ? undefined : (JSON.parse(JSON.stringify(load)) as unknown);

const foldInMemory = (loads: Load[]) => {
  const out = new Map<string, Load>();
  for (const l of loads) {
    const before = out.get(l.id);
    out.set(l.id, before ? applyDelta(before, l) : l);
  }
  return out;
};

describe.each(STORE_KINDS)('tracks in the store, on %s', (kind) => {
  let store: Store;
  let close: () => Promise<void>;
  let fence: Fence;
  let run = 0;
  /** Load ids of a run of its own: `base + 0..2`. */
  const nextBase = () => ++run * 10;
  const ids = (base: number) => [0, 1, 2].map((n) => String(base + n));

  beforeAll(async () => {
    ({ store, close } = await openMigratedTestStore(kind));
    const state = await createLease(store.db, { account: 'tracks', holder: 'me', seconds: 600 }).acquire();
    if (!state.held) throw new Error('the lease should be free');
    fence = state.fence;
  }, 60_000);
  afterAll(async () => {
    await close?.();
  });

  it('stored in any order, in any batches, some twice, a track equals applyDelta’s in memory', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(delta, { minLength: 1, maxLength: 10 }),
        fc.array(fc.nat(), { minLength: 10, maxLength: 10 }),
        fc.integer({ min: 1, max: 4 }),
        async (deltas, shuffle, batch) => {
          const base = nextBase();
          const loads = deltas.map((d) => toLoad(d, base));
          const expected = foldInMemory(loads);
          const order = loads
            .map((l, i) => ({ l, r: shuffle[i % shuffle.length] ?? 0, i }))
            .sort((a, b) => a.r - b.r || a.i - b.i)
            .map((x) => x.l);
          // Everything once, out of order, then the first half again: a change the first time at
          // most, never the second.
          for (let i = 0; i < order.length; i += batch)
            await storeDeltas(store.db, fence, order.slice(i, i + batch));
          const again = order.slice(0, Math.ceil(order.length / 2));
          for (let i = 0; i < again.length; i += batch)
            expect((await storeDeltas(store.db, fence, again.slice(i, i + batch))).changed).toEqual([]);
          for (const id of ids(base))
            expect(asJson(await readLoad(store.db, 'external-id', id)), `load ${id}`).toEqual(
              asJson(expected.get(id)),
            );
          // The counts kept with the writes: every item held once, however often it came.
          const held = [...expected]
            .map(([id, l]) => [id, LISTS.reduce((n, list) => n + l[list].length, 0)] as const)
            .filter(([, n]) => n > 0);
          expect(await storedItemCounts(store.db, 'external-id', ids(base))).toEqual(new Map(held));
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);

  it('a browser applying what changed after each cursor ends with the whole track, and gets only changed loads', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(delta, { maxLength: 3 }), { minLength: 1, maxLength: 6 }),
        async (batches) => {
          const base = nextBase();
          const page = new Map<string, Load>();
          let cursor: string | undefined;
          for (const batch of batches) {
            const { changed } = await storeDeltas(
              store.db,
              fence,
              batch.map((d) => toLoad(d, base)),
            );
            const answer = await changesSince(store.db, 'external-id', ids(base), cursor);
            // Only what changed since the last read comes (the first read: all that is known).
            if (cursor !== undefined)
              expect(answer.loads.map((l) => l.id).sort()).toEqual(
                [...new Set(changed.map((c) => c.id))].sort(),
              );
            for (const view of answer.loads) {
              const load = JSON.parse(JSON.stringify(view)) as Load;
              const before = page.get(load.id);
              page.set(load.id, before ? applyDelta(before, load) : load);
            }
            expect(answer.unknown.sort()).toEqual(ids(base).filter((id) => !page.has(id)));
            cursor = answer.cursor;
          }
          for (const id of ids(base))
            expect(asJson(page.get(id)), `load ${id}`).toEqual(
              asJson(await readLoad(store.db, 'external-id', id)),
            );
          // Read again at once: nothing changed, nothing comes.
          expect((await changesSince(store.db, 'external-id', ids(base), cursor)).loads).toEqual([]);
        },
      ),
      { numRuns: 30 },
    );
  }, 120_000);

  it('storing the same delta again changes nothing and is not a change after a cursor', async () => {
    const base = nextBase();
    const load = toLoad(
      { load: 0, pings: [1, 2], events: [], documents: [{ url: 1, type: 'POD' }], comments: [] },
      base,
    );
    const first = await storeDeltas(store.db, fence, [load]);
    expect(first.changed).toEqual([{ by: 'external-id', id: String(base) }]);
    const { cursor } = await changesSince(store.db, 'external-id', [String(base)], undefined);
    const again = await storeDeltas(store.db, fence, [load, load]);
    expect(again.changed).toEqual([]);
    expect(again.seq).toBeGreaterThan(first.seq);
    expect((await changesSince(store.db, 'external-id', [String(base)], cursor)).loads).toEqual([]);
  });

  it('a full answer of unchanged items writes nothing and is no change after a cursor; a changed item is all it writes', async () => {
    const base = nextBase();
    const id = String(base);
    const deltas: Delta[] = [
      { load: 0, pings: [1, 2], events: [{ id: 1, name: 'Loaded', minute: 1 }], documents: [], comments: [] },
      { load: 0, pings: [3, 4], events: [], documents: [{ url: 1, type: 'BOL' }], comments: [] },
      {
        load: 0,
        pings: [5],
        events: [],
        documents: [{ url: 2, type: 'say "hi" \\ à ☃ 🚚' }],
        comments: [{ minute: 5, text: 'ok' }],
      },
    ];
    for (const d of deltas) await storeDeltas(store.db, fence, [toLoad(d, base)]);
    // What the service's full pull answers: the whole track in one load.
    const full = foldInMemory(deltas.map((d) => toLoad(d, base))).get(id) as Load;
    const rows = async () =>
      (
        await sql<{ key: string; version: string }>`
          select key, xmin::text as version from track_items where load_id = ${id}
          union all select '(head)', xmin::text from track_loads where load_id = ${id}
          order by key`.execute(store.db)
      ).rows;
    const before = await rows();
    expect(before).toHaveLength(5 + 1 + 2 + 1 + 1);
    const { cursor } = await changesSince(store.db, 'external-id', [id], undefined);

    // Again, and with a key without a value (as JSON writes it: not there), out of order.
    const sent = { ...full, pings: [...full.pings].reverse() };
    sent.pings[0] = { ...(sent.pings[0] as Load['pings'][number]), note: undefined } as never;
    expect((await storeDeltas(store.db, fence, [sent])).changed).toEqual([]);
    expect(await rows()).toEqual(before);
    expect((await changesSince(store.db, 'external-id', [id], cursor)).loads).toEqual([]);

    // The same full answer with one document corrected: that document is the one item written.
    const corrected = toLoad(
      { ...(deltas[1] as Delta), pings: [], documents: [{ url: 1, type: 'POD' }] },
      base,
    );
    const stored = await storeDeltas(store.db, fence, [
      { ...full, documents: [corrected.documents[0]!, full.documents[1]!] },
    ]);
    expect(stored.changed).toEqual([{ by: 'external-id', id }]);
    const after = await rows();
    expect(after.filter((r, i) => r.version !== before[i]?.version).map((r) => r.key)).toEqual([
      '(head)',
      corrected.documents[0]!.key,
    ]);
    const changes = await changesSince(store.db, 'external-id', [id], cursor);
    expect(
      changes.loads.map((l) => [l.pings.length, l.events.length, l.documents.map((d) => d.type)]),
    ).toEqual([[0, 0, ['POD']]]);
  });

  it('after a cursor, a changed document comes alone, with the load’s latest location', async () => {
    const base = nextBase();
    const id = String(base);
    const d: Delta = {
      load: 0,
      pings: [1, 2, 3],
      events: [],
      documents: [{ url: 1, type: 'BOL' }],
      comments: [],
    };
    await storeDeltas(store.db, fence, [toLoad(d, base)]);
    const { cursor } = await changesSince(store.db, 'external-id', [id], undefined);
    // The same document sent again with its type corrected: the greater version is kept, and sent.
    await storeDeltas(store.db, fence, [
      toLoad({ ...d, pings: [], documents: [{ url: 1, type: 'POD' }] }, base),
    ]);
    const after = await changesSince(store.db, 'external-id', [id], cursor);
    expect(after.loads).toHaveLength(1);
    const [load] = after.loads as [Load];
    expect(load.pings).toEqual([]);
    expect(load.documents.map((doc) => doc.type)).toEqual(['POD']);
    expect(load.latestLocation?.lon).toBe(-90.03);
  });

  it('a full answer serves each load as of its last change: kept between browsers, made again when it changes', async () => {
    const base = nextBase();
    const [a, b] = ids(base) as [string, string];
    const d = (load: number, pings: number[], type = 'BOL'): Delta => ({
      load,
      pings,
      events: [],
      documents: [{ url: 1, type }],
      comments: [],
    });
    await storeDeltas(store.db, fence, [toLoad(d(0, [1, 2]), base), toLoad(d(1, [3]), base)]);
    const tracks = createStoreTracks({ db: store.db, watchMinutes: 10, pullNow: async () => undefined });
    const read = (include?: IncludeFlags, since?: string) =>
      tracks.getJson('external-id', [a, b], include, since);
    // What the answer must be: the loads as the store holds them now, made afresh.
    const truth = async (include?: IncludeFlags) =>
      (await tracks.get('external-id', [a, b], include, undefined)).loads.map((l) => asJson(l as never));
    const json = (answer: ServedJson) => answer.loads.map((l) => JSON.parse(l.toString()) as unknown);

    const first = await read();
    const second = await read();
    expect(json(second)).toEqual(await truth());
    // The same bytes: read and written out once, not once per browser.
    expect(second.loads[0]).toBe(first.loads[0]);
    expect(second.loads[1]).toBe(first.loads[1]);

    // Load a changes (a ping, its document's type corrected); b does not.
    await storeDeltas(store.db, fence, [toLoad(d(0, [4], 'POD'), base)]);
    const third = await read();
    expect(json(third)).toEqual(await truth());
    expect(third.loads[0]).not.toBe(first.loads[0]);
    expect(third.loads[1]).toBe(first.loads[1]);
    expect((json(third)[0] as { pings: unknown[] }).pings).toHaveLength(3);

    // Another set of flags is its own answer: a board's has no pings.
    const board = await read({ locations: false });
    expect(json(board)).toEqual(await truth({ locations: false }));
    expect(JSON.stringify(json(board))).not.toContain('"pings"');
    // After a cursor, only what changed after it: never a load kept whole.
    await storeDeltas(store.db, fence, [toLoad(d(1, [5]), base)]);
    const after = await read(undefined, third.cursor);
    expect(json(after)).toHaveLength(1);
    expect((json(after)[0] as { pings: unknown[] }).pings).toHaveLength(1);
    // A cursor of another store gets everything, as of each load's stamp.
    const foreign = await read(undefined, 'elsewhere.5');
    expect(json(foreign)).toEqual(await truth());
    expect(foreign.loads[0]).toBe(third.loads[0]);
  });

  it('answers kept within their budget: none at 0, the least recently used out first when full', async () => {
    const base = nextBase();
    const [a, b, c] = ids(base) as [string, string, string];
    const d = (load: number, pings: number[]): Delta => ({
      load,
      pings,
      events: [],
      documents: [],
      comments: [],
    });
    await storeDeltas(store.db, fence, [
      toLoad(d(0, [1, 2]), base),
      toLoad(d(1, [3, 4, 5]), base),
      toLoad(d(2, [6]), base),
    ]);
    const json = (answer: ServedJson) => answer.loads.map((l) => JSON.parse(l.toString()) as unknown);
    const open = (answersKeptBytes: number) =>
      createStoreTracks({ db: store.db, watchMinutes: 10, pullNow: async () => undefined, answersKeptBytes });
    const truth = async (of: string[]) =>
      (await open(0).get('external-id', of, undefined, undefined)).loads.map((l) => asJson(l as never));

    // Nothing kept: each answer is made afresh, and is still the store's.
    const none = open(0);
    const first = await none.getJson('external-id', [a, b, c], undefined, undefined);
    const second = await none.getJson('external-id', [a, b, c], undefined, undefined);
    expect(json(second)).toEqual(await truth([a, b, c]));
    for (const i of [0, 1, 2]) expect(second.loads[i]).not.toBe(first.loads[i]);

    // Room for any two of the three loads, not all three.
    const size = first.loads.reduce((sum, l) => sum + l.length, 0) - 1;
    const small = open(size);
    const read = (of: string[]) => small.getJson('external-id', of, undefined, undefined);
    const ab = await read([a, b]);
    // a is read again, so b is now the least recently used: c's entry pushes it out.
    const aAgain = await read([a]);
    expect(aAgain.loads[0]).toBe(ab.loads[0]);
    const cOnly = await read([c]);
    const all = await read([a, b, c]);
    expect(json(all)).toEqual(await truth([a, b, c]));
    expect(all.loads[0]).toBe(ab.loads[0]);
    expect(all.loads[1]).not.toBe(ab.loads[1]);
    expect(all.loads[2]).toBe(cOnly.loads[0]);
  });

  it('a write of a term that is over is refused, and writes nothing', async () => {
    const account = `fenced-${kind}`;
    let t = Date.parse('2026-11-27T03:20:00Z');
    const now = () => t;
    const old = await createLease(store.db, { account, holder: 'old', seconds: 15, now }).acquire();
    if (!old.held) throw new Error('old should hold the lease');
    t += 16_000;
    const fresh = await createLease(store.db, { account, holder: 'new', seconds: 15, now }).acquire();
    expect(fresh.held).toBe(true);
    const base = nextBase();
    const { cursor } = await changesSince(store.db, 'external-id', ids(base), undefined);
    const load = toLoad({ load: 0, pings: [5], events: [], documents: [], comments: [] }, base);
    await expect(storeDeltas(store.db, old.fence, [load], now)).rejects.toBeInstanceOf(LeaseLostError);
    expect(await readLoad(store.db, 'external-id', String(base))).toBeUndefined();
    // Not even a stamp was taken: the clock stands where it stood.
    expect((await changesSince(store.db, 'external-id', ids(base), undefined)).cursor).toBe(cursor);
  });

  it('a cursor it did not give, unreadable or from the future, gets everything; no ids, nothing', async () => {
    const base = nextBase();
    await storeDeltas(store.db, fence, [
      toLoad({ load: 1, pings: [1], events: [], documents: [], comments: [] }, base),
    ]);
    const { cursor } = await changesSince(store.db, 'external-id', ids(base), undefined);
    const [storeId, seq] = [
      cursor.slice(0, cursor.lastIndexOf('.')),
      cursor.slice(cursor.lastIndexOf('.') + 1),
    ];
    for (const bad of [
      '',
      'x',
      `${storeId}.`,
      `${storeId}.-1`,
      `${storeId}.1e3`,
      `${storeId}.${Number(seq) + 5}`,
      `other.${seq}`,
      `${storeId}.99999999999999999999`,
    ]) {
      const answer = await changesSince(store.db, 'external-id', ids(base), bad);
      expect(
        answer.loads.map((l) => l.id),
        bad,
      ).toEqual([String(base + 1)]);
      expect(answer.unknown, bad).toEqual([String(base), String(base + 2)]);
    }
    expect(await changesSince(store.db, 'external-id', [], undefined)).toEqual({
      cursor,
      loads: [],
      notes: new Map(),
      missing: [],
      unknown: [],
      changed: [],
    });
    // An id asked twice comes once; a load number is not an external id.
    expect(
      (await changesSince(store.db, 'external-id', [String(base + 1), String(base + 1)], undefined)).loads,
    ).toHaveLength(1);
    expect((await changesSince(store.db, 'load-number', [String(base + 1)], undefined)).unknown).toEqual([
      String(base + 1),
    ]);
  });

  it('keeps notes and missing loads; a board reads no items; watched tracks read on any instance', async () => {
    const state = await createLease(store.db, {
      account: `notes-${kind}`,
      holder: 'me',
      seconds: 600,
    }).acquire();
    if (!state.held) throw new Error('the lease should be free');
    const base = 7000;
    const ids = [String(base), String(base + 1), String(base + 2)];
    const note = {
      path: 'locations[0].lat',
      kind: 'bad_coordinate' as const,
      message: 'not a number',
      skipped: true,
    };
    const first = toLoad(
      { load: 0, pings: [1, 2], events: [], documents: [{ url: 1, type: 'POD' }], comments: [] },
      base,
    );
    // Load base+1 was never known: a full answer left it out.
    const stored = await storeDeltas(store.db, state.fence, [first], undefined, {
      notes: [{ by: 'external-id', id: String(base), notes: [note] }],
      missing: [{ by: 'external-id', id: String(base + 1) }],
    });
    expect(stored.changed.map((c) => c.id)).toEqual([String(base), String(base + 1)]);
    const all = await changesSince(store.db, 'external-id', ids, undefined);
    expect(all.loads.map((l) => l.id)).toEqual([String(base)]);
    expect(all.notes.get(String(base))).toEqual([note]);
    expect(all.missing).toEqual([String(base + 1)]);
    expect(all.unknown).toEqual([String(base + 2)]);
    // A board asks for no lists: the head alone (latest location), no pings or documents.
    const board = await changesSince(store.db, 'external-id', ids, undefined, []);
    expect(board.loads[0]?.latestLocation).toEqual(first.latestLocation);
    expect(board.loads[0]?.pings).toEqual([]);
    expect(
      (await changesSince(store.db, 'external-id', ids, undefined, ['documents'])).loads[0]?.documents,
    ).toHaveLength(1);

    // The same notes again change nothing; other notes are a change of the load, told after the cursor.
    const again = await storeDeltas(store.db, state.fence, [first], undefined, {
      notes: [{ by: 'external-id', id: String(base), notes: [note] }],
      missing: [{ by: 'external-id', id: String(base + 1) }],
    });
    expect(again.changed).toEqual([]);
    const fixed = await storeDeltas(store.db, state.fence, [first], undefined, {
      notes: [{ by: 'external-id', id: String(base), notes: [] }],
    });
    expect(fixed.changed.map((c) => c.id)).toEqual([String(base)]);
    const later = await changesSince(store.db, 'external-id', ids, all.cursor);
    expect(later.notes.get(String(base))).toEqual([]);
    // Missing is said every time, not only after a change: a browser drops the load.
    expect(later.missing).toEqual([String(base + 1)]);

    // The missing load comes back: a change, served whole.
    const back = toLoad({ load: 1, pings: [5], events: [], documents: [], comments: [] }, base);
    await storeDeltas(store.db, state.fence, [back]);
    const after = await changesSince(store.db, 'external-id', ids, later.cursor);
    expect(after.loads.map((l) => [l.id, l.pings.length])).toEqual([[String(base + 1), 1]]);
    expect(after.missing).toEqual([]);

    // Watched tracks: only loads something watches, with the lists asked for.
    await watchLoads(
      store.db,
      [{ by: 'external-id', id: String(base) }],
      'session',
      new Date(Date.now() + 60_000),
    );
    const watched = (await watchedTracks(store.db, ['documents'])).filter((l) => ids.includes(l.id));
    expect(watched.map((l) => [l.id, l.documents.length, l.pings.length])).toEqual([[String(base), 1, 0]]);
  });

  it('keeps the loads something watches until they expire; a renewal never shortens a watch', async () => {
    const at = Date.parse('2030-01-01T00:00:00Z');
    const a = { by: 'external-id' as const, id: `w-${kind}-a` };
    const b = { by: 'load-number' as const, id: `w-${kind}-b` };
    await watchLoads(store.db, [a, b], 'board', new Date(at + 60_000));
    await watchLoads(store.db, [a], 'session', new Date(at + 10_000));
    // A shorter renewal of the board's watch is ignored.
    await watchLoads(store.db, [b], 'board', new Date(at + 5_000));
    const live = async (ms: number) =>
      (await liveWatchedLoads(store.db, new Date(at + ms))).filter((l) => l.id.startsWith(`w-${kind}-`));
    expect(await live(0)).toEqual([a, b]);
    expect(await live(30_000)).toEqual([a, b]);
    expect(await live(60_000)).toEqual([]);
    await watchLoads(store.db, [a], 'alert', new Date(at + 120_000));
    expect(await live(90_000)).toEqual([a]);
  });

  it('marks the live watches: moved by a watch added or expired, not by a renewal', async () => {
    const at = Date.parse('2031-01-01T00:00:00Z');
    const a = { by: 'external-id' as const, id: `m-${kind}-a` };
    const b = { by: 'external-id' as const, id: `m-${kind}-b` };
    const mark = (ms: number) => watchedMark(store.db, new Date(at + ms));
    await watchLoads(store.db, [a], 'board', new Date(at + 60_000));
    const one = await mark(0);
    await watchLoads(store.db, [a], 'board', new Date(at + 90_000));
    expect(await mark(0)).toBe(one);
    // Another watch of the same load (another reason), then another load: each moves it.
    await watchLoads(store.db, [a], 'alert', new Date(at + 30_000));
    const two = await mark(0);
    expect(two).not.toBe(one);
    await watchLoads(store.db, [b], 'share', new Date(at + 30_000));
    const three = await mark(0);
    expect(new Set([one, two, three]).size).toBe(3);
    // The alert's and the share's watches expire: back to the board's alone.
    expect(await mark(45_000)).toBe(one);
    // One watch in, another out, as many as before: still moved.
    await watchLoads(store.db, [b], 'board', new Date(at + 150_000));
    expect(await mark(95_000)).not.toBe(one);
  });
});

describe.each(STORE_KINDS)('a cursor on %s', (kind) => {
  it('stays valid after a restart, and on a second instance', async () => {
    const database = await createTestDatabase(kind);
    let store = await openStore(database.options);
    try {
      await migrateToLatest(store.db);
      const lease = createLease(store.db, { account: 'restart', holder: 'me', seconds: 600 });
      let state = await lease.acquire();
      if (!state.held) throw new Error('the lease should be free');
      const one = toLoad({ load: 0, pings: [1, 2], events: [], documents: [], comments: [] }, 10);
      await storeDeltas(store.db, state.fence, [one]);
      const { cursor } = await changesSince(store.db, 'external-id', ['10', '11'], undefined);
      await store.close();
      store = await openStore(database.options);
      const second = await openStore(database.options).catch(() => undefined);
      try {
        state = await createLease(store.db, { account: 'restart', holder: 'me', seconds: 600 }).acquire();
        if (!state.held) throw new Error('the lease should be ours');
        await storeDeltas(store.db, state.fence, [
          toLoad({ load: 0, pings: [3], events: [], documents: [], comments: [] }, 10),
        ]);
        for (const reader of second ? [store, second] : [store]) {
          const after = await changesSince(reader.db, 'external-id', ['10', '11'], cursor);
          expect(after.loads.map((l) => l.pings.length)).toEqual([1]);
          expect(after.unknown).toEqual(['11']);
        }
        // PGlite keeps its folder to one process; PostgreSQL serves both.
        expect(second === undefined).toBe(kind === 'pglite');
      } finally {
        await second?.close();
      }
    } finally {
      await store.close();
      await database.drop();
    }
  }, 60_000);
});
