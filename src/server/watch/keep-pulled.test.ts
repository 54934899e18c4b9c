import { Kysely, PostgresDialect } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CreateShareRequest } from '@/contract/share-api';
import { json, startFakeUpstream } from '@/testing/fake-upstream';
import { manualClock, startStack, type Stack } from '@/testing/stack';
import { openMigratedTestStore, STORE_KINDS } from '@/testing/test-store';
import { saveBoard, deleteBoard } from '../boards/boards';
import { createShare, revokeShare } from '../shares/shares';
import type { Database } from '../store/database';
import type { Store } from '../store/store';
import { boardLoads, startKeepPulled, type KeepPulledJob, type KeepPulledOptions } from './keep-pulled';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Past the cache's fresh window (REFRESH_SECONDS 30 → 15 s): the next round reaches the upstream. */
const ROUND = 30_000;
const SHOWS = { map: true, status: true, stops: true, pod: false };

/** An upstream that knows every load asked of it, and counts each id it was asked for. */
async function countingUpstream() {
  const asked: { by: 'external-id' | 'load-number'; id: string }[] = [];
  let failing = false;
  const upstream = await startFakeUpstream((req, res) => {
    if (failing) return json(res, 500, { status: false, message: 'down' });
    const body = JSON.parse(req.body) as { loadTrackExternalIds?: number[]; loadNumbers?: string[] };
    const external = (body.loadTrackExternalIds ?? []).map(String);
    const numbers = body.loadNumbers ?? [];
    for (const id of external) asked.push({ by: 'external-id', id });
    for (const id of numbers) asked.push({ by: 'load-number', id });
    json(res, 200, {
      status: true,
      details: [
        ...external.map((id) => ({ loadTrackExternalId: Number(id), stops: [] })),
        ...numbers.map((id) => ({ loadNumber: id, stops: [] })),
      ],
    });
  });
  return {
    ...upstream,
    /** How often this id was pulled. */
    pulls: (id: string) => asked.filter((a) => a.id === id).length,
    asked,
    fail: (on: boolean) => (failing = on),
  };
}

describe('boardLoads', () => {
  it("reads a saved board's watch list as the board writes it, ranges and load numbers included", () => {
    expect(boardLoads('?w=e:700100:700102,9;n:LN%201&status=late')).toEqual([
      'e:700100',
      'e:700101',
      'e:700102',
      'e:9',
      'n:LN 1',
    ]);
  });

  it('finds nothing in a board without a watch list, or with one it cannot read', () => {
    expect(boardLoads('')).toEqual([]);
    expect(boardLoads('?status=late')).toEqual([]);
    expect(boardLoads('?w=x:1;e:5:3,%E0%A4%A')).toEqual([]);
  });
});

describe.each(STORE_KINDS)('loads watched with no browser open, on %s', (kind) => {
  let store: Store;
  let closeStore: () => Promise<void>;
  let stack: Stack;
  let upstream: Awaited<ReturnType<typeof countingUpstream>>;
  let job: KeepPulledJob | undefined;
  let logs: string[];
  const clock = manualClock();

  beforeAll(async () => {
    ({ store, close: closeStore } = await openMigratedTestStore(kind));
  }, 60_000);
  afterAll(async () => {
    await closeStore?.();
  });

  const start = async (options: Partial<KeepPulledOptions> = {}) => {
    upstream = await countingUpstream();
    stack = await startStack({ store, now: clock.now, upstream: { baseUrl: upstream.url } });
    logs = [];
    job = startKeepPulled({
      db: store.db,
      cache: stack.cache,
      maxLoads: 5000,
      // Rounds are the test's to run (`pass`), on its clock.
      everyMs: HOUR,
      now: clock.now,
      log: (line) => logs.push(line),
      ...options,
    });
    await job.running();
    return job;
  };
  /** The next round, after the fresh window of the last one. */
  const nextRound = async () => {
    clock.advance(ROUND);
    return (await job?.pass())!;
  };

  afterEach(async () => {
    job?.stop();
    await job?.running();
    job = undefined;
    await stack?.close();
    await upstream?.close();
    await store.db.deleteFrom('share_links').execute();
    await store.db.deleteFrom('saved_boards').execute();
  });

  it('pulls a shared load no browser asked for, every round, until the link is revoked', async () => {
    const { link } = await createShare(
      store.db,
      CreateShareRequest.parse({ loads: ['e:501'], shows: SHOWS }),
      'Bo',
      clock.now(),
    );
    await start();
    expect(upstream.pulls('501')).toBe(1);
    expect(await nextRound()).toMatchObject({ watched: 1, pulled: 1, leftOut: 0 });
    expect(upstream.pulls('501')).toBe(2);

    await revokeShare(store.db, link.id, 'Bo', clock.now());
    expect(await nextRound()).toMatchObject({ watched: 0, pulled: 0 });
    await nextRound();
    expect(upstream.pulls('501')).toBe(2);
    expect(logs).toEqual([]);
  });

  it('stops pulling a shared load once its link has expired', async () => {
    await createShare(
      store.db,
      CreateShareRequest.parse({ loads: ['e:502'], shows: SHOWS, expiry: { kind: 'days', days: 1 } }),
      'Bo',
      clock.now(),
    );
    await start();
    clock.advance(DAY - 2 * ROUND);
    await nextRound();
    expect(upstream.pulls('502')).toBe(2);
    // Now a day old: over.
    expect(await nextRound()).toMatchObject({ watched: 0 });
    await nextRound();
    expect(upstream.pulls('502')).toBe(2);
  });

  it('shares the pull with a browser that just asked for the same load: one call, not two', async () => {
    await createShare(
      store.db,
      CreateShareRequest.parse({ loads: ['e:503'], shows: SHOWS }),
      'Bo',
      clock.now(),
    );
    await start();
    clock.advance(ROUND);
    const response = await stack.post('/api/pull/by-external-id', { ids: ['503'] });
    expect(response.status).toBe(200);
    expect(upstream.pulls('503')).toBe(2);
    await job?.pass();
    expect(upstream.pulls('503')).toBe(2);
  });

  it("pulls a saved board's loads, by external id and load number, until the board is deleted", async () => {
    const board = await saveBoard(
      store.db,
      { name: 'Night', shared: false, search: '?w=e:601:603;n:LN7&status=late' },
      'Ana',
    );
    await start();
    expect(upstream.asked).toEqual(
      expect.arrayContaining([
        { by: 'external-id', id: '601' },
        { by: 'external-id', id: '602' },
        { by: 'external-id', id: '603' },
        { by: 'load-number', id: 'LN7' },
      ]),
    );
    expect(await nextRound()).toMatchObject({ watched: 4, pulled: 4 });
    expect(upstream.pulls('LN7')).toBe(2);

    expect(await deleteBoard(store.db, board.id, { name: 'Ana', role: 'dispatcher' })).toBe(true);
    await nextRound();
    expect(upstream.pulls('601')).toBe(2);
    expect(upstream.pulls('LN7')).toBe(2);
  });

  it("pulls what the extra hook adds (alert rules' loads), once with a share link naming the same load", async () => {
    await createShare(
      store.db,
      CreateShareRequest.parse({ loads: ['e:701'], shows: SHOWS }),
      'Bo',
      clock.now(),
    );
    await start({ extraLoads: async () => ['e:701', 'e:702', 'not a ref'] });
    expect(upstream.pulls('701')).toBe(1);
    expect(upstream.pulls('702')).toBe(1);
    expect(await nextRound()).toMatchObject({ watched: 2 });
  });

  it('keeps at most maxLoads pulled, share links first, and says so once', async () => {
    await saveBoard(store.db, { name: 'Big', shared: true, search: '?w=e:801:803' }, 'Ana');
    await createShare(
      store.db,
      CreateShareRequest.parse({ loads: ['e:900'], shows: SHOWS }),
      'Bo',
      clock.now(),
    );
    await start({ maxLoads: 2 });
    expect(upstream.pulls('900')).toBe(1);
    expect(upstream.pulls('801')).toBe(1);
    expect(upstream.pulls('803')).toBe(0);
    expect(await nextRound()).toMatchObject({ watched: 4, pulled: 2, leftOut: 2 });
    expect(logs).toEqual([
      'Keep-pulled: 4 loads are watched with no browser open, over CACHE_MAX_LOADS=2; 2 are pulled only while a browser shows them',
    ]);
  });

  it('skips a round with one line when the service fails, and pulls again in the next', async () => {
    await createShare(
      store.db,
      CreateShareRequest.parse({ loads: ['e:504'], shows: SHOWS }),
      'Bo',
      clock.now(),
    );
    await start();
    upstream.fail(true);
    expect(await nextRound()).toMatchObject({ skipped: 'upstream' });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/^Keep-pulled: the service did not answer \(.+\); trying again next round$/);
    upstream.fail(false);
    const before = upstream.pulls('504');
    expect(await nextRound()).not.toHaveProperty('skipped');
    expect(upstream.pulls('504')).toBe(before + 1);
  });
});

describe('the job, on a store that stops answering', () => {
  it('skips each round with one line, and neither pulls nor stops', async () => {
    // A pool whose server is gone: every connection refused, as pg says it.
    const gone = new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: {
          connect: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432\n')),
          end: () => Promise.resolve(),
        },
      }),
    });
    const asked: string[] = [];
    const lines: string[] = [];
    const job = startKeepPulled({
      db: gone,
      cache: {
        get: (_by, ids) => {
          asked.push(...ids);
          return Promise.reject(new Error('not reached'));
        },
      },
      maxLoads: 10,
      everyMs: HOUR,
      log: (l) => lines.push(l),
    });
    try {
      expect(await job.running()).toMatchObject({ skipped: 'store', pulled: 0 });
      expect(await job.pass()).toMatchObject({ skipped: 'store' });
    } finally {
      job.stop();
    }
    expect(lines).toEqual([
      'Keep-pulled: the store did not answer (connect ECONNREFUSED 127.0.0.1:5432); skipping this round',
      'Keep-pulled: the store did not answer (connect ECONNREFUSED 127.0.0.1:5432); skipping this round',
    ]);
    expect(asked).toEqual([]);
  });
});
