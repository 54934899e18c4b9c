import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyLoad, testLatestLocation } from '@/testing/loads';
import { asClusterAdmin, openMigratedTestStore, STORE_KINDS, type StoreKind } from '@/testing/test-store';
import { createLease, type Fence } from '../puller/lease';
import type { Store } from '../store/store';
import { storeDeltas } from '../tracks/track-store';
import { storeChangeFeed, type ChangeEvent, type ChangeFeed } from './change-feed';

/** The next event the feed emits. */
const nextEvent = (feed: ChangeFeed) =>
  new Promise<ChangeEvent>((resolve) => {
    const stop = feed.subscribe((e) => {
      stop();
      resolve(e);
    });
  });

/** A store of that kind with the lease held and a feed on it, for the tests of one describe block. */
function feedOn(kind: StoreKind) {
  const t = {
    store: undefined as unknown as Store,
    feed: undefined as unknown as ChangeFeed,
    logs: [] as string[],
    /** A write that changes these loads (each gets a newer latest location). */
    write: (...ids: string[]) =>
      storeDeltas(
        t.store.db,
        fence,
        ids.map((id) =>
          emptyLoad(id, 'external-id', { latestLocation: testLatestLocation(++minute * 60_000) }),
        ),
      ),
  };
  let close: () => Promise<void>;
  let fence: Fence;
  let minute = 0;
  beforeAll(async () => {
    ({ store: t.store, close } = await openMigratedTestStore(kind));
    const state = await createLease(t.store.db, { account: 'feed', holder: 'me', seconds: 600 }).acquire();
    if (!state.held) throw new Error('the lease should be free');
    fence = state.fence;
    t.feed = await storeChangeFeed({ store: t.store, log: (l) => t.logs.push(l), retryMs: 50 });
  }, 60_000);
  afterAll(async () => {
    await t.feed?.stop();
    await close?.();
  });
  return t;
}

describe.each(STORE_KINDS)('the change feed of the tracks, on %s', (kind) => {
  const t = feedOn(kind);

  it('brings a committed write to a subscriber, with the store cursor of its stamp', async () => {
    const next = nextEvent(t.feed);
    const { seq } = await t.write('1', '2');
    const e = await next;
    expect(e.loads).toEqual(
      expect.arrayContaining([
        { by: 'external-id', id: '1' },
        { by: 'external-id', id: '2' },
      ]),
    );
    expect(e.loads).toHaveLength(2);
    expect(e.id).toBe(`${(await t.feed.head())?.split('.')[0]}.${seq}`);
  });

  it('replays what changed after a cursor, and nothing after the latest', async () => {
    const before = await t.feed.head();
    await t.write('3');
    await t.write('4');
    const replay = await t.feed.since(before!);
    if (replay === 'reset') throw new Error('a cursor of this store should replay');
    expect(replay.loads.map((l) => l.id).sort()).toEqual(['3', '4']);
    expect(await t.feed.since(replay.id)).toEqual({ id: replay.id, loads: [] });
  });

  it('answers reset to a cursor of another store, from its future, or unreadable', async () => {
    const head = (await t.feed.head())!;
    const [storeId, seq] = [head.slice(0, head.lastIndexOf('.')), head.slice(head.lastIndexOf('.') + 1)];
    for (const bad of [
      '',
      'x',
      `other.${seq}`,
      `${storeId}.${Number(seq) + 5}`,
      `${storeId}.-1`,
      `${storeId}.`,
    ])
      expect(await t.feed.since(bad), bad).toBe('reset');
  });
});

describe('the change feed on a PostgreSQL server', () => {
  const t = feedOn('postgres');

  it('listens again after its connection is lost, and brings what was written meanwhile', async () => {
    const first = nextEvent(t.feed);
    await t.write('1');
    await first;
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and query ilike 'listen %'`.execute(t.store.db);
    // Written while nobody listens (or just after): it comes once the feed listens again.
    const next = nextEvent(t.feed);
    await t.write('5');
    expect((await next).loads).toEqual([{ by: 'external-id', id: '5' }]);
    expect(t.logs.filter((l) => l.startsWith('change feed: LISTEN haulview_tracks lost'))).toHaveLength(1);
  });

  it('says a lasting outage once, and when it listens again', async () => {
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(t.store.db);
    const name = rows[0]!.name;
    const said = t.logs.length;
    let downs = 0;
    const off = t.feed.onDown!(() => downs++);
    expect(t.feed.down!()).toBe(false);
    await asClusterAdmin(`alter database ${name} allow_connections false`);
    try {
      await asClusterAdmin(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}'`,
      );
      // Many retries (the feed's `retryMs` is short here) while the database refuses connections.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      // Streams are told once, and a new one knows it is down.
      expect(downs).toBe(1);
      expect(t.feed.down!()).toBe(true);
    } finally {
      await asClusterAdmin(`alter database ${name} allow_connections true`);
    }
    const next = nextEvent(t.feed);
    await t.write('6');
    expect((await next).loads).toEqual([{ by: 'external-id', id: '6' }]);
    const lines = t.logs.slice(said).filter((l) => l.startsWith('change feed: '));
    expect(lines.filter((l) => l.includes('lost'))).toHaveLength(1);
    expect(lines.at(-1)).toBe('change feed: listening on haulview_tracks again');
    expect(t.feed.down!()).toBe(false);
    off();
  });
});
