import { compareJson } from './json-order';
import type { Load } from './model';

interface Keyed {
  key: string;
  instant: number | null;
}

function compareItems(a: Keyed, b: Keyed): number {
  const ai = a.instant ?? Number.POSITIVE_INFINITY;
  const bi = b.instant ?? Number.POSITIVE_INFINITY;
  if (ai !== bi) return ai < bi ? -1 : 1;
  if (a.key === b.key) return 0;
  return a.key < b.key ? -1 : 1;
}

/**
 * Items in time order, oldest first, ties by key (so the order never depends on arrival), with no
 * two of the same key: the upstream may send an item twice. `keyHasInstant` says that the key
 * spells out the instant (a ping's, a reading's, a comment's), so that two items of different
 * instants never share a key; it only saves work.
 */
export function sortByInstant<T extends Keyed>(items: T[], keyHasInstant = false): T[] {
  // Most lists of a board's loads are empty: nothing to sort, and no set made for nothing.
  if (items.length < 2) return items;
  // The upstream mostly sends its lists in time order: then sorting (which is stable) would change
  // nothing, and there may be nothing to fold. Neighbours of one instant in order have different
  // keys (the keys decided the order). A key that does not spell out its instant (an event's id, a
  // document's address) may come at two instants, and then anywhere in the list.
  const seen = keyHasInstant ? null : new Set<string>();
  let sorted = true;
  let fold = false;
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as Keyed;
    if (i > 0) {
      const order = compareItems(items[i - 1] as Keyed, item);
      if (order > 0) {
        sorted = false;
        break;
      }
      if (order === 0) fold = true;
    }
    if (seen) {
      if (seen.has(item.key)) fold = true;
      else seen.add(item.key);
    }
  }
  if (sorted && !fold) return items;
  if (!sorted) items.sort(compareItems);
  if (keyHasInstant) {
    // Items of one key are neighbours.
    let out = 0;
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as T;
      const prev = out > 0 ? (items[out - 1] as T) : undefined;
      if (prev !== undefined && prev.key === item.key) items[out - 1] = pick(prev, item);
      else items[out++] = item;
    }
    items.length = out;
    return items;
  }
  // One item per key, the version `pick` keeps, at its own place in the order.
  const kept = new Map<string, T>();
  for (const item of items) {
    const before = kept.get(item.key);
    kept.set(item.key, before === undefined ? item : pick(before, item));
  }
  let out = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as T;
    if (kept.get(item.key) === item) {
      items[out++] = item;
      // A version kept twice (the same object sent twice) is placed once.
      kept.delete(item.key);
    }
  }
  items.length = out;
  return items;
}

/**
 * Whether two values are surely the same data: the same primitives, arrays and plain objects with
 * the same keys in the same order, all the way down. False means "maybe not" (the JSON texts decide
 * then). A refresh finds a thousand loads' latest status unchanged, each a new object read from a new
 * answer: this walk says so without writing a JSON text of every string, as ordering them does.
 */
function sameData(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return typeof a !== 'number' || Number.isFinite(a);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || depth > 32) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameData(a[i], b[i], depth + 1)) return false;
    return true;
  }
  const pa: unknown = Object.getPrototypeOf(a);
  if ((pa !== Object.prototype && pa !== null) || Object.getPrototypeOf(b) !== pa || Array.isArray(b))
    return false;
  // The same own keys in the same order (JSON texts differ by order too), listed into an array kept
  // per depth: lists made for every object compared would be garbage by the ten thousand in a refresh.
  const keys = (keyScratch[depth] ??= []);
  keys.length = 0;
  for (const k in a) if (Object.hasOwn(a, k)) keys.push(k);
  let i = 0;
  for (const k in b) {
    if (!Object.hasOwn(b, k)) continue;
    if (k !== keys[i]) return false;
    i++;
  }
  if (i !== keys.length) return false;
  // Compared after the listing: a deeper call reuses only deeper lists.
  for (i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    if (!sameData((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], depth + 1))
      return false;
  }
  return true;
}
const keyScratch: string[][] = [];

/** A JSON text that also shows what JSON leaves out or blurs: keys without a value, -0, NaN. */
function exactText(x: unknown): string {
  return JSON.stringify(x, (_key, v: unknown) =>
    v === undefined || (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0)))
      ? `\u0000${Object.is(v, -0) ? '-0' : String(v)}`
      : v,
  );
}

/**
 * Of two versions of the same item (same key), the one to keep. Normally they are equal; when the
 * upstream changed an item, the choice must not depend on merge order, so it is by content.
 */
function pick<T>(a: T, b: T): T {
  if (a === b || sameData(a, b, 0)) return a;
  // A list holding one key at two instants (an event id sent at two times) keeps its last.
  const ia = (a as { instant?: number | null }).instant ?? Number.POSITIVE_INFINITY;
  const ib = (b as { instant?: number | null }).instant ?? Number.POSITIVE_INFINITY;
  if (ia !== ib) return ia > ib ? a : b;
  // The greater JSON text wins; `compareJson` orders the texts without writing them out. Equal texts
  // of items that still differ (a key without a value against none) are told apart too, so the
  // choice never depends on the order of the merge.
  const order = compareJson(a, b);
  if (order !== undefined && order !== 0) return order > 0 ? a : b;
  if (order === undefined) {
    const ta = JSON.stringify(a);
    const tb = JSON.stringify(b);
    if (ta !== tb) return ta > tb ? a : b;
  }
  return exactText(a) >= exactText(b) ? a : b;
}

/**
 * Union of two sorted lists by key. Returns `a` itself when `b` adds or changes nothing. With
 * `keyHasInstant` (as in `sortByInstant`), a `b` wholly after `a` (a delta of new pings, the usual
 * case) is appended as it is: no key can be on both sides, and the whole track is not looked up.
 */
export function mergeItems<T extends Keyed>(a: T[], b: T[], keyHasInstant = false): T[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  if (keyHasInstant && compareItems(a[a.length - 1] as T, b[0] as T) < 0) return [...a, ...b];
  const byKey = new Map<string, T>();
  for (const item of a) byKey.set(item.key, item);
  let changed = false;
  for (const item of b) {
    const old = byKey.get(item.key);
    if (old === undefined) {
      byKey.set(item.key, item);
      changed = true;
    } else {
      const kept = pick(old, item);
      if (kept !== old) {
        byKey.set(item.key, kept);
        changed = true;
      }
    }
  }
  return changed ? sortByInstant([...byKey.values()]) : a;
}

/** The newer of two "latest" items (latest location, status, temperature). */
function latest<T extends Keyed>(a: T | undefined, b: T | undefined): T | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const order = compareItems(a, b);
  if (order !== 0) return order > 0 ? a : b;
  return pick(a, b);
}

/**
 * Of two outlooks of one load (`domain/outlook.ts`), the one reckoned from the newer track: the
 * proxy makes each new one's `asOf` greater than the last; a tie is decided by content, as `pick` does.
 */
function newerOutlook(a: Load['outlook'], b: Load['outlook']): Load['outlook'] {
  if (a === undefined) return b;
  if (b === undefined || a === b) return a;
  if (a.asOf !== b.asOf) return a.asOf > b.asOf ? a : b;
  return pick(a, b);
}

/** Undocumented fields: the newer answer's values win; unchanged ones keep the previous object. */
function mergeExtras(prev: Load['extras'], next: Load['extras']): Load['extras'] {
  const keys = Object.keys(next);
  if (
    keys.every(
      (k) => Object.hasOwn(prev, k) && (sameData(prev[k], next[k], 0) || compareJson(prev[k], next[k]) === 0),
    )
  )
    return prev;
  const out: Load['extras'] = {};
  for (const source of [prev, next]) {
    for (const k of Object.keys(source)) {
      Object.defineProperty(out, k, {
        value: source[k],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return out;
}

function sameIssues(a: Load['issues'], b: Load['issues']): boolean {
  return a.length === b.length && a.every((x, i) => x.path === b[i]?.path && x.kind === b[i]?.kind);
}

/**
 * Applies a newer answer for one load (a delta after a cursor, or a full pull) to what is known of
 * it: the proxy applies the upstream's answers to its tracks, the browser the proxy's answers to its
 * views, with this one function. Idempotent, commutative and associative over the item lists; keeps
 * every item either side had, once. When `next` brings nothing new, `prev` itself is returned, so
 * views that compare by identity skip it.
 */
export function applyDelta(prev: Load, next: Load): Load {
  if (prev === next) return prev;
  const merged: Load = {
    by: prev.by,
    id: prev.id,
    externalId: prev.externalId ?? next.externalId,
    loadNumber: prev.loadNumber ?? next.loadNumber,
    ltExternalId: prev.ltExternalId ?? next.ltExternalId,
    latestLocation: latest(prev.latestLocation, next.latestLocation),
    latestStatus: latest(prev.latestStatus, next.latestStatus),
    latestTemperature: latest(prev.latestTemperature, next.latestTemperature),
    pings: mergeItems(prev.pings, next.pings, true),
    events: mergeItems(prev.events, next.events),
    comments: mergeItems(prev.comments, next.comments, true),
    documents: mergeItems(prev.documents, next.documents),
    readings: mergeItems(prev.readings, next.readings, true),
    extras: mergeExtras(prev.extras, next.extras),
    issues: next.issues.length > 0 && !sameIssues(prev.issues, next.issues) ? next.issues : prev.issues,
  };
  const outlook = newerOutlook(prev.outlook, next.outlook);
  // Written only when there is one: a load without has no key for it, as the proxy serves it.
  if (outlook !== undefined) merged.outlook = outlook;
  const unchanged = (Object.keys(merged) as (keyof Load)[]).every((k) => merged[k] === prev[k]);
  return unchanged ? prev : merged;
}

/** A skipped item of a readings list (`details[0].temperatures[12].supplyTemp`). */
const READING_ISSUE = /\.temperatures\[/;

/**
 * One load from two answers that asked for different lists: its track (every list but the readings,
 * which a map or a first look needs at once) and its readings (a reefer's, tens of thousands, which
 * come after). The readings, the latest temperature and the skipped readings come from the second,
 * everything else from the first. The track itself is returned when the readings add nothing.
 */
export function withReadings(track: Load, readings: Load): Load {
  const list = mergeItems(track.readings, readings.readings);
  const latestTemperature = latest(track.latestTemperature, readings.latestTemperature);
  const skipped = readings.issues.filter((i) => READING_ISSUE.test(i.path));
  if (list === track.readings && latestTemperature === track.latestTemperature && skipped.length === 0)
    return track;
  return {
    ...track,
    readings: list,
    latestTemperature,
    issues: skipped.length > 0 ? [...track.issues, ...skipped] : track.issues,
  };
}
