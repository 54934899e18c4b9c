import type { z } from 'zod';
import { fastListItems, fastObjects, fastOptionalId } from './fast-items';
import { optionalId } from './fields';
import { jsonPrint } from './json-print';
import {
  detailLists,
  detailObjects,
  documentedFields,
  loadDetailFields,
  PullEnvelope,
  type DetailListName,
  type LoadDetail,
} from './load-detail';
import { issuesFromZod, joinPath, REPORT_INPUT, type ParseIssue } from './parse-issue';
import { isRecord } from './records';

export interface PullAnswer {
  status: boolean;
  timeStamp: string | undefined;
  details: LoadDetail[];
  /** What was skipped or noted in each detail, in the order of `details`. */
  detailIssues: ParseIssue[][];
  /** The answer's details not read yet, after `details` (`unreadDetails`). */
  unread?: UnreadDetails;
}

/**
 * A pull answer's details left as their text, each read (parsed and checked as `parseLoadDetail`
 * does) only when its caller takes it, in any order, once: a large answer is then held as its
 * bytes and the tree of one detail at a time, never as one tree of all of them.
 */
export interface UnreadDetails {
  count: number;
  /** The detail at `i` among the unread ones, and its notes (also added to the answer's `issues`). */
  take: (i: number) => { detail: LoadDetail | undefined; issues: ParseIssue[] };
}

/**
 * `count` details read by `raw(i)` (the value of the answer's `details[first + i]`; it throws when
 * its text is not JSON) only when taken; their notes go to `issues` as they are read.
 */
export function unreadDetails(
  count: number,
  first: number,
  raw: (i: number) => unknown,
  issues: ParseIssue[],
): UnreadDetails {
  return {
    count,
    take: (i) => {
      const own: ParseIssue[] = [];
      const detail = parseLoadDetail(raw(i), joinPath('details', first + i), own);
      issues.push(...own);
      return { detail, issues: own };
    },
  };
}

export interface Parsed<T> {
  data: T;
  issues: ParseIssue[];
}

const idFields = ['loadTrackExternalId', 'ltExternalId', 'loadNumber'] as const;

/** Documented fields whose value is an object: never a wrapper by their name. */
const OBJECT_FIELDS = new Set([
  'driver',
  'location',
  'temperature',
  'latestLocation',
  'latestStatus',
  'latestTemperature',
]);

/**
 * An item wrapped one level deeper than documented (`{ "event": { "id": 5, … } }`, `{ "data": … }`):
 * it holds none of its documented `fields`, and exactly one of its properties is a plain object
 * that holds some. Returns that property; undefined for any other value. One level only. An item
 * whose one property is an object holding documented fields is a wrapper too, even when the
 * property's name is itself a field (`{ "comment": { "comment": "…", "commentBy": "D" } }`).
 */
export function wrappedItem(
  value: unknown,
  fields: readonly string[],
): { key: string; item: Record<string, unknown> } | undefined {
  if (!isRecord(value)) return undefined;
  const keys = Object.keys(value);
  let found: { key: string; item: Record<string, unknown> } | undefined;
  for (const key of keys) {
    if (fields.includes(key) && (keys.length > 1 || OBJECT_FIELDS.has(key))) return undefined;
    const inner = value[key];
    if (!isRecord(inner)) continue;
    if (found) return undefined;
    found = { key, item: inner };
  }
  const item = found?.item;
  return item && fields.some((f) => Object.hasOwn(item, f)) ? found : undefined;
}

/**
 * A list wrapped in an object (`{ "items": [ … ] }`): the object's one property that is a list, or
 * undefined when it has none or several.
 */
export function wrappedList(value: Record<string, unknown>): { key: string; list: unknown[] } | undefined {
  let found: { key: string; list: unknown[] } | undefined;
  for (const key of Object.keys(value)) {
    const list = value[key];
    if (!Array.isArray(list)) continue;
    if (found) return undefined;
    found = { key, list };
  }
  return found;
}

/** The note that an item was read from inside its wrapper: nothing was skipped. */
export function wrappedItemNote(path: string, key: string): ParseIssue {
  return {
    path,
    kind: 'wrapped_item',
    message: `item wrapped in "${key}", one level deeper than documented: read from inside`,
    skipped: false,
  };
}

/** How one kind of item is read: its schema, its fast reader, its documented fields. */
interface ItemReader<S extends z.ZodType> {
  schema: S;
  fast: (item: unknown) => unknown;
  fields: readonly string[];
}

/** The readers of each kind of item, by the name of its list or object in a load detail. */
function readers<K extends DetailListName | keyof typeof detailObjects, S extends z.ZodType>(
  schemas: Readonly<Record<K, S>>,
  fast: Readonly<Record<K, (item: unknown) => unknown>>,
): Record<K, ItemReader<S>> {
  const out = {} as Record<K, ItemReader<S>>;
  for (const name of Object.keys(schemas) as K[])
    out[name] = { schema: schemas[name], fast: fast[name], fields: documentedFields[name] };
  return out;
}

/**
 * Reads an item with its schema. One odd field costs that field, not the item: when the schema
 * refuses some fields, the item is read again without them (each at its own depth: a reading's odd
 * `temperature.zone1.supply` leaves its return and set), and kept if it then reads, each dropped
 * field noted. Only an item that cannot be read without a field it needs (a ping's lat) is skipped.
 */
export function readBySchema<S extends z.ZodType>(
  schema: S,
  raw: unknown,
  path: string,
  issues: ParseIssue[],
): z.infer<S> | undefined {
  const result = schema.safeParse(raw, REPORT_INPUT);
  if (result.success) return result.data;
  const found = issuesFromZod(result.error, path, true);
  let error = result.error;
  let rest = raw;
  // The notes of every round's dropped fields, the first round's being `found`.
  const dropped: ParseIssue[] = [];
  let notes = found;
  // A field dropped can let the schema reach others it had not judged yet: a few rounds at most.
  for (let round = 0; round < 3 && isRecord(rest); round++) {
    const next = withoutFields(
      rest,
      error.issues.map((i) => i.path),
    );
    if (next === undefined) break;
    dropped.push(...notes);
    const again = schema.safeParse(next, REPORT_INPUT);
    if (again.success) {
      for (const issue of dropped)
        issues.push({
          ...issue,
          message: `${issue.message}: the field was dropped, its item kept`,
          keptItem: true,
        });
      return again.data;
    }
    rest = next;
    error = again.error;
    notes = issuesFromZod(error, path, true);
  }
  issues.push(...found);
  return undefined;
}

/** A plain object's copy, by defineProperty so that a key such as "__proto__" stays a plain field. */
function copyOf(value: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value))
    Object.defineProperty(copy, key, { value: v, enumerable: true, writable: true, configurable: true });
  return copy;
}

/**
 * `value` without the field at each path, each taken out as deep as objects go along it; undefined
 * when a path names no field (the item itself is of the wrong kind) or nothing would change.
 */
function withoutFields(
  value: Record<string, unknown>,
  paths: readonly (readonly PropertyKey[])[],
): Record<string, unknown> | undefined {
  const out = copyOf(value);
  let changed = false;
  for (const path of paths) {
    let at = out;
    for (let k = 0; k < path.length; k++) {
      const key = path[k];
      if (typeof key !== 'string' || !Object.hasOwn(at, key)) break;
      const inner = at[key];
      const nextKey = path[k + 1];
      if (
        k === path.length - 1 ||
        !isRecord(inner) ||
        typeof nextKey !== 'string' ||
        !Object.hasOwn(inner, nextKey)
      ) {
        delete at[key];
        changed = true;
        break;
      }
      const copy = copyOf(inner);
      at[key] = copy;
      at = copy;
    }
  }
  return changed ? out : undefined;
}

/**
 * Reads an item the fast reader declined. An item wrapped one level deeper is read from inside when
 * its inside reads, with a note; otherwise the item itself is read (`readBySchema`).
 */
function readSlowly<S extends z.ZodType>(
  reader: ItemReader<S>,
  raw: unknown,
  path: string,
  issues: ParseIssue[],
): z.infer<S> | undefined {
  const wrapped = wrappedItem(raw, reader.fields);
  if (wrapped) {
    const quick = reader.fast(wrapped.item);
    const own: ParseIssue[] = [];
    const inner =
      quick !== undefined
        ? quick
        : readBySchema(reader.schema, wrapped.item, joinPath(path, wrapped.key), own);
    if (inner !== undefined) {
      issues.push(wrappedItemNote(path, wrapped.key), ...own);
      return inner as z.infer<S>;
    }
  }
  return readBySchema(reader.schema, raw, path, issues);
}

/**
 * Parses each item of a list alone: a bad item is skipped and reported, the rest kept. `fast` reads
 * a well-formed item as `schema` would; whatever it does not vouch for is read slowly.
 */
function parseList<S extends z.ZodType>(
  reader: ItemReader<S>,
  value: unknown,
  path: string,
  issues: ParseIssue[],
): z.infer<S>[] | undefined {
  if (value === null || value === undefined) return undefined;
  // A list wrapped one level deeper (`{ "items": [ … ] }`) is read from inside, as `details` is.
  const wrapped = isRecord(value) ? wrappedList(value) : undefined;
  if (wrapped) {
    issues.push(wrappedItemNote(path, wrapped.key));
    value = wrapped.list;
  }
  if (!Array.isArray(value)) {
    issues.push({ path, kind: 'wrong_type', message: 'expected an array', skipped: true });
    return undefined;
  }
  // Sized once: growing a list by `push` copies it several times over in a big answer.
  const items = new Array<z.infer<S>>(value.length);
  let n = 0;
  const { fast } = reader;
  for (let i = 0; i < value.length; i++) {
    const quick = fast(value[i]);
    if (quick !== undefined) {
      items[n++] = quick as z.infer<S>;
      continue;
    }
    const item = readSlowly(reader, value[i], joinPath(path, i), issues);
    if (item !== undefined) items[n++] = item;
  }
  items.length = n;
  return items;
}

const listReaders = readers(detailLists, fastListItems);
const objectReaders = readers(detailObjects, fastObjects);

/**
 * Reads one load detail (2.4 or 2.5) field by field. A malformed field or item is dropped and
 * reported; undocumented fields (stops, say) are kept as they came. Returns undefined only when the
 * value is not an object or carries no id at all, since such a load cannot be matched to a request.
 */
export function parseLoadDetail(value: unknown, path: string, issues: ParseIssue[]): LoadDetail | undefined {
  // A load wrapped one level deeper (`{ "loadDetail": { … } }`) is read from inside, as items are.
  const wrapped = wrappedItem(value, loadDetailFields);
  if (!wrapped) return readDetail(value, path, issues);
  issues.push(wrappedItemNote(path, wrapped.key));
  return readDetail(wrapped.item, joinPath(path, wrapped.key), issues);
}

function readDetail(value: unknown, path: string, issues: ParseIssue[]): LoadDetail | undefined {
  if (!isRecord(value)) {
    issues.push({ path, kind: 'wrong_type', message: 'expected a load detail object', skipped: true });
    return undefined;
  }
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(value)) {
    const at = joinPath(path, key);
    if (Object.hasOwn(detailLists, key)) {
      const name = key as DetailListName;
      const list = parseList(listReaders[name], raw, at, issues);
      if (list) out[key] = list;
    } else if (Object.hasOwn(detailObjects, key)) {
      if (raw === null || raw === undefined) continue;
      const reader = objectReaders[key as keyof typeof detailObjects];
      const quick = reader.fast(raw);
      const object = quick !== undefined ? quick : readSlowly(reader, raw, at, issues);
      if (object !== undefined) out[key] = object;
    } else if ((idFields as readonly string[]).includes(key)) {
      const quick = fastOptionalId(raw);
      if (quick !== undefined) {
        if (quick !== null) out[key] = quick;
        continue;
      }
      const result = optionalId.safeParse(raw, REPORT_INPUT);
      if (result.success) {
        if (result.data !== undefined) out[key] = result.data;
      } else issues.push(...issuesFromZod(result.error, at, true));
    } else {
      // defineProperty, so that a key such as "__proto__" stays a plain field.
      Object.defineProperty(out, key, { value: raw, enumerable: true, writable: true, configurable: true });
      issues.push({
        path: at,
        kind: 'unknown_field',
        message: `undocumented field "${key}" kept`,
        skipped: false,
      });
    }
  }
  if (idFields.every((f) => out[f] === undefined)) {
    issues.push({ path, kind: 'missing_id', message: 'load detail without any id skipped', skipped: true });
    return undefined;
  }
  return out as LoadDetail;
}

/** The id a load detail answers for: external id, else load number, else `ltExternalId`. */
export function detailId(detail: LoadDetail, by: 'external-id' | 'load-number'): string | undefined {
  return by === 'external-id'
    ? (detail.loadTrackExternalId ?? detail.ltExternalId)
    : (detail.loadNumber ?? detail.ltExternalId);
}

/**
 * Lets a caller skip details it read before: `seen` gets each detail's id (as `detailId` reads it
 * for `by`) and a print of its raw value (`jsonPrint`), and returns the notes that very detail gave
 * when it was read, or undefined to have it read.
 */
export interface KnownDetails {
  by: 'external-id' | 'load-number';
  seen: (id: string, print: number) => readonly ParseIssue[] | undefined;
}

/**
 * In place of a detail in an answer's `details`: one its caller recognised before reading it (as
 * `KnownDetails` does, from the answer's text), counted only by its notes.
 */
export class KnownDetail {
  constructor(readonly notes: readonly ParseIssue[]) {}
}

/** A raw detail's id as `detailId` would read it once parsed; undefined when not plainly one. */
export function rawDetailId(raw: Record<string, unknown>, by: KnownDetails['by']): string | undefined {
  const first = fastOptionalId(raw[by === 'external-id' ? 'loadTrackExternalId' : 'loadNumber']);
  if (first !== null) return first;
  return fastOptionalId(raw.ltExternalId) ?? undefined;
}

/**
 * Every raw detail's id (`rawDetailId`), or undefined when one is not plainly read: then no detail of
 * the answer may be skipped, as one read only by the parser could be the load of a skipped one, and
 * the skipped one would stand in for it (the first detail of a load counts).
 */
export function rawDetailIds(raws: readonly unknown[], by: KnownDetails['by']): string[] | undefined {
  const ids: string[] = [];
  for (const raw of raws) {
    const id = isRecord(raw) ? rawDetailId(raw, by) : undefined;
    if (id === undefined) return undefined;
    ids.push(id);
  }
  return ids;
}

interface Envelope {
  status: boolean;
  timeStamp: string | undefined;
  details?: readonly unknown[] | null;
}

/**
 * The envelope (2.3) as documented, or read leniently: the loads are what matters, so an odd
 * `timeStamp` is dropped, a `status` written as text is read, an envelope wrapped one level deeper
 * (`{ "data": { "details": … } }`) or `details` wrapped in an object (`{ "items": [ … ] }`) is read
 * from inside, each with a note. Only an answer with no readable `status` and no list of details,
 * or whose `details` is not a list, is refused.
 */
function readEnvelope(
  value: unknown,
  issues: ParseIssue[],
): Envelope | { error: string; issues: ParseIssue[] } {
  const documented = PullEnvelope.safeParse(value, REPORT_INPUT);
  if (documented.success) return documented.data;
  const refused = (why: string) => ({
    error: `the answer is not a pull envelope (${why})`,
    issues: [...issues],
  });
  if (!isRecord(value)) return refused('$: expected an object');
  let outer = value;
  if (!('details' in outer) && !('status' in outer)) {
    const wrapped = wrappedItem(outer, ['status', 'timeStamp', 'details']);
    if (wrapped) {
      issues.push(wrappedItemNote('', wrapped.key));
      outer = wrapped.item;
    }
  }
  let details: unknown = outer.details;
  if (isRecord(details)) {
    const wrapped = wrappedList(details);
    if (wrapped) {
      issues.push(wrappedItemNote('details', wrapped.key));
      details = wrapped.list;
    }
  }
  if (details !== undefined && details !== null && !Array.isArray(details))
    return refused('details: expected a list of load details');
  let status: boolean;
  const raw = outer.status;
  if (typeof raw === 'boolean') status = raw;
  else if (typeof raw === 'string' && /^(true|false)$/i.test(raw.trim())) {
    status = raw.trim().toLowerCase() === 'true';
    issues.push({
      path: 'status',
      kind: 'wrong_type',
      message: `status "${raw}" as text: read as ${status}`,
      skipped: false,
    });
  } else if (Array.isArray(details)) {
    status = true;
    issues.push({
      path: 'status',
      kind: raw === undefined ? 'missing' : raw === null ? 'null_where_required' : 'wrong_type',
      message: 'no readable status: the loads in the answer are read all the same',
      skipped: false,
    });
  } else return refused(`status: expected true or false, and no list of details`);
  let timeStamp: string | undefined;
  if (typeof outer.timeStamp === 'string') timeStamp = outer.timeStamp;
  else if (outer.timeStamp !== undefined && outer.timeStamp !== null)
    issues.push({ path: 'timeStamp', kind: 'wrong_type', message: 'expected text: dropped', skipped: true });
  return { status, timeStamp, details: details as readonly unknown[] | null | undefined };
}

/**
 * Reads a pull answer (2.3). Never throws, whatever the value: the envelope's own fields decide
 * whether the answer is usable at all; every load and item in it is kept or skipped on its own.
 * A detail `known` recognises is left out of `details`, its notes counted in `issues` as if read.
 */
export function parsePullAnswer(
  value: unknown,
  known?: KnownDetails,
): Parsed<PullAnswer> | { error: string; issues: ParseIssue[] } {
  const issues: ParseIssue[] = [];
  const envelope = readEnvelope(value, issues);
  if ('error' in envelope) return envelope;
  const details: LoadDetail[] = [];
  const detailIssues: ParseIssue[][] = [];
  const raws = envelope.details ?? [];
  const ids = known && rawDetailIds(raws, known.by);
  raws.forEach((raw, i) => {
    if (raw instanceof KnownDetail) {
      issues.push(...raw.notes);
      return;
    }
    const id = ids?.[i];
    const notes = known && id !== undefined ? known.seen(id, jsonPrint(raw)) : undefined;
    if (notes) {
      issues.push(...notes);
      return;
    }
    const own: ParseIssue[] = [];
    const detail = parseLoadDetail(raw, joinPath('details', i), own);
    issues.push(...own);
    if (detail) {
      details.push(detail);
      detailIssues.push(own);
    }
  });
  return {
    data: { status: envelope.status, timeStamp: envelope.timeStamp, details, detailIssues },
    issues,
  };
}
