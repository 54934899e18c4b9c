import { useEffect, useSyncExternalStore } from 'react';
import { LoadId, type ClientConfig } from '@/contract/proxy-api';
import type { LoadBy } from '@/domain/model';

/**
 * The loads a dispatcher watches: kept in this browser (localStorage) and carried in the URL (`?w=`),
 * so a link opens the same board for a colleague. A link wins over what this browser had.
 */
export interface WatchEntry {
  by: LoadBy;
  id: string;
}

export interface ParsedIds {
  ids: string[];
  refused: { text: string; reason: string }[];
}

const STORAGE_KEY = 'haulview.watch';
const PARAM = 'w';
const PREFIX: Record<LoadBy, string> = { 'external-id': 'e', 'load-number': 'n' };

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

export function encodeWatch(entries: readonly WatchEntry[]): string {
  return (['external-id', 'load-number'] as const)
    .map((by) => {
      const ids = entries.filter((e) => e.by === by).map((e) => encodeURIComponent(e.id));
      return ids.length > 0 ? `${PREFIX[by]}:${ids.join(',')}` : '';
    })
    .filter(Boolean)
    .join(';');
}

export function decodeWatch(text: string): WatchEntry[] {
  const entries: WatchEntry[] = [];
  for (const part of text.split(';')) {
    const [prefix, list] = [part.slice(0, 2), part.slice(2)];
    const by: LoadBy | undefined =
      prefix === 'e:' ? 'external-id' : prefix === 'n:' ? 'load-number' : undefined;
    if (!by) continue;
    for (const raw of list.split(',')) {
      let id: string;
      try {
        id = decodeURIComponent(raw);
      } catch {
        continue;
      }
      if (LoadId.safeParse(id).success && !entries.some((e) => e.by === by && e.id === id))
        entries.push({ by, id });
    }
  }
  return entries;
}

// --- the store: one list per page, shared by every component that shows it --------------------------

type Listener = () => void;
const listeners = new Set<Listener>();
let current: WatchEntry[] | undefined;

function readInitial(): WatchEntry[] {
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

function snapshot(): WatchEntry[] {
  current ??= readInitial();
  return current;
}

function write(entries: WatchEntry[]): void {
  current = entries;
  const encoded = encodeWatch(entries);
  try {
    window.localStorage.setItem(STORAGE_KEY, encoded);
  } catch {
    // Storage full or blocked: the URL still carries the list.
  }
  const url = new URL(window.location.href);
  if (encoded) url.searchParams.set(PARAM, encoded);
  else url.searchParams.delete(PARAM);
  window.history.replaceState(window.history.state, '', url);
  for (const l of listeners) l();
}

export const watchList = {
  add(by: LoadBy, ids: readonly string[]): void {
    const list = snapshot();
    const fresh = ids.filter((id) => !list.some((e) => e.by === by && e.id === id)).map((id) => ({ by, id }));
    if (fresh.length > 0) write([...list, ...fresh]);
  },
  remove(entry: WatchEntry): void {
    write(snapshot().filter((e) => !(e.by === entry.by && e.id === entry.id)));
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

export function useWatchList(): WatchEntry[] {
  return useSyncExternalStore(subscribe, snapshot);
}

/** The ids of one kind, in the order they were added. */
export function idsBy(entries: readonly WatchEntry[], by: LoadBy): string[] {
  return entries.filter((e) => e.by === by).map((e) => e.id);
}
