import type { IncludeFlags } from '@/contract/proxy-api';
import type { LoadViewWire } from '@/contract/load-view';
import type { Load, LoadBy } from '@/domain/model';
import type { Kysely } from 'kysely';
import { DEFAULT_ANSWER_CACHE_MB } from '../config';
import { storeUnavailable } from '../errors';
import { INCLUDE_OF, loadView, type ServedJson, type ServedTracks } from '../track-cache';
import type { Database } from '../store/database';
import { changesSince, LISTS, watchedTracks, watchLoads, type Changes } from './track-store';

/**
 * `/api/pull` answered from the track store, on any instance (several instances, issue 35): the
 * loads a request asks for are registered as watched (renewed at most once a minute per load) so the
 * puller keeps pulling them, and the answer is what the store holds, after the browser's cursor. Ids
 * the store holds nothing for yet come back as `pending`; on the puller's own instance they are pulled
 * first, so one instance answers a new board at once, as the in-memory cache does.
 */
export interface StoreTracksOptions {
  db: Kysely<Database>;
  /** How long a load stays pulled after the last request that asked for it. */
  watchMinutes: number;
  /** Pulls loads now where this instance is the puller; undefined elsewhere. */
  pullNow: (by: LoadBy, ids: string[]) => Promise<number | undefined>;
  now?: () => number;
  /** Bytes of serialized loads kept (ANSWERS_KEPT_BYTES by default; 0: none). */
  answersKeptBytes?: number;
}

/** Renewals remembered, beyond which the memory of them starts afresh (renewing each once more). */
const RENEWALS_KEPT = 200_000;

/**
 * Bytes of serialized loads kept for answers with everything (no cursor), least recently used
 * first out: many browsers opening the same board read and write each load once per change.
 */
const ANSWERS_KEPT_BYTES = DEFAULT_ANSWER_CACHE_MB * 2 ** 20;

/** What a set of include flags serves of a load: its lists, then extras, as 0 or 1. */
function includeKey(include: IncludeFlags | undefined): string {
  return (
    LISTS.map((list) => (include?.[INCLUDE_OF[list]] === false ? '0' : '1')).join('') +
    (include?.extras === false ? '0' : '1')
  );
}

/**
 * Serialized loads by (store, load, include flags), each valid for the stamp of the load's last
 * change: any change (items, head, notes, missing and back) takes a new stamp.
 */
function createAnswerCache(maxBytes: number) {
  const kept = new Map<string, { seq: number; bytes: Buffer }>();
  let size = 0;
  const drop = (key: string) => {
    const entry = kept.get(key);
    if (!entry) return;
    kept.delete(key);
    size -= entry.bytes.length;
  };
  return {
    get(key: string, seq: number): Buffer | undefined {
      const entry = kept.get(key);
      if (entry?.seq !== seq) return undefined;
      // Least recently used order: a hit moves to the end.
      kept.delete(key);
      kept.set(key, entry);
      return entry.bytes;
    },
    set(key: string, seq: number, bytes: Buffer): void {
      drop(key);
      if (bytes.length > maxBytes) return;
      kept.set(key, { seq, bytes });
      size += bytes.length;
      for (const oldest of kept.keys()) {
        if (size <= maxBytes) break;
        drop(oldest);
      }
    },
  };
}

const loadsWait = storeUnavailable('the loads are kept there (TRACKS=store)', { waits: 'loads' });

export function createStoreTracks(o: StoreTracksOptions) {
  const now = o.now ?? Date.now;
  const renewedAt = new Map<string, number>();
  const answers = createAnswerCache(o.answersKeptBytes ?? ANSWERS_KEPT_BYTES);

  /** A store call of the loads' own: without the store there are no tracks to serve. */
  async function fromStore<T>(call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (error) {
      return loadsWait(error);
    }
  }

  async function watch(by: LoadBy, ids: string[]): Promise<void> {
    const at = now();
    const due = ids.filter((id) => (renewedAt.get(`${by}:${id}`) ?? Number.NEGATIVE_INFINITY) <= at - 60_000);
    if (due.length === 0) return;
    await watchLoads(
      o.db,
      due.map((id) => ({ by, id })),
      'session',
      { minutes: o.watchMinutes },
    );
    if (renewedAt.size > RENEWALS_KEPT) renewedAt.clear();
    for (const id of due) renewedAt.set(`${by}:${id}`, at);
  }

  async function read(
    by: LoadBy,
    ids: string[],
    include: IncludeFlags | undefined,
    since: string | undefined,
    reuse?: (id: string, seq: number, storeId: string) => boolean,
  ): Promise<{ changes: Changes; upstreamCalls: number }> {
    await fromStore(watch(by, ids));
    const lists = LISTS.filter((list) => include?.[INCLUDE_OF[list]] !== false);
    const changes = await fromStore(changesSince(o.db, by, ids, since, lists, reuse));
    if (changes.unknown.length === 0) return { changes, upstreamCalls: 0 };
    const calls = await o.pullNow(by, changes.unknown);
    if (calls === undefined) return { changes, upstreamCalls: 0 };
    return {
      changes: await fromStore(changesSince(o.db, by, ids, since, lists, reuse)),
      upstreamCalls: calls,
    };
  }

  function served<T>(changes: Changes, upstreamCalls: number, loads: T[]) {
    return {
      cursor: changes.cursor,
      timeStamp: undefined,
      loads,
      missing: changes.missing,
      pending: changes.unknown,
      upstreamCalls,
    };
  }

  async function get(
    by: LoadBy,
    ids: string[],
    include: IncludeFlags | undefined,
    since: string | undefined,
  ): Promise<ServedTracks> {
    const { changes, upstreamCalls } = await read(by, ids, include, since);
    const views: LoadViewWire[] = changes.loads.map((l) =>
      loadView(l, changes.notes.get(l.id) ?? [], include),
    );
    return served(changes, upstreamCalls, views);
  }

  async function getJson(
    by: LoadBy,
    ids: string[],
    include: IncludeFlags | undefined,
    since: string | undefined,
  ): Promise<ServedJson> {
    const flags = includeKey(include);
    // Asked only for an answer with everything (no cursor, or one of another store): then each load
    // is its whole self as of its stamp, kept for the next browser. The buffers are taken as the
    // heads are read, so an eviction meanwhile cannot lose one the store was told is held.
    let full: { storeId: string } | undefined;
    const held = new Map<string, Buffer>();
    const { changes, upstreamCalls } = await read(by, ids, include, since, (id, seq, storeId) => {
      full = { storeId };
      const bytes = answers.get(`${storeId}|${by}|${id}|${flags}`, seq);
      if (bytes) held.set(id, bytes);
      return bytes !== undefined;
    });
    const fresh = changes.loads.values();
    const bytes = changes.changed.map((c) => {
      const kept = c.reused ? held.get(c.id) : undefined;
      if (kept) return kept;
      const load = fresh.next().value as Load;
      const made = Buffer.from(JSON.stringify(loadView(load, changes.notes.get(load.id) ?? [], include)));
      if (full) answers.set(`${full.storeId}|${by}|${c.id}|${flags}`, c.seq, made);
      return made;
    });
    return served(changes, upstreamCalls, bytes);
  }

  /** Every watched load the store holds, with its documents and status events (billing's reports). */
  function held(): Promise<Load[]> {
    return fromStore(watchedTracks(o.db, ['documents', 'events']));
  }

  return { get, getJson, held };
}
