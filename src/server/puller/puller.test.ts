import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedTestStore } from '@/testing/test-store';
import type { TrackCache } from '../track-cache';
import type { Store } from '../store/store';
import { watchLoads } from '../tracks/track-store';
import { createLease } from './lease';
import { createPuller } from './puller';

/** A track cache whose every refresh is one upstream call, stored nowhere. */
const fakeCache = {
  refreshLoads: () => Promise.resolve(1),
  expectItems: () => undefined,
  markFull: () => undefined,
  reset: () => undefined,
} as unknown as TrackCache;

describe('the puller’s heap', () => {
  let store: Store;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await openMigratedTestStore('pglite'));
  }, 60_000);
  afterAll(async () => {
    await close?.();
  });

  it('is looked after at the end of each round it pulled in, not while it stands by', async () => {
    await watchLoads(store.db, [{ by: 'external-id', id: 'L-1' }], 'alert', { minutes: 10 });
    const reclaims: number[] = [];
    let round = 0;
    const puller = createPuller({
      db: store.db,
      lease: createLease(store.db, { account: 'reclaim', seconds: 15 }),
      makeCache: () => fakeCache,
      maxLoads: 100,
      log: () => undefined,
      reclaim: () => reclaims.push(round),
    });
    // A standby pulls nothing, so it has nothing to give back.
    await puller.pull();
    expect(reclaims).toEqual([]);
    expect(await puller.renew()).toBe('leader');
    for (round = 1; round <= 3; round++) expect(await puller.pull()).toBe(1);
    expect(reclaims).toEqual([1, 2, 3]);
  });
});
