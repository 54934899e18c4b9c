import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedTestStore } from '@/testing/test-store';
import type { TrackCache } from '../track-cache';
import type { Store } from '../store/store';
import { watchLoads } from '../tracks/track-store';
import { createLease } from './lease';
import { createPuller } from './puller';

/** A track cache whose every refresh brings `perRound` items (nothing is stored). */
function fakeCache(perRound: number) {
  let pulled = 0;
  const cache = {
    refreshLoads: () => {
      pulled += perRound;
      return Promise.resolve(1);
    },
    expectItems: () => undefined,
    markFull: () => undefined,
    reset: () => undefined,
    itemsPulled: () => pulled,
  };
  return cache as unknown as TrackCache;
}

describe('the puller’s heap after large pulls', () => {
  let store: Store;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await openMigratedTestStore('pglite'));
  }, 60_000);
  afterAll(async () => {
    await close?.();
  });

  it('is compacted at the end of each round that passes another `afterItems` pulled, and only then', async () => {
    await watchLoads(store.db, [{ by: 'external-id', id: 'L-1' }], 'alert', { minutes: 10 });
    const reclaimedAfter: number[] = [];
    let round = 0;
    const puller = createPuller({
      db: store.db,
      lease: createLease(store.db, { account: 'reclaim', seconds: 15 }),
      makeCache: () => fakeCache(200_000),
      maxLoads: 100,
      log: () => undefined,
      reclaim: { afterItems: 500_000, run: () => reclaimedAfter.push(round) },
    });
    // A standby pulls nothing, so it has nothing to give back.
    await puller.pull();
    expect(reclaimedAfter).toEqual([]);
    expect(await puller.renew()).toBe('leader');
    for (round = 1; round <= 7; round++) expect(await puller.pull()).toBe(1);
    // 600,000 items after the third round, 1,200,000 after the sixth.
    expect(reclaimedAfter).toEqual([3, 6]);
  });
});
