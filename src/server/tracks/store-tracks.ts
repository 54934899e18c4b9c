import type { IncludeFlags } from '@/contract/proxy-api';
import type { LoadViewWire } from '@/contract/load-view';
import type { Load, LoadBy } from '@/domain/model';
import type { Kysely } from 'kysely';
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
}

/** Renewals remembered, beyond which the memory of them starts afresh (renewing each once more). */
const RENEWALS_KEPT = 200_000;

export function createStoreTracks(o: StoreTracksOptions) {
  const now = o.now ?? Date.now;
  const renewedAt = new Map<string, number>();

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
  ): Promise<{ changes: Changes; upstreamCalls: number }> {
    await watch(by, ids);
    const lists = LISTS.filter((list) => include?.[INCLUDE_OF[list]] !== false);
    const changes = await changesSince(o.db, by, ids, since, lists);
    if (changes.unknown.length === 0) return { changes, upstreamCalls: 0 };
    const calls = await o.pullNow(by, changes.unknown);
    if (calls === undefined) return { changes, upstreamCalls: 0 };
    return { changes: await changesSince(o.db, by, ids, since, lists), upstreamCalls: calls };
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
    const { changes, upstreamCalls } = await read(by, ids, include, since);
    const bytes = changes.loads.map((l) =>
      Buffer.from(JSON.stringify(loadView(l, changes.notes.get(l.id) ?? [], include))),
    );
    return served(changes, upstreamCalls, bytes);
  }

  /** Every watched load the store holds, with its documents and status events (billing's reports). */
  function held(): Promise<Load[]> {
    return watchedTracks(o.db, ['documents', 'events']);
  }

  return { get, getJson, held };
}
