import { LoadId } from '@/contract/proxy-api';
import type { LoadBy } from './model';

/*
 * A watch list as text (`?w=e:700100:700102,LN9;n:LN1`): how the board writes it in its address and
 * in a saved board, read the same by the page and by the server's job that keeps watched loads pulled.
 */

/** A load as a view names it: by which of its ids it is watched, and that id. */
export interface WatchedRef {
  by: LoadBy;
  id: string;
}

/** The kind's letter in URLs: `?load=e:700100`, `?w=e:700100,700101;n:LN1`. */
export const REF_PREFIX = { 'external-id': 'e', 'load-number': 'n' } as const satisfies Record<
  LoadBy,
  string
>;

const BYS = ['external-id', 'load-number'] as const satisfies readonly LoadBy[];

/** The kind a URL's letter stands for; undefined for any other text. */
export function byOfRefPrefix(letter: string): LoadBy | undefined {
  return BYS.find((by) => REF_PREFIX[by] === letter);
}

/** The address parameter that carries the watch list. */
export const WATCH_PARAM = 'w';

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

export function encodeWatch(entries: readonly WatchedRef[]): string {
  return BYS.map((by) => {
    const ids = shorten(entries.filter((e) => e.by === by).map((e) => e.id));
    return ids.length > 0 ? `${REF_PREFIX[by]}:${ids.join(',')}` : '';
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

/** The loads a written list names, each once; parts and ids that cannot be read are left out. */
export function decodeWatch(text: string): WatchedRef[] {
  const entries: WatchedRef[] = [];
  const seen = new Set<string>();
  for (const part of text.split(';')) {
    const by = part[1] === ':' ? byOfRefPrefix(part[0] as string) : undefined;
    if (!by) continue;
    const list = part.slice(2);
    for (const raw of list.split(',')) {
      for (const id of expand(raw)) {
        const key = `${by}:${id}`;
        if (seen.has(key) || !LoadId.safeParse(id).success) continue;
        seen.add(key);
        entries.push({ by, id });
      }
    }
  }
  return entries;
}
