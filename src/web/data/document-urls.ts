import type { Load, LoadBy } from '@/domain/model';
import type { PulledLoads } from './pull-answer';
import { DOCUMENTS_INCLUDE, type PullBody } from './pull-body';
import { sameItems } from '../lib/same-list';

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

/**
 * One watch list's documents as kept: each load's document URLs (a document's identity is its URL,
 * `keys.document`), in the order the loads came, the cursor to poll from, and the list's URLs.
 */
interface KeptDocuments {
  byLoad: Map<string, readonly string[]>;
  missing: string[];
  cursor: string;
  urls: string[];
  version: string;
}

/** How many watch lists' documents a keeper holds (both kinds of id of one list, and one more). */
const LISTS_KEPT = 3;

export type PullSome = (by: LoadBy, body: PullBody, signal?: AbortSignal) => Promise<PulledLoads>;

/** A load's document URLs with those of its newer answer that are new, in the order they came. */
function withNewUrls(before: readonly string[] | undefined, load: Load): readonly string[] {
  if (!before || before.length === 0) return load.documents.map((d) => d.url);
  let out: string[] | undefined;
  for (const { url } of load.documents) if (!before.includes(url)) (out ??= before.slice()).push(url);
  return out ?? before;
}

/**
 * The nav's documents badge needs only the URLs of the watched loads' documents (to count those not
 * reviewed), not the documents: a big board's documents and their loads would take much of the
 * dispatcher page's heap, held all day for one number, and marked again at each of its collections.
 * A keeper runs where the pulls run (the pull worker), polls with its own cursor (a poll brings only
 * the loads whose documents changed), and answers with the URLs only, and those only when they
 * changed. It keeps only each load's URLs, not its documents: the loads with their documents would
 * weigh on the worker's heap, traced at each of its major collections, which run on the cores the
 * page needs for a refresh.
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
    const since = before?.cursor;
    const read = await pull(by, { ids, include: DOCUMENTS_INCLUDE, ...(since ? { since } : {}) }, signal);
    let byLoad: Map<string, readonly string[]>;
    if (since === undefined) {
      byLoad = new Map(read.loads.map((l) => [l.id, withNewUrls(undefined, l)]));
    } else {
      // Another poll of this list moved the cursor meanwhile (the queries do not let it): the
      // delta does not fit what is kept, and a full pull starts over.
      if (kept.get(key) !== before || !before) {
        kept.delete(key);
        return urlsOf(by, ids, key, known, signal);
      }
      // As `withUnchanged` keeps a view: the loads not in the delta as they were, those the service
      // no longer knows or no longer asked for dropped, the changed ones merged in their places.
      const asked = new Set(ids);
      const gone = new Set(read.missing);
      byLoad = new Map();
      for (const [id, urls] of before.byLoad) if (asked.has(id) && !gone.has(id)) byLoad.set(id, urls);
      for (const load of read.loads) byLoad.set(load.id, withNewUrls(byLoad.get(load.id), load));
    }
    const urls = [...new Set([...byLoad.values()].flat())];
    const same = before !== undefined && sameItems(before.urls, urls);
    const next: KeptDocuments = {
      byLoad,
      missing: read.missing,
      cursor: read.cursor,
      urls: same ? before.urls : urls,
      version: same ? before.version : `${keeper}.${++versions}`,
    };
    kept.delete(key);
    kept.set(key, next);
    if (kept.size > LISTS_KEPT) kept.delete(kept.keys().next().value as string);
    return {
      version: next.version,
      urls: known === next.version ? undefined : next.urls,
      missing: next.missing,
    };
  };
  return urlsOf;
}
