import { useMemo, useSyncExternalStore } from 'react';

/**
 * Which documents a broker has reviewed, kept in this browser (localStorage) so it survives a reload.
 * Keyed by the document's URL: the domain's identity of a document (README, "Identity"), the same for
 * a load watched by external id and by load number. A document that arrives later has another URL,
 * so it comes in not reviewed.
 *
 * Stored as JSON `[[url, reviewedAtMs], …]`, oldest first. Pairs, not an object: an address is
 * untrusted text, and `__proto__` as an object key would not be kept as data.
 */

export const REVIEWED_STORAGE_KEY = 'haulview.documents.reviewed';

/** The most reviews kept; the oldest go first. 5000 addresses stay well within localStorage's quota. */
export const MAX_REVIEWED = 5000;

/** URL → when it was marked reviewed (epoch ms), in the order they were marked. */
export type ReviewedDocuments = ReadonlyMap<string, number>;

type Listener = () => void;
const listeners = new Set<Listener>();
let current: ReviewedDocuments | undefined;

function read(): ReviewedDocuments {
  let text: string | null = null;
  try {
    text = window.localStorage.getItem(REVIEWED_STORAGE_KEY);
  } catch {
    // Storage blocked: nothing was kept.
  }
  const map = new Map<string, number>();
  if (text === null) return map;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return map;
  }
  if (!Array.isArray(parsed)) return map;
  for (const entry of parsed) {
    if (
      Array.isArray(entry) &&
      typeof entry[0] === 'string' &&
      typeof entry[1] === 'number' &&
      Number.isFinite(entry[1])
    )
      map.set(entry[0], entry[1]);
  }
  return map;
}

function snapshot(): ReviewedDocuments {
  current ??= read();
  return current;
}

function write(next: Map<string, number>): void {
  // Beyond the cap, the longest-reviewed go: they belong to loads long delivered.
  if (next.size > MAX_REVIEWED) {
    const sorted = [...next].sort((a, b) => a[1] - b[1]);
    next = new Map(sorted.slice(sorted.length - MAX_REVIEWED));
  }
  current = next;
  try {
    window.localStorage.setItem(REVIEWED_STORAGE_KEY, JSON.stringify([...next]));
  } catch {
    // Storage full or blocked: the reviews still hold for this page until it is reloaded.
  }
  for (const l of listeners) l();
}

export const reviewedStore = {
  /** Marks documents reviewed now; those already reviewed keep their time. */
  mark(urls: readonly string[], at: number = Date.now()): void {
    const list = snapshot();
    const fresh = urls.filter((u) => !list.has(u));
    if (fresh.length === 0) return;
    const next = new Map(list);
    for (const u of fresh) next.set(u, at);
    write(next);
  },
  /** Makes documents not reviewed again. */
  unmark(urls: readonly string[]): void {
    const list = snapshot();
    if (!urls.some((u) => list.has(u))) return;
    const next = new Map(list);
    for (const u of urls) next.delete(u);
    write(next);
  },
  isReviewed(url: string): boolean {
    return snapshot().has(url);
  },
  /** For tests: forget the in-memory copy, so the next read comes from storage again (a reload). */
  reset(): void {
    current = undefined;
  },
};

// Another tab of this browser reviewed something: this one follows.
function onStorage(event: StorageEvent): void {
  if (event.key !== REVIEWED_STORAGE_KEY && event.key !== null) return;
  current = undefined;
  for (const l of listeners) l();
}

function subscribe(listener: Listener): () => void {
  if (listeners.size === 0) window.addEventListener('storage', onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('storage', onStorage);
  };
}

/** The reviewed documents; components re-render when a review is marked or undone, here or in another tab. */
export function useReviewedDocuments(): ReviewedDocuments {
  return useSyncExternalStore(subscribe, snapshot);
}

/**
 * How many of these document URLs are not reviewed, each URL counted once. Each list holds a URL
 * at most once (the pull worker's URLs of one kind of id); a URL may be in more than one list (a
 * load watched by external id and by load number). A set of all the URLs, made again for each
 * count, is slow on the dispatcher's main thread; a lookup of each in the reviewed ones is cheap.
 */
export function countUnreviewed(
  lists: readonly (readonly string[])[],
  reviewed: ReadonlyMap<string, unknown>,
): number {
  let count = 0;
  // Only when there is more than one list: the URLs of the lists before.
  const before = lists.length > 1 ? new Set<string>() : undefined;
  lists.forEach((list, k) => {
    for (const url of list) if (!reviewed.has(url) && !(k > 0 && before?.has(url))) count++;
    if (before && k < lists.length - 1) for (const url of list) before.add(url);
  });
  return count;
}

export function useUnreviewedCount(lists: readonly (readonly string[])[]): number {
  const reviewed = useReviewedDocuments();
  return useMemo(() => countUnreviewed(lists, reviewed), [lists, reviewed]);
}
