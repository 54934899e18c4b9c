import { queryOptions } from '@tanstack/react-query';
import { ClientConfig, type IncludeFlags } from '@/contract/proxy-api';
import type { ParseIssue } from '@/contract/parse-issue';
import type { Load, LoadBy } from '@/domain/model';
import { mergeLoads } from '@/domain/merge';
import { apiGet } from './api-client';
import { pullLoads, type PulledLoads } from './pull-answer';
import { pullsOffPage } from './pull-thread';

/** A polled view of many loads, as the last answers left it. */
export type BoardData = PulledLoads;

export interface DetailData {
  load: Load | null;
  /** The proxy's cursor: the next refresh asks only for what came after it. */
  cursor: string;
  missing: boolean;
  unreadable: ParseIssue[];
}

const BOARD_INCLUDE: IncludeFlags = {
  locations: false,
  events: false,
  documents: false,
  comments: false,
  temperatures: false,
};
const DOCUMENTS_INCLUDE: IncludeFlags = { ...BOARD_INCLUDE, documents: true };
/** One load's track: every list but a reefer's readings, which come in their own answer. */
const TRACK_INCLUDE: IncludeFlags = { temperatures: false };
const READINGS_INCLUDE: IncludeFlags = { ...BOARD_INCLUDE, temperatures: true };
/** What each view of many loads asks the proxy for. */
const VIEW_INCLUDE = { board: BOARD_INCLUDE, documents: DOCUMENTS_INCLUDE } as const;

/**
 * An answer to a poll with a cursor holds only the loads that changed after it: every other load
 * asked for, and not reported missing, is as it was. They are kept, in their order, with the changed
 * ones in their places. The changed ones carry only new items: `shareBoard`, which every answer goes
 * through (the queries' structuralSharing), merges each into the load it had, once.
 */
export function withUnchanged(previous: BoardData, delta: BoardData, ids: readonly string[]): BoardData {
  const unreadable = delta.unreadable.length > 0 ? delta.unreadable : previous.unreadable;
  // Mostly the changed loads are all known and none went missing: each takes its old place in a copy
  // of the list, and the 9,000 others are not looked at one by one.
  const places = placesOf(previous.loads);
  const inPlace = delta.missing.every((id) => !places.has(id)) && delta.loads.every((l) => places.has(l.id));
  if (inPlace) {
    const loads = previous.loads.slice();
    for (const load of delta.loads) loads[places.get(load.id) as number] = load;
    // The same ids in the same places: the new list shares the old one's index.
    loadPlaces.set(loads, places);
    return { ...delta, loads, unreadable };
  }
  const changed = new Map(delta.loads.map((l) => [l.id, l]));
  const gone = new Set(delta.missing);
  const asked = idSet(ids);
  const loads: Load[] = [];
  for (const before of previous.loads) {
    if (gone.has(before.id) || !asked.has(before.id)) continue;
    loads.push(changed.get(before.id) ?? before);
    changed.delete(before.id);
  }
  loads.push(...changed.values());
  // An unreadable load has no id to keep it by: what the last answer that had any said stands.
  return { ...delta, loads, unreadable };
}

/** Each load's place in a list, by id; made once per list, and handed on to a list patched in place. */
const loadPlaces = new WeakMap<readonly Load[], ReadonlyMap<string, number>>();
function placesOf(loads: readonly Load[]): ReadonlyMap<string, number> {
  let places = loadPlaces.get(loads);
  if (!places) loadPlaces.set(loads, (places = new Map(loads.map((l, i) => [l.id, i]))));
  return places;
}

/** The ids of a watch list as a set, made once per list (every poll of 10,000 loads asks with it). */
const idSets = new WeakMap<readonly string[], ReadonlySet<string>>();
function idSet(ids: readonly string[]): ReadonlySet<string> {
  let set = idSets.get(ids);
  if (!set) idSets.set(ids, (set = new Set(ids)));
  return set;
}

/**
 * Keeps what did not change: a load whose new answer adds nothing stays the very same object (the
 * domain's merge returns it), and so does the list when no load changed. Views that compare by
 * identity (memoized rows, map layers diffing by load) then leave unchanged loads alone.
 */
export function shareBoard(previous: BoardData | undefined, next: BoardData): BoardData {
  if (!previous || previous === next) return next;
  // Loads mostly keep their places (withUnchanged keeps the order): the one at the same place is
  // looked at first, and the map of all only made if a load moved.
  let old: Map<string, Load> | undefined;
  let same = previous.loads.length === next.loads.length;
  const loads = next.loads.map((load, i) => {
    const there = previous.loads[i];
    if (load === there) return load;
    const before =
      there?.id === load.id ? there : (old ??= new Map(previous.loads.map((l) => [l.id, l]))).get(load.id);
    const kept = before ? mergeLoads(before, load) : load;
    if (kept !== previous.loads[i]) same = false;
    return kept;
  });
  const missingSame =
    previous.missing.length === next.missing.length &&
    previous.missing.every((m, i) => m === next.missing[i]);
  const unreadableSame =
    previous.unreadable === next.unreadable ||
    (previous.unreadable.length === 0 && next.unreadable.length === 0);
  // Nothing changed: the very same object, or TanStack Query sees new data and renders again (and a
  // disabled query's placeholder, shared through here on every render, would loop). Only a new
  // cursor makes a new object, with the same lists: the next poll must ask from it.
  if (same && missingSame && unreadableSame)
    return previous.cursor === next.cursor ? previous : { ...previous, cursor: next.cursor };
  // The same ids in the same places as the answer's list: the merged list shares its index.
  const places = loadPlaces.get(next.loads);
  if (!same && places) loadPlaces.set(loads, places);
  return {
    loads: same ? previous.loads : loads,
    missing: missingSame ? previous.missing : next.missing,
    unreadable: next.unreadable,
    fetchedAt: next.fetchedAt,
    cursor: next.cursor,
  };
}

/**
 * The hash of a many-loads key. TanStack Query hashes a query's key each time the query is looked up,
 * several times per render: JSON of 10,000 ids, 100 kB, many times a second. The ids of a watch list
 * are one array while the list is unchanged, so the hash is made once per array and key: the very
 * same string each time (a string joined anew was copied flat at each lookup, half a megabyte a
 * refresh).
 */
const keyHashes = new WeakMap<readonly string[], Map<string, string>>();
function hashManyLoadsKey(key: readonly unknown[]): string {
  const ids = key[key.length - 1] as readonly string[];
  const head = JSON.stringify(key.slice(0, -1));
  let byHead = keyHashes.get(ids);
  if (!byHead) keyHashes.set(ids, (byHead = new Map()));
  let hash = byHead.get(head);
  if (hash === undefined) byHead.set(head, (hash = `${head}${JSON.stringify(ids)}`));
  return hash;
}

export const configQuery = () =>
  queryOptions({
    queryKey: ['config'],
    queryFn: ({ signal }) => apiGet('/api/config', ClientConfig, signal),
    staleTime: Infinity,
  });

/**
 * A polled view of many loads. It polls while the tab is visible (a hidden tab pauses, and catches up
 * when it returns), keeps the last answer on screen while the next one loads, and shares unchanged
 * loads. The first answer holds every load; each poll after it sends the last cursor and gets only the
 * loads that changed (a board of 10,000 loads in which 100 moved reads 100 loads, not 10,000).
 */
function manyLoads(
  view: keyof typeof VIEW_INCLUDE,
  by: LoadBy,
  ids: readonly string[],
  refreshSeconds: number,
) {
  return queryOptions({
    queryKey: [...loadQueries.all(), view, by, ids] as const,
    queryKeyHashFn: hashManyLoadsKey,
    queryFn: async ({ signal, client, queryKey }) => {
      // By its hash: getQueryData would hash the key the default way, and find nothing.
      const previous = client.getQueryCache().get<BoardData>(hashManyLoadsKey(queryKey))?.state.data;
      const since = previous?.cursor;
      const data = await pullsOffPage.pull(
        by,
        { ids, include: VIEW_INCLUDE[view], ...(since ? { since } : {}) },
        signal,
        { extras: false },
      );
      return previous && since ? withUnchanged(previous, data, ids) : data;
    },
    enabled: ids.length > 0,
    // Fresh for half a poll: a view that starts watching the same loads meanwhile (the nav's
    // documents badge beside the inbox) shares the answer instead of pulling again.
    staleTime: (refreshSeconds * 1000) / 2,
    refetchInterval: refreshSeconds * 1000,
    refetchIntervalInBackground: false,
    placeholderData: (previous) => previous,
    structuralSharing: (previous: unknown, next: unknown) =>
      shareBoard(previous as BoardData | undefined, next as BoardData),
  });
}

/** One load, polled: the first answer holds all it asked for, later ones what came after the cursor. */
function oneLoad(part: 'detail' | 'readings', by: LoadBy, id: string, refreshSeconds: number) {
  return queryOptions({
    queryKey: [...loadQueries.all(), part, by, id] as const,
    queryFn: async ({ signal, client, queryKey }): Promise<DetailData> => {
      const previous = client.getQueryData<DetailData>(queryKey);
      const since = previous?.load ? previous.cursor : undefined;
      const include = part === 'detail' ? TRACK_INCLUDE : READINGS_INCLUDE;
      const data = await pullLoads(by, { ids: [id], include, ...(since ? { since } : {}) }, signal);
      const fresh = data.loads[0];
      const missing = data.missing.length > 0;
      // After a cursor, a load with nothing new is left out of the answer: it stays as it was.
      const kept = since && !missing ? (previous?.load ?? null) : null;
      const load = fresh ? (kept ? mergeLoads(kept, fresh) : fresh) : kept;
      return { load, cursor: data.cursor, missing, unreadable: data.unreadable };
    },
    refetchInterval: refreshSeconds * 1000,
    refetchIntervalInBackground: false,
    placeholderData: (previous) => previous,
  });
}

/** The query factory of loads: keys are made here and nowhere else. */
export const loadQueries = {
  all: () => ['loads'] as const,
  /** Latest position, status and temperature of many loads: the board and the map. */
  board: (by: LoadBy, ids: readonly string[], refreshSeconds: number) =>
    manyLoads('board', by, ids, refreshSeconds),
  /** The documents of many loads (the brokers' inbox); the latest position and status come along. */
  documents: (by: LoadBy, ids: readonly string[], refreshSeconds: number) =>
    manyLoads('documents', by, ids, refreshSeconds),
  /**
   * One load's track (pings, events, comments, documents), for its breadcrumb and detail. The first
   * fetch gets everything; later ones only what the proxy merged since the last cursor, merged here
   * with the domain's merge: new items appear once, nothing is lost.
   */
  detail: (by: LoadBy, id: string, refreshSeconds: number) => oneLoad('detail', by, id, refreshSeconds),
  /**
   * A reefer's readings (tens of thousands: 50,000 are 11 MB of the answer), in an answer of their
   * own, so the panel is on screen before they are read and the map never asks for them. Only the
   * by-external-id operation sends temperatures.
   */
  readings: (id: string, refreshSeconds: number) => oneLoad('readings', 'external-id', id, refreshSeconds),
};
