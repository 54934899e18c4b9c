import { LoadId } from '@/contract/proxy-api';
import type { Load, LoadBy } from '@/domain/model';
import { byOfRefPrefix, REF_PREFIX } from '@/domain/watch-text';

/**
 * A load as a view names it: by which of its ids it is watched, and that id. Its forms are all here
 * (key, URL, path, label), so a link written by one page is read the same by another.
 */
export interface LoadRef {
  by: LoadBy;
  id: string;
}

/** Both kinds of id, in the order views list them. */
export const LOAD_BYS = ['external-id', 'load-number'] as const satisfies readonly LoadBy[];

/** The kind's letter in URLs: the watch list's text form (domain/watch-text.ts) writes the same. */
const PREFIX = REF_PREFIX;

/** The kind's name in sentences: "the load with external id 700100". */
export const BY_NAME = {
  'external-id': 'external id',
  'load-number': 'load number',
} as const satisfies Record<LoadBy, string>;

export function refPrefix(by: LoadBy): string {
  return PREFIX[by];
}

/** The kind a URL's letter stands for; undefined for any other text. */
export const byOfPrefix = byOfRefPrefix;

function isLoadBy(text: string | undefined): text is LoadBy {
  return LOAD_BYS.some((by) => by === text);
}

/** Checked like the proxy checks it, so a bad link is refused here and not by a failed pull. */
export function isLoadId(id: string): boolean {
  return LoadId.safeParse(id).success;
}

/**
 * Each load's key, written once per id: a refresh makes a new object of each load that changed, and
 * its board row and map point would each write the key again (two more strings per moved load, kept
 * until it moved again).
 */
const written: Record<LoadBy, Map<string, string>> = { 'external-id': new Map(), 'load-number': new Map() };
/** Ids whose keys are kept, per kind; past it the keys are written afresh (a day of changing lists). */
const KEPT = 50_000;

/** `by:id`: one string per watched load, unique across both kinds of id. */
export function loadKey(ref: LoadRef): string {
  const keys = written[ref.by] as Map<string, string> | undefined;
  if (!keys) return `${ref.by}:${ref.id}`;
  let key = keys.get(ref.id);
  if (key === undefined) {
    if (keys.size >= KEPT) keys.clear();
    keys.set(ref.id, (key = `${ref.by}:${ref.id}`));
  }
  return key;
}

export function parseLoadKey(key: string): LoadRef | null {
  for (const by of LOAD_BYS) {
    if (key.startsWith(`${by}:`) && key.length > by.length + 1) return { by, id: key.slice(by.length + 1) };
  }
  return null;
}

/** `e:700100` or `n:LN1`: the value of `?load=`, as URLSearchParams gives it (not percent-encoded). */
export function formatLoadParam(ref: LoadRef): string {
  return `${PREFIX[ref.by]}:${ref.id}`;
}

export function parseLoadParam(text: string | null): LoadRef | null {
  if (!text || text[1] !== ':') return null;
  const by = byOfPrefix(text[0] as string);
  const id = text.slice(2);
  return by && isLoadId(id) ? { by, id } : null;
}

/** The main map with this load selected. `:` is left readable, like the page writes its own query. */
export function mapHref(ref: LoadRef): string {
  return `/?load=${PREFIX[ref.by]}:${encodeURIComponent(ref.id)}`;
}

/** `/loads/:by/:id`: the load's own page. */
export function loadPageHref(ref: LoadRef): string {
  return `/loads/${ref.by}/${encodeURIComponent(ref.id)}`;
}

/** The load a `/loads/:by/:id` route names, as the router hands over its parts; null for any other. */
export function parseLoadPage(params: { by?: string; id?: string }): LoadRef | null {
  if (!isLoadBy(params.by) || !params.id) return null;
  let id = params.id;
  try {
    id = decodeURIComponent(id);
  } catch {
    // The router has decoded the path once already: `50%25` arrives as `50%`, which is the id.
  }
  return isLoadId(id) ? { by: params.by, id } : null;
}

/** Its load number or external id, whichever it is watched by. */
export function loadLabel(load: Pick<Load, 'by' | 'id' | 'externalId' | 'loadNumber'>): string {
  return load.by === 'load-number' ? (load.loadNumber ?? load.id) : (load.externalId ?? load.id);
}

/** "Load 700100": how headings and announcements name it. */
export function loadTitle(label: string): string {
  return `Load ${label}`;
}
