import type { IncludeFlags } from '@/contract/proxy-api';
import type { Load, LoadBy } from '@/domain/model';
import { shareBoard, withUnchanged, type BoardData } from './board-data';
import type { PullBody, PulledLoads } from './pull-answer';
import { sameItems } from './same-list';

/** What a pull for the documents of many loads asks for: their documents, no other list. */
export const DOCUMENTS_INCLUDE: IncludeFlags = {
  locations: false,
  events: false,
  documents: true,
  comments: false,
  temperatures: false,
};

/** The URLs of the documents of some loads, each once, in the loads' order. */
export function documentUrlsOf(loads: readonly Load[]): string[] {
  const seen = new Set<string>();
  for (const load of loads) for (const doc of load.documents) seen.add(doc.url);
  return [...seen];
}

/**
 * The document URLs of a watch list, as the thread that keeps its documents last read them. The
 * version names the list: it moves on only when the URLs change, and an answer to someone who holds
 * the version leaves the URLs out.
 */
export interface DocumentUrls {
  version: string;
  /** Left out when the one who asked holds this version already. */
  urls: string[] | undefined;
  /** Watched ids the service does not know. */
  missing: string[];
}

/** One watch list's documents as kept: the loads with their documents, and their URLs. */
interface KeptDocuments {
  data: BoardData;
  urls: string[];
  version: string;
}

/** How many watch lists' documents a keeper holds (both kinds of id of one list, and one more). */
const LISTS_KEPT = 3;

export type PullSome = (by: LoadBy, body: PullBody, signal?: AbortSignal) => Promise<PulledLoads>;

/**
 * The nav's documents badge needs only the URLs of the watched loads' documents (to count those not
 * reviewed), not the documents: 10,000 loads' documents and their loads were half the dispatcher
 * page's heap, held all day for one number, and marked again at each of its collections. A keeper
 * holds the documents where it runs (the pull worker), polls them with its own cursor (a poll
 * brings only the loads whose documents changed), and answers with the URLs only, and those only
 * when they changed.
 */
export function documentUrlsKeeper(pull: PullSome) {
  const kept = new Map<string, KeptDocuments>();
  // Versions of another keeper (the worker's, before it failed) never match this one's.
  const keeper = Math.random().toString(36).slice(2);
  let versions = 0;
  const urlsOf = async (
    by: LoadBy,
    ids: readonly string[],
    /** Names the watch list and its kind of id: `viewKey` of the page's queries. */
    key: string,
    /** The version the one asking holds, if any. */
    known: string | undefined,
    signal?: AbortSignal,
  ): Promise<DocumentUrls> => {
    const before = kept.get(key);
    const since = before?.data.cursor;
    const read = await pull(by, { ids, include: DOCUMENTS_INCLUDE, ...(since ? { since } : {}) }, signal);
    let data = read;
    if (since !== undefined) {
      const base = kept.get(key);
      // Another poll of this list moved the cursor meanwhile (the queries do not let it): the
      // delta does not fit what is kept, and a full pull starts over.
      if (base !== before || !base) {
        kept.delete(key);
        return urlsOf(by, ids, key, known, signal);
      }
      data = shareBoard(base.data, withUnchanged(base.data, read, ids));
    }
    const urls = documentUrlsOf(data.loads);
    const same = before !== undefined && sameItems(before.urls, urls);
    const next: KeptDocuments = {
      data,
      urls: same ? before.urls : urls,
      version: same ? before.version : `${keeper}.${++versions}`,
    };
    kept.delete(key);
    kept.set(key, next);
    if (kept.size > LISTS_KEPT) kept.delete(kept.keys().next().value as string);
    return {
      version: next.version,
      urls: known === next.version ? undefined : next.urls,
      missing: data.missing,
    };
  };
  return urlsOf;
}
