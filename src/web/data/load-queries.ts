import { queryOptions } from '@tanstack/react-query';
import { ClientConfig, type IncludeFlags } from '@/contract/proxy-api';
import type { ParseIssue } from '@/contract/parse-issue';
import type { Load, LoadBy } from '@/domain/model';
import { applyDelta } from '@/domain/merge';
import { apiGet } from './api-client';
import { shareBoard, type BoardData } from './board-data';
import type { DocumentUrls } from './document-urls';
import { DOCUMENTS_INCLUDE } from './pull-body';
import { pullsOffPage } from './pull-thread';

export interface DetailData {
  load: Load | null;
  /** The proxy's cursor: the next refresh asks only for what came after it. */
  cursor: string;
  missing: boolean;
  /** Not pulled yet (the proxy's store holds nothing of it so far): neither found nor missing. */
  pending: boolean;
  unreadable: ParseIssue[];
}

/** A board: the latest location, status and reading of each load, without its undocumented fields. */
export const BOARD_INCLUDE: IncludeFlags = {
  locations: false,
  events: false,
  documents: false,
  comments: false,
  temperatures: false,
  extras: false,
};
/** One load's track: every list but a reefer's readings, which come in their own answer. */
const TRACK_INCLUDE: IncludeFlags = { temperatures: false };
/** A reefer's readings: its track (undocumented fields included) comes in the track's own answer. */
const READINGS_INCLUDE: IncludeFlags = { ...BOARD_INCLUDE, temperatures: true };
/** What each view of many loads asks the proxy for. */
// The inbox names each document's stop (pickup or delivery, its place): the load's stops are extras,
// and its statuses say which trip they are of (a load's ids may be reused for its next trip).
const VIEW_INCLUDE = {
  board: BOARD_INCLUDE,
  documents: { ...DOCUMENTS_INCLUDE, events: true, extras: true },
} as const;

/**
 * The hash of a many-loads key. TanStack Query hashes a query's key each time the query is looked up,
 * several times per render: JSON of 10,000 ids, many times a second. The ids of a watch list are one
 * array while the list is unchanged, so the hash is made once per array and key: the very same string
 * each time (a string joined anew would be copied flat at each lookup).
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

/** Each watch list's number, for the key of its views (one array while the list is unchanged). */
const listNumbers = new WeakMap<readonly string[], number>();
let lists = 0;
function viewKey(
  view: keyof typeof VIEW_INCLUDE | 'document-urls',
  by: LoadBy,
  ids: readonly string[],
): string {
  let n = listNumbers.get(ids);
  if (n === undefined) listNumbers.set(ids, (n = ++lists));
  return `${view}:${by}:${n}`;
}

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
      // The view after this answer: with a cursor, the previous one with the changed loads in it.
      return pullsOffPage.pull(
        by,
        { ids, include: VIEW_INCLUDE[view], ...(since ? { since } : {}) },
        signal,
        {
          key: viewKey(view, by, ids),
          previous: since ? previous : undefined,
          // The board's loads are the map's: its points may come ahead of them.
          points: view === 'board',
        },
      );
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

/** The document URLs of a watch list, as the nav's badge holds them. */
export interface DocumentUrlsData {
  urls: readonly string[];
  version: string;
  missing: string[];
}

/**
 * The URLs of the documents of many loads, polled like a view of many loads; the documents are kept
 * where the pulls run (the worker), and only their URLs come to the page, and only when they changed.
 */
function documentUrls(by: LoadBy, ids: readonly string[], refreshSeconds: number) {
  return queryOptions({
    queryKey: [...loadQueries.all(), 'document-urls', by, ids] as const,
    queryKeyHashFn: hashManyLoadsKey,
    queryFn: async ({ signal, client, queryKey }): Promise<DocumentUrlsData> => {
      const previous = client.getQueryCache().get<DocumentUrlsData>(hashManyLoadsKey(queryKey))?.state.data;
      const answer: DocumentUrls = await pullsOffPage.documentUrls(
        by,
        ids,
        viewKey('document-urls', by, ids),
        previous?.version,
        signal,
      );
      const urls = answer.urls ?? previous?.urls;
      if (!urls) throw new Error('The document URLs were left out of an answer to a page that has none.');
      return { urls, version: answer.version, missing: answer.missing };
    },
    enabled: ids.length > 0,
    staleTime: (refreshSeconds * 1000) / 2,
    refetchInterval: refreshSeconds * 1000,
    refetchIntervalInBackground: false,
    placeholderData: (previous) => previous,
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
      // One load is read on the page: its reader comes with the first load page, not the first page.
      const { pullLoads } = await import('./pull-answer');
      const data = await pullLoads(by, { ids: [id], include, ...(since ? { since } : {}) }, signal);
      const fresh = data.loads[0];
      const missing = data.missing.length > 0;
      // After a cursor, a load with nothing new is left out of the answer: it stays as it was.
      const kept = since && !missing ? (previous?.load ?? null) : null;
      const load = fresh ? (kept ? applyDelta(kept, fresh) : fresh) : kept;
      const pending = load === null && (data.pending?.includes(id) ?? false);
      return { load, cursor: data.cursor, missing, pending, unreadable: data.unreadable };
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
  /** The view a board's answers are kept under where the pulls run (its early points are filed by it). */
  boardView: (by: LoadBy, ids: readonly string[]) => viewKey('board', by, ids),
  /**
   * The hash a board's query is filed under, for filters that match queries by it: a key of 10,000
   * ids is never hashed again (made once per list) nor compared id by id.
   */
  boardHash: (by: LoadBy, ids: readonly string[]) =>
    hashManyLoadsKey([...loadQueries.all(), 'board', by, ids]),
  /**
   * The URLs of the documents of many loads, without the documents: the nav's badge counts those
   * not reviewed on every page but the inbox (which holds the documents, and counts them).
   */
  documentUrls: (by: LoadBy, ids: readonly string[], refreshSeconds: number) =>
    documentUrls(by, ids, refreshSeconds),
  /**
   * One load's track (pings, events, comments, documents), for its breadcrumb and detail. The first
   * fetch gets everything; later ones only what the proxy merged since the last cursor, merged here
   * with the domain's merge: new items appear once, nothing is lost.
   */
  detail: (by: LoadBy, id: string, refreshSeconds: number) => oneLoad('detail', by, id, refreshSeconds),
  /**
   * A reefer's readings (tens of thousands, a large answer), in an answer of their own, so the panel
   * is on screen before they are read and the map never asks for them. Only the by-external-id
   * operation sends temperatures.
   */
  readings: (id: string, refreshSeconds: number) => oneLoad('readings', 'external-id', id, refreshSeconds),
};
