import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { LoadId, type ClientConfig } from '@/contract/proxy-api';
import type { Load, LoadBy } from '@/domain/model';
import { decodeWatch, encodeWatch, WATCH_PARAM } from '@/domain/watch-text';
import { loadKey, type LoadRef } from './load-ref';
import { queryText } from './url-state';

/*
 * The loads a dispatcher watches: kept in this browser (localStorage) and carried in the URL (`?w=`),
 * so a link opens the same board for a colleague. A link wins over what this browser had.
 */

// The list's text form is the domain's: the server reads saved boards with the same code.
export { decodeWatch, encodeWatch };

export interface ParsedIds {
  ids: string[];
  refused: { text: string; reason: string }[];
}

const STORAGE_KEY = 'haulview.watch';
const PARAM = WATCH_PARAM;

/**
 * Reads ids as people paste them: one, or many separated by commas, semicolons, spaces, tabs or new
 * lines (a column copied from a spreadsheet). Each is checked like the proxy checks it.
 */
export function parseIdText(text: string): ParsedIds {
  const ids: string[] = [];
  const refused: ParsedIds['refused'] = [];
  const seen = new Set<string>();
  for (const piece of text.split(/[\s,;]+/)) {
    if (piece === '') continue;
    const result = LoadId.safeParse(piece);
    if (!result.success) {
      refused.push({ text: piece, reason: result.error.issues[0]?.message ?? 'not a valid id' });
    } else if (!seen.has(result.data)) {
      seen.add(result.data);
      ids.push(result.data);
    }
  }
  return { ids, refused };
}

/** Digits only: all an external id can be (the service's answers carry it as an integer). */
const DIGITS_ONLY = /^[0-9]+$/;

/**
 * The kind of each pasted id, where its form makes it certain: with "external ids" chosen, an id
 * that is not all digits ("LN482913-7") cannot be one, so it is read as a load number. Any other id
 * is of the kind chosen: a load number may be all digits too, so a number says nothing.
 */
export function kindOfPasted(id: string, chosen: LoadBy): LoadBy {
  return chosen === 'external-id' && !DIGITS_ONLY.test(id) ? 'load-number' : chosen;
}

// --- the store: one list per page, shared by every component that shows it --------------------------

type Listener = () => void;
const listeners = new Set<Listener>();
let current: LoadRef[] | undefined;
/** The page's link named a watch list of which no load could be read (its `w` is then dropped). */
let linkUnread = false;

function readInitial(): LoadRef[] {
  const fromUrl = new URLSearchParams(window.location.search).get(PARAM);
  if (fromUrl !== null) {
    const read = decodeWatch(fromUrl);
    linkUnread = read.length === 0 && fromUrl.trim() !== '';
    return read;
  }
  return decodeWatch(window.localStorage.getItem(STORAGE_KEY) ?? '');
}

/** Whether this browser has ever kept a watch list (a first visit gets the demo fleet). */
export function hasSavedWatchList(): boolean {
  return (
    window.localStorage.getItem(STORAGE_KEY) !== null ||
    new URLSearchParams(window.location.search).has(PARAM)
  );
}

/**
 * A first visit in demo mode watches the demo fleet, whichever page it opens (the map or the
 * documents inbox), so a newcomer sees it move at once. A browser that ever kept a list keeps it.
 */
export function useDemoFleetOnFirstVisit(demo: ClientConfig['demo']): void {
  useEffect(() => {
    if (!demo || hasSavedWatchList()) return;
    watchList.add('external-id', demo.externalIds);
    watchList.add('load-number', demo.loadNumbers);
  }, [demo]);
}

function snapshot(): LoadRef[] {
  current ??= readInitial();
  return current;
}

/** Puts the encoded list into this page's URL, replacing the history entry; nothing if it is there. */
function putInUrl(encoded: string): void {
  const url = new URL(window.location.href);
  if ((url.searchParams.get(PARAM) ?? '') === encoded) return;
  if (encoded) url.searchParams.set(PARAM, encoded);
  else url.searchParams.delete(PARAM);
  const text = queryText(url.searchParams);
  window.history.replaceState(
    window.history.state,
    '',
    `${url.pathname}${text ? `?${text}` : ''}${url.hash}`,
  );
}

function write(entries: LoadRef[]): void {
  current = entries;
  const encoded = encodeWatch(entries);
  try {
    window.localStorage.setItem(STORAGE_KEY, encoded);
  } catch {
    // Storage full or blocked: the URL still carries the list.
  }
  putInUrl(encoded);
  for (const l of listeners) l();
}

/**
 * Keeps the list in the URL of a page that shows it (the board, the documents inbox), also when it
 * came from this browser's storage or the page was reached by a link without it: the address bar is
 * always a link that opens the same list for a colleague.
 */
export function useWatchListInUrl(entries: readonly LoadRef[]): void {
  useEffect(() => putInUrl(encodeWatch(entries)), [entries]);
}

export const watchList = {
  /** Watches these ids of one kind; returns how many were not watched yet (the others stay as they are). */
  add(by: LoadBy, ids: readonly string[]): number {
    const list = snapshot();
    // A set, not a search of the list per id: 500 ids pasted onto a board of 10,000.
    const watched = new Set(list.flatMap((e) => (e.by === by ? [e.id] : [])));
    const fresh = ids.filter((id) => !watched.has(id)).map((id) => ({ by, id }));
    if (fresh.length > 0) write([...list, ...fresh]);
    return fresh.length;
  },
  remove(entry: LoadRef): void {
    write(snapshot().filter((e) => !(e.by === entry.by && e.id === entry.id)));
  },
  /** Stops watching all these at once (the ids the service does not know, say): one write. */
  removeAll(entries: readonly LoadRef[]): void {
    const gone = new Set(entries.map(loadKey));
    write(snapshot().filter((e) => !gone.has(loadKey(e))));
  },
  clear(): void {
    write([]);
  },
  /**
   * Keeps the first `max` ids of each kind (a link may name more than the board holds); returns how
   * many of each kind were let go, or undefined when none was.
   */
  keepAtMost(max: number): Partial<Record<LoadBy, number>> | undefined {
    const list = snapshot();
    const kept: Partial<Record<LoadBy, number>> = {};
    const dropped: Partial<Record<LoadBy, number>> = {};
    const left = list.filter((e) => {
      const n = (kept[e.by] = (kept[e.by] ?? 0) + 1);
      if (n <= max) return true;
      dropped[e.by] = (dropped[e.by] ?? 0) + 1;
      return false;
    });
    if (left.length === list.length) return undefined;
    write(left);
    return dropped;
  },
  /** Whether the page's link named a watch list of which nothing could be read; true once. */
  takeLinkUnread(): boolean {
    snapshot();
    const was = linkUnread;
    linkUnread = false;
    return was;
  },
  /** For tests: forget the in-memory list so the next read comes from the URL and storage again. */
  reset(): void {
    current = undefined;
    linkUnread = false;
  },
};

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useWatchList(): LoadRef[] {
  return useSyncExternalStore(subscribe, snapshot);
}

/** The ids of one kind, in the order they were added. */
export function idsBy(entries: readonly LoadRef[], by: LoadBy): string[] {
  return entries.filter((e) => e.by === by).map((e) => e.id);
}

/** What a view's pull of many loads holds, as TanStack Query reports it. */
interface PullResult {
  data?: { loads: Load[] };
  isPlaceholderData: boolean;
}

/**
 * The watched loads of a view's two pulls (by external id, by load number). An answer to the current
 * list holds only its loads; a placeholder (the previous list's answer, shown while the new one
 * loads) may still hold a load just removed, so only then is it filtered by the list.
 */
export function useWatchedLoads(
  entries: readonly LoadRef[],
  byExternal: PullResult,
  byNumber: PullResult,
): Load[] {
  const external = byExternal.data?.loads;
  const numbers = byNumber.data?.loads;
  const placeholder = byExternal.isPlaceholderData || byNumber.isPlaceholderData;
  return useMemo(() => {
    const all = [...(external ?? []), ...(numbers ?? [])];
    if (!placeholder) return all;
    const watched = new Set(entries.map(loadKey));
    return all.filter((l) => watched.has(loadKey(l)));
  }, [entries, external, numbers, placeholder]);
}
