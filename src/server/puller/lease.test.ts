import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openMigratedTestStore, STORE_KINDS } from '@/testing/test-store';
import type { Transaction } from 'kysely';
import type { Database } from '../store/database';
import type { Store } from '../store/store';
import { checkFence, createLease, LeaseLostError, type Fence } from './lease';

const SECONDS = 15;

describe.each(STORE_KINDS)('the puller’s lease, on %s', (kind) => {
  let store: Store;
  let close: () => Promise<void>;
  let t = 0;
  const now = () => t;
  let account: string;
  let n = 0;
  beforeAll(async () => {
    ({ store, close } = await openMigratedTestStore(kind));
  }, 60_000);
  afterAll(async () => {
    await close?.();
  });
  beforeEach(() => {
    t = Date.parse('2026-11-27T03:20:00Z');
    account = `account-${++n}`;
  });

  const lease = (holder: string) => createLease(store.db, { account, holder, seconds: SECONDS, now });
  /** A write of the puller: a watched load registered, in a transaction that checks its term first. */
  const fencedWrite = (fence: Fence, id: string) =>
    store.db.transaction().execute(async (trx) => {
      await checkFence(trx, fence, now);
      await trx
        .insertInto('watched_loads')
        .values({ load_by: 'external-id', load_id: id, why: 'alert', expires_at: new Date(t + 60_000) })
        .execute();
    });
  const written = async (id: string) =>
    (await store.db.selectFrom('watched_loads').select('load_id').where('load_id', '=', id).execute()).length;

  it('two instances contend: exactly one holds it, the other is told who does', async () => {
    const [a, b] = [lease('a'), lease('b')];
    const states = await Promise.all([a.acquire(), b.acquire()]);
    expect(states.filter((s) => s.held)).toHaveLength(1);
    const loser = states.find((s) => !s.held);
    const winner = states.find((s) => s.held);
    expect(loser).toMatchObject({ held: false, holder: winner?.held ? winner.fence.holder : 'none' });
    // Asking again changes nothing: the holder renews its term, the other still waits.
    const again = await Promise.all([a.acquire(), b.acquire()]);
    expect(again.map((s) => s.held)).toEqual(states.map((s) => s.held));
    const renewed = again.find((s) => s.held);
    expect(renewed?.held && renewed.newTerm).toBe(false);
  });

  it('a renewal keeps the term alive past the first expiry; another takes over only once it expired', async () => {
    const [a, b] = [lease('a'), lease('b')];
    const first = await a.acquire();
    expect(first).toMatchObject({ held: true, newTerm: true, fence: { epoch: '1' } });
    t += 10_000;
    await a.acquire();
    t += 10_000;
    // 20 s after the first take, 10 after the renewal: still a's.
    expect(await b.acquire()).toMatchObject({ held: false, holder: 'a' });
    t += SECONDS * 1000;
    const taken = await b.acquire();
    expect(taken).toMatchObject({ held: true, newTerm: true, fence: { holder: 'b', epoch: '2' } });
    // The old holder, back, finds it taken.
    expect(await a.acquire()).toMatchObject({ held: false, holder: 'b' });
  });

  it('a paused leader that lost the lease cannot write; the new one can', async () => {
    const [a, b] = [lease('a'), lease('b')];
    const old = await a.acquire();
    if (!old.held) throw new Error('a should hold the lease');
    await fencedWrite(old.fence, `${account}-before`);
    // a stops for longer than its term (a long pause), and b takes over meanwhile.
    t += (SECONDS + 1) * 1000;
    const fresh = await b.acquire();
    if (!fresh.held) throw new Error('b should hold the lease');
    await expect(fencedWrite(old.fence, `${account}-stale`)).rejects.toBeInstanceOf(LeaseLostError);
    await fencedWrite(fresh.fence, `${account}-after`);
    expect([
      await written(`${account}-before`),
      await written(`${account}-stale`),
      await written(`${account}-after`),
    ]).toEqual([1, 0, 1]);
  });

  it('an expired term cannot write even before anyone took over, and its renewal is a new term', async () => {
    const a = lease('a');
    const first = await a.acquire();
    if (!first.held) throw new Error('a should hold the lease');
    t += (SECONDS + 1) * 1000;
    await expect(fencedWrite(first.fence, `${account}-late`)).rejects.toBeInstanceOf(LeaseLostError);
    const again = await a.acquire();
    // Its writes were refused meanwhile: a new epoch tells the puller to pull in full.
    expect(again).toMatchObject({ held: true, newTerm: true, fence: { epoch: '2' } });
    expect(await written(`${account}-late`)).toBe(0);
  });

  it('release hands the lease over at once, with a greater epoch', async () => {
    const [a, b] = [lease('a'), lease('b')];
    const first = await a.acquire();
    if (!first.held) throw new Error('a should hold the lease');
    await a.release();
    await expect(fencedWrite(first.fence, `${account}-released`)).rejects.toBeInstanceOf(LeaseLostError);
    expect(await b.acquire()).toMatchObject({
      held: true,
      newTerm: true,
      fence: { holder: 'b', epoch: '2' },
    });
    // Releasing a lease another holds does nothing.
    await a.release();
    expect(await b.acquire()).toMatchObject({ held: true, newTerm: false, fence: { epoch: '2' } });
  });
});

/**
 * Writes under way never hold a renewal or a takeover up (PostgreSQL: PGlite has one connection, so
 * nothing runs beside a transaction there).
 */
describe('the puller’s lease beside writes under way, on PostgreSQL', () => {
  let store: Store;
  let close: () => Promise<void>;
  let t = Date.parse('2026-11-27T03:20:00Z');
  const now = () => t;
  beforeAll(async () => {
    ({ store, close } = await openMigratedTestStore('postgres'));
  }, 60_000);
  afterAll(async () => {
    await close?.();
  });
  const lease = (account: string, holder: string) =>
    createLease(store.db, { account, holder, seconds: SECONDS, now });
  const insert = (trx: Transaction<Database>, id: string) =>
    trx
      .insertInto('watched_loads')
      .values({ load_by: 'external-id', load_id: id, why: 'alert', expires_at: new Date(t + 60_000) })
      .execute();
  const written = async (id: string) =>
    (await store.db.selectFrom('watched_loads').select('load_id').where('load_id', '=', id).execute()).length;

  it('a renewal does not wait for a write under way, and keeps the term', async () => {
    const a = lease('renew', 'a');
    const first = await a.acquire();
    if (!first.held) throw new Error('a should hold the lease');
    const renewed = await store.db.transaction().execute(async (trx) => {
      await checkFence(trx, first.fence, now);
      // On another connection, while this write is under way: it would wait for the commit, which
      // waits for it, if the check held the row against updates.
      const again = await a.acquire();
      await insert(trx, 'renew-during');
      return again;
    });
    expect(renewed).toMatchObject({ held: true, newTerm: false, fence: first.fence });
    expect(await written('renew-during')).toBe(1);
  });

  it('a takeover does not wait either; the write that passed its check still lands, later ones not', async () => {
    const [a, b] = [lease('takeover', 'a'), lease('takeover', 'b')];
    const old = await a.acquire();
    if (!old.held) throw new Error('a should hold the lease');
    const taken = await store.db.transaction().execute(async (trx) => {
      await checkFence(trx, old.fence, now);
      // a stalls past its term; b takes over meanwhile.
      t += (SECONDS + 1) * 1000;
      const state = await b.acquire();
      // What a took from the service before it stalled is stored: merges are order-free.
      await insert(trx, 'takeover-inflight');
      return state;
    });
    expect(taken).toMatchObject({ held: true, newTerm: true, fence: { holder: 'b', epoch: '2' } });
    expect(await written('takeover-inflight')).toBe(1);
    await expect(
      store.db.transaction().execute(async (trx) => {
        await checkFence(trx, old.fence, now);
        await insert(trx, 'takeover-stale');
      }),
    ).rejects.toBeInstanceOf(LeaseLostError);
    expect(await written('takeover-stale')).toBe(0);
  });
});
