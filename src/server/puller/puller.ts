import type { Kysely, Transaction } from 'kysely';
import type { LoadBy } from '@/domain/model';
import type { PersistedAnswer, TrackCache } from '../track-cache';
import type { Database } from '../store/database';
import {
  liveWatchedLoads,
  markForResync,
  watchedMark,
  storedItemCounts,
  storeDeltas,
  takeResyncs,
} from '../tracks/track-store';
import { checkFence, LeaseLostError, type Fence, type Lease } from './lease';

/**
 * The one instance that pulls the service for every instance (issue 35): while it holds the account's
 * lease, it pulls the loads something watches (`watched_loads`) through its own track cache, and every
 * answer is written to the track store, fenced by its term, before the pull counts as done. The
 * others serve from the store. A new term starts with every load pulled in full: a delta the last
 * holder took from the service may not have been stored.
 */
export interface PullerOptions {
  db: Kysely<Database>;
  lease: Lease;
  /**
   * Makes the puller's track cache, given the write that stores each answer and `fenced`, which runs
   * any other write of the cache's (a trip's stops) in a transaction checked against the term.
   */
  makeCache: (persist: (by: LoadBy, answer: PersistedAnswer) => Promise<void>, fenced: Fenced) => TrackCache;
  /** At most this many watched loads are pulled; the rest wait (said once in the log). */
  maxLoads: number;
  log: (line: string) => void;
  /** The clock the fence is checked by (tests); the database's by default. */
  now?: () => number;
}

export type PullerRole = 'leader' | 'standby' | 'starting';

/** Runs a write in a transaction that first checks this instance's term (refused when it has none). */
export type Fenced = <T>(write: (trx: Transaction<Database>) => Promise<T>) => Promise<T>;

export function createPuller(o: PullerOptions) {
  let fence: Fence | undefined;
  let role: PullerRole = 'starting';
  let lastProblem: string | undefined;
  let saidTooMany = false;
  /** A new term's first round: its cache is empty, and learns from the store what each load holds. */
  let countsDue = false;
  /** The watched loads as last read, and the mark they were read at (read again when it moves). */
  let watchedList: { by: LoadBy; id: string }[] = [];
  let watchedAt: string | undefined;
  /** The ids pulled of each operation, made again only when the watched loads change. */
  let pulledIds = new Map<LoadBy, string[]>();

  // One write at a time: the store takes its stamps one transaction after another anyway, and
  // writes queued there would hold the pool's connections from the requests this instance serves.
  let writing: Promise<unknown> = Promise.resolve();
  const cache = o.makeCache(async (by, answer) => {
    const term = fence;
    try {
      if (term === undefined) throw new NotLeaderError();
      const write = writing.then(() =>
        storeDeltas(o.db, term, answer.loads, o.now, { notes: answer.notes, missing: answer.missing }),
      );
      writing = write.catch(() => undefined);
      await write;
    } catch (error) {
      // The service's cursor moved past what was not stored: whoever leads next pulls these in full.
      await markForResync(
        o.db,
        answer.loads.map((l) => ({ by, id: l.id })),
      ).catch(() => undefined);
      throw error;
    }
  }, fenced);

  // A paused old leader must not write what the new one may have written since.
  async function fenced<T>(write: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    const term = fence;
    if (term === undefined) throw new NotLeaderError();
    return o.db.transaction().execute(async (trx) => {
      await checkFence(trx, term, o.now);
      return write(trx);
    });
  }

  function stepDown(why: string): void {
    if (fence !== undefined) o.log(`Puller: no longer pulling (${why})`);
    fence = undefined;
    role = 'standby';
    cache.reset();
  }

  function problem(line: string): void {
    if (line !== lastProblem) o.log(line);
    lastProblem = line;
  }

  /** Takes or renews the lease (call it every third of LEASE_SECONDS); the role after it. */
  async function renew(): Promise<PullerRole> {
    try {
      const state = await o.lease.acquire();
      if (state.held) {
        if (state.newTerm) {
          cache.reset();
          countsDue = true;
          // Not the account: its key holds the encrypted account id, a credential.
          o.log(`Puller: this instance pulls for the partner account (term ${state.fence.epoch})`);
        }
        fence = state.fence;
        role = 'leader';
      } else if (fence !== undefined) stepDown(`the lease is held by ${state.holder}`);
      else role = 'standby';
    } catch (error) {
      // Without the store no answer could be written: whoever holds the lease next starts afresh.
      if (fence !== undefined) stepDown(`the store does not answer: ${(error as Error).message}`);
      else problem(`Puller: the store does not answer: ${(error as Error).message}`);
    }
    return role;
  }

  /** One round while leader: the watched loads that are due, pulled and stored; the upstream calls made. */
  async function pull(): Promise<number> {
    if (fence === undefined) return 0;
    let watched: { by: LoadBy; id: string }[];
    try {
      for (const lost of await takeResyncs(o.db)) cache.markFull(lost.by, [lost.id]);
      const mark = await watchedMark(o.db);
      if (mark !== watchedAt) {
        watchedList = await liveWatchedLoads(o.db);
        watchedAt = mark;
        pulledIds = idsByKind(watchedList.slice(0, o.maxLoads));
      }
      watched = watchedList;
    } catch (error) {
      problem(`Puller: could not read the watched loads: ${(error as Error).message}`);
      return 0;
    }
    if (watched.length > o.maxLoads && !saidTooMany) {
      o.log(
        `Puller: ${watched.length} loads are watched; the first ${o.maxLoads} are pulled (PULLER_MAX_LOADS)`,
      );
      saidTooMany = true;
    }
    // Kept from round to round: a round comes every second, with every watched load.
    const byKind = pulledIds;
    if (countsDue) {
      // Every load is pulled in full now: sized by what the store holds of each, no chunk of long
      // tracks is refused as too large and pulled again in halves.
      try {
        for (const [by, ids] of byKind) cache.expectItems(by, await storedItemCounts(o.db, by, ids));
        countsDue = false;
      } catch (error) {
        problem(`Puller: could not read the stored tracks' sizes: ${(error as Error).message}`);
      }
    }
    let calls = 0;
    for (const [by, ids] of byKind) calls += await pullLoads(by, ids);
    return calls;
  }

  /**
   * Pulls these loads now when this instance leads (a first request for loads the store does not hold
   * yet is answered at once); undefined on a standby, whose loads the leader pulls within a round.
   */
  async function pullLoads(by: LoadBy, ids: string[]): Promise<number> {
    if (fence === undefined) return 0;
    try {
      const calls = await cache.refreshLoads(by, ids);
      lastProblem = undefined;
      return calls;
    } catch (error) {
      if (error instanceof LeaseLostError || error instanceof NotLeaderError) stepDown('its term ended');
      else
        problem(
          `Puller: a pull failed (${(error as Error).message}); its loads are pulled in full next time`,
        );
      return 0;
    }
  }

  return {
    cache,
    renew,
    pull,
    pullLoads,
    role: () => role,
    isLeader: () => fence !== undefined,
    /** Gives the lease up (a shutdown), so another instance need not wait for it to expire. */
    release: async () => {
      fence = undefined;
      role = 'standby';
      await o.lease.release();
    },
  };
}

export type Puller = ReturnType<typeof createPuller>;

/** The ids of each operation, in the order given. */
function idsByKind(loads: readonly { by: LoadBy; id: string }[]): Map<LoadBy, string[]> {
  const byKind = new Map<LoadBy, string[]>();
  for (const w of loads) {
    let ids = byKind.get(w.by);
    if (!ids) byKind.set(w.by, (ids = []));
    ids.push(w.id);
  }
  return byKind;
}

/** A write after this instance stepped down. */
class NotLeaderError extends Error {
  constructor() {
    super('this instance does not hold the puller lease');
    this.name = 'NotLeaderError';
  }
}

/**
 * Runs the puller: the lease renewed every third of its term (asked for every round while another
 * holds it), and a round of pulls every `roundMs`
 * (the cache pulls only the loads that are due). `stop` ends both and gives the lease up.
 */
export function startPuller(puller: Puller, o: { leaseSeconds: number; roundMs: number }) {
  let stopped = false;
  const runs = new Set<Promise<unknown>>();
  const loop = (everyMs: () => number, work: () => Promise<unknown>) => {
    let timer: NodeJS.Timeout | undefined;
    const go = () => {
      if (stopped) return;
      const run = work().finally(() => {
        runs.delete(run);
        if (!stopped) timer = setTimeout(go, everyMs()).unref();
      });
      runs.add(run);
    };
    go();
    return () => clearTimeout(timer);
  };
  // The holder renews every third of its term; the others ask every round, so one of them takes
  // over within a round of the expiry, not a third of a term later.
  const stopLease = loop(
    () =>
      puller.isLeader() ? (o.leaseSeconds * 1000) / 3 : Math.min(o.roundMs, (o.leaseSeconds * 1000) / 3),
    puller.renew,
  );
  const stopPulls = loop(() => o.roundMs, puller.pull);
  return {
    async stop(): Promise<void> {
      stopped = true;
      stopLease();
      stopPulls();
      await Promise.allSettled([...runs]);
      await puller.release().catch(() => undefined);
    },
  };
}
