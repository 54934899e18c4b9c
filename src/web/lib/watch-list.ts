import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { LoadId, type ClientConfig } from '@/contract/proxy-api';
import type { Load, LoadBy } from '@/domain/model';
import { byOfPrefix, isLoadId, LOAD_BYS, loadKey, refPrefix, type LoadRef } from './load-ref';
import { queryText } from './url-state';

/*
 * The loads a dispatcher watches: kept in this browser (localStorage) and carried in the URL (`?w=`),
 * so a link opens the same board for a colleague. A link wins over what this browser had.
 */

export interface ParsedIds {
  ids: string[];
  refused: { text: string; reason: string }[];
}

const STORAGE_KEY = 'haulview.watch';
const PARAM = 'w';

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

/** A plain whole number, as a run of them may be written `first:last`. */
const PLAIN_NUMBER = /^(0|[1-9][0-9]{0,14})$/;
/** Runs this long or longer are written as a range. */
const MIN_RUN = 3;
/** A range in a link never stands for more ids than a watch list could hold. */
const MAX_RANGE = 100_000;

/**
 * The short form of a list of ids: a run of three or more consecutive plain numbers (700100,
 * 700101, 700102…) is written `700100:700102`. `:` cannot come from an id here (ids are written
 * percent-encoded), so the form is unambiguous; a long run of consecutive ids is a few characters,
 * not one id each.
 */
function shorten(ids: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < ids.length;) {
    const first = ids[i] as string;
    let j = i + 1;
    if (PLAIN_NUMBER.test(first)) {
      const start = Number(first);
      while (j < ids.length && ids[j] === String(start + (j - i))) j++;
    }
    if (j - i >= MIN_RUN) {
      out.push(`${first}:${ids[j - 1]}`);
      i = j;
    } else {
      out.push(encodeURIComponent(first));
      i++;
    }
  }
  return out;
}

export function encodeWatch(entries: readonly LoadRef[]): string {
  return LOAD_BYS.map((by) => {
    const ids = shorten(entries.filter((e) => e.by === by).map((e) => e.id));
    return ids.length > 0 ? `${refPrefix(by)}:${ids.join(',')}` : '';
  })
    .filter(Boolean)
    .join(';');
}

/** The ids a written item stands for: one id, or every id of a range `first:last`. */
function expand(raw: string): string[] {
  const colon = raw.indexOf(':');
  if (colon < 0) {
    try {
      return [decodeURIComponent(raw)];
    } catch {
      return [];
    }
  }
  const [first, last] = [raw.slice(0, colon), raw.slice(colon + 1)];
  if (!PLAIN_NUMBER.test(first) || !PLAIN_NUMBER.test(last)) return [];
  const [a, b] = [Number(first), Number(last)];
  if (b < a || b - a >= MAX_RANGE) return [];
  return Array.from({ length: b - a + 1 }, (_, k) => String(a + k));
}

export function decodeWatch(text: string): LoadRef[] {
  const entries: LoadRef[] = [];
  const seen = new Set<string>();
  for (const part of text.split(';')) {
    const by = part[1] === ':' ? byOfPrefix(part[0] as string) : undefined;
    if (!by) continue;
    const list = part.slice(2);
    for (const raw of list.split(',')) {
      for (const id of expand(raw)) {
        const key = loadKey({ by, id });
        if (seen.has(key) || !isLoadId(id)) continue;
        seen.add(key);
        entries.push({ by, id });
      }
    }
  }
  return entries;
}

// --- the store: one list per page, shared by every component that shows it --------------------------

type Listener = () => void;
const listeners = new Set<Listener>();
let current: LoadRef[] | undefined;

function readInitial(): LoadRef[] {
  const fromUrl = new URLSearchParams(window.location.search).get(PARAM);
  if (fromUrl !== null) return decodeWatch(fromUrl);
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
  /** For tests: forget the in-memory list so the next read comes from the URL and storage again. */
  reset(): void {
    current = undefined;
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
