import type { Kysely } from 'kysely';
import type { LoadViewWire } from '@/contract/load-view';
import type { LoadBy } from '@/domain/model';
import { decodeWatch, REF_PREFIX, WATCH_PARAM } from '@/domain/watch-text';
import { afterDeliveryEnd, endShareAt, liveShares, type LiveShare } from '../shares/shares';
import type { Database } from '../store/database';
import type { TrackSource } from '../track-cache';

/**
 * Loads that something watches with no browser open, kept pulled through the track cache: the loads
 * of live share links (a customer may open the page at 3 a.m.), of saved boards, and whatever
 * `extraLoads` adds (alert rules). The cache's own `get` does the pulling, so a load a browser
 * refreshed a moment ago is not pulled again, and one chunk's call serves both.
 */
export interface KeepPulledOptions {
  db: Kysely<Database>;
  cache: Pick<TrackSource, 'get'>;
  /** At most this many loads are kept pulled (CACHE_MAX_LOADS): share links first, then extras, then boards. */
  maxLoads: number;
  everyMs: number;
  /** More load references (`e:ID`, `n:ID`) to keep pulled, such as those of alert rules. */
  extraLoads?: () => Promise<string[]>;
  now?: () => number;
  log?: (line: string) => void;
}

export interface KeepPulledRound {
  /** Loads watched with no browser, before the cap. */
  watched: number;
  /** Loads asked of the cache this round. */
  pulled: number;
  /** Loads past the cap, left to the browsers that open them. */
  leftOut: number;
  /** After-delivery share links whose end this round learnt: their loads were all delivered. */
  dated: number;
  /** Why the round stopped short, if it did. */
  skipped?: 'store' | 'upstream';
}

export interface KeepPulledJob {
  /** Runs a round now, unless one is under way; resolves with that round (never rejects). */
  pass: () => Promise<KeepPulledRound>;
  /** The round under way, or the last one. */
  running: () => Promise<KeepPulledRound | undefined>;
  stop: () => void;
}

const oneLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();

/** The loads a saved board watches: its address query's watch list. */
export function boardLoads(search: string): string[] {
  const text = new URLSearchParams(search).get(WATCH_PARAM);
  return text === null ? [] : decodeWatch(text).map((r) => `${REF_PREFIX[r.by]}:${r.id}`);
}

function byOfRef(ref: string): LoadBy | undefined {
  if (ref.startsWith(`${REF_PREFIX['external-id']}:`)) return 'external-id';
  if (ref.startsWith(`${REF_PREFIX['load-number']}:`)) return 'load-number';
  return undefined;
}

/** What is watched now, in the order the cap keeps it. */
async function watchedNow(
  o: KeepPulledOptions,
  at: number,
): Promise<{ refs: string[]; shares: LiveShare[] }> {
  const shares = await liveShares(o.db, at);
  const boards = await o.db.selectFrom('saved_boards').select('search').orderBy('id').execute();
  const extra = o.extraLoads ? await o.extraLoads() : [];
  const refs = new Set<string>();
  for (const ref of [
    ...shares.flatMap((s) => s.loads),
    ...extra,
    ...boards.flatMap((b) => boardLoads(b.search)),
  ])
    if (byOfRef(ref)) refs.add(ref);
  return { refs: [...refs], shares };
}

/**
 * What a round reads of each load: its head and outlook (an after-delivery link's end), no item lists;
 * the pull itself still brings everything.
 */
const HEADS_ONLY = {
  locations: false,
  events: false,
  comments: false,
  documents: false,
  temperatures: false,
} as const;

/** One round: read what is watched, pull it through the cache, end after-delivery links that are over. */
export async function keepPulledRound(
  o: KeepPulledOptions,
  log: (line: string) => void,
): Promise<KeepPulledRound> {
  const at = (o.now ?? Date.now)();
  let watched: Awaited<ReturnType<typeof watchedNow>>;
  try {
    watched = await watchedNow(o, at);
  } catch (error) {
    log(`Keep-pulled: the store did not answer (${oneLine(error)}); skipping this round`);
    return { watched: 0, pulled: 0, leftOut: 0, dated: 0, skipped: 'store' };
  }
  const kept = watched.refs.slice(0, o.maxLoads);
  const round: KeepPulledRound = {
    watched: watched.refs.length,
    pulled: kept.length,
    leftOut: watched.refs.length - kept.length,
    dated: 0,
  };
  const found = new Map<string, LoadViewWire>();
  for (const by of ['external-id', 'load-number'] as const) {
    const prefix = `${REF_PREFIX[by]}:`;
    const ids = kept.filter((r) => r.startsWith(prefix)).map((r) => r.slice(2));
    if (ids.length === 0) continue;
    try {
      const served = await o.cache.get(by, ids, HEADS_ONLY, undefined);
      for (const load of served.loads) found.set(`${prefix}${load.id}`, load);
    } catch (error) {
      // The cache marked what it could not pull for a full pull; the next round tries again.
      log(`Keep-pulled: the service did not answer (${oneLine(error)}); trying again next round`);
      round.skipped = 'upstream';
    }
  }
  // An after-delivery link ends when a customer opens it too late, or here: otherwise its loads
  // would be pulled until its cap of days, long after nobody may open it.
  for (const share of watched.shares) {
    if (share.afterDeliveryDays === null) continue;
    const loads = share.loads.flatMap((ref) => found.get(ref) ?? []);
    const end = afterDeliveryEnd(share.afterDeliveryDays, loads, share.loads.length, share.createdAt);
    // Known and kept already: no write each round.
    if (end === undefined || end >= share.expiresAt) continue;
    try {
      // Kept as soon as it is known: a later trip under the same ids cannot push it back.
      if (await endShareAt(o.db, share.id, end)) round.dated++;
    } catch (error) {
      log(
        `Keep-pulled: the store did not answer (${oneLine(error)}); share link ${share.id} ends next round`,
      );
    }
  }
  return round;
}

/**
 * Runs `keepPulledRound` now and then every `everyMs` (REFRESH_SECONDS), on a timer that does not
 * keep the process alive. A round still running when the next is due is not doubled. Past the cap,
 * the loads left out are said in one line when their number changes, not every round.
 */
export function startKeepPulled(o: KeepPulledOptions): KeepPulledJob {
  const log = o.log ?? ((line: string) => console.log(line));
  let current: Promise<KeepPulledRound> | undefined;
  let last: Promise<KeepPulledRound> | undefined;
  let leftOutSaid = 0;
  const pass = () => {
    current ??= keepPulledRound(o, log)
      .then((round) => {
        if (round.skipped !== 'store' && round.leftOut !== leftOutSaid) {
          leftOutSaid = round.leftOut;
          if (round.leftOut > 0)
            log(
              `Keep-pulled: ${round.watched} loads are watched with no browser open, over CACHE_MAX_LOADS=${o.maxLoads}; ${round.leftOut} are pulled only while a browser shows them`,
            );
        }
        return round;
      })
      .finally(() => {
        last = current;
        current = undefined;
      });
    return current;
  };
  void pass();
  const timer = setInterval(() => void pass(), o.everyMs);
  timer.unref();
  return {
    pass,
    running: () => current ?? last ?? Promise.resolve(undefined),
    stop: () => clearInterval(timer),
  };
}
