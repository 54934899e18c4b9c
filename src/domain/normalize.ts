import type { Driver as WireDriver } from '@/contract/fields';
import type {
  CommentItem,
  DocumentItem,
  EventItem,
  LatestLocation as WireLatestLocation,
  LatestStatus,
  LoadDetail,
  LocationItem,
  PlaceLocation,
  TemperatureReadingItem,
} from '@/contract/load-detail';
import { detailId, wrappedItem, wrappedItemNote, wrappedList } from '@/contract/parse-pull';
import { isRecord } from '@/contract/records';
import { StopItem } from '@/contract/stop';
import { joinPath, type ParseIssue } from '@/contract/parse-issue';
import type {
  Comment,
  Document,
  Driver,
  LatestLocation,
  Load,
  LoadBy,
  Ping,
  Place,
  Position,
  StatusEvent,
  TemperatureReading,
} from './model';
import { timeOf, unreadUtcField, type ItemTime, type ItemTimes } from './time';
import { sortByInstant } from './merge';
import { appointmentOf } from './appointment';
import { stopCoordinate } from './stops';

const KNOWN_FIELDS = new Set([
  'loadTrackExternalId',
  'ltExternalId',
  'loadNumber',
  'latestLocation',
  'latestStatus',
  'latestTemperature',
  'locations',
  'temperatures',
  'events',
  'comments',
  'documents',
]);

/** A coordinate as a number within its range, or undefined ("NaN", "1e309", "91", "", "12,5"). */
export function toCoordinate(raw: string | undefined, limit: 90 | 180): number | undefined {
  if (raw === undefined) return undefined;
  const n = decimal(raw);
  if (!(Number.isFinite(n) && Math.abs(n) <= limit)) return undefined;
  // "-0.0000" is the equator or the meridian: one zero, so that two answers saying it either way
  // are the same item and merge alike in either order.
  return n === 0 ? 0 : n;
}

const DECIMAL = /^[-+]?(\d+(\.\d*)?|\.\d+)$/;
const POWERS_OF_TEN = Array.from({ length: 16 }, (_, i) => 10 ** i);

/**
 * What the last `decimal` call read, when `String` of its number gives back the text itself (as
 * in "41.2565" or "-95.9", not "041.2", "5.10", "-0" or "1e3"): then a key can use the text
 * without writing the number out again. Undefined otherwise.
 */
let decimalText: string | undefined;

/**
 * The number a coordinate text holds when it is a plain decimal (`DECIMAL`, around blanks), NaN
 * otherwise. The common case, a sign and at most 15 digits, is read by hand: an integer of at most
 * 15 digits divided by a power of ten up to 10^15 is exact and correctly rounded, so it equals
 * `Number(text)` (the fast path of Clinger's algorithm). Anything else goes through `Number`.
 */
function decimal(raw: string): number {
  decimalText = undefined;
  const n = raw.length;
  let i = 0;
  if (n > 0 && raw.charCodeAt(0) === 45) i = 1;
  const start = i;
  let mantissa = 0;
  let digits = 0;
  let dot = -1;
  for (; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      digits++;
    } else if (c === 46 && dot < 0) dot = i;
    else break;
  }
  if (i < n || digits === 0 || digits > 15) {
    const text = raw.trim();
    return DECIMAL.test(text) ? Number(text) : Number.NaN;
  }
  const scale = dot < 0 ? 0 : n - dot - 1;
  const magnitude = scale === 0 ? mantissa : mantissa / (POWERS_OF_TEN[scale] as number);
  const value = start === 1 ? -magnitude : magnitude;
  // Plain: an integer part without a leading zero (or just "0"), a fraction that does not end in
  // "0", not "-0", and not below 1e-6 (which String writes with an exponent).
  const intEnd = dot < 0 ? n : dot;
  if (
    intEnd > start &&
    (raw.charCodeAt(start) !== 48 || intEnd === start + 1) &&
    (dot < 0 || (scale > 0 && raw.charCodeAt(n - 1) !== 48)) &&
    (magnitude !== 0 || start === 0) &&
    (magnitude === 0 || magnitude >= 1e-6)
  ) {
    decimalText = raw;
  }
  return value;
}

/** Accuracy in meters, or null when unknown (absent, negative, not finite): no circle is drawn. */
export function toAccuracy(raw: number | undefined): number | null {
  return raw !== undefined && Number.isFinite(raw) && raw >= 0 ? raw : null;
}

// The last driver made: the items of a load mostly have the same one, and share it (see model.ts).
let lastDriver: Driver = { name: undefined, phone: undefined };

function toDriver(d: WireDriver | undefined, phone?: string): Driver | undefined {
  const name = d?.name?.trim() || undefined;
  const phoneNumber = d?.phoneNumber?.trim() || phone?.trim() || undefined;
  if (!name && !phoneNumber) return undefined;
  if (name !== lastDriver.name || phoneNumber !== lastDriver.phone) lastDriver = { name, phone: phoneNumber };
  return lastDriver;
}

function toPlace(p: {
  city?: string | undefined;
  state?: string | undefined;
  country?: string | undefined;
}): Place {
  return { city: p.city, state: p.state, country: p.country };
}

/**
 * Reads the items of one load and collects what it finds wrong. The JSON path of the item being
 * read is `at`, or `at[index]` inside a list; it is only spelled out when there is an issue to
 * report, since a big answer has a hundred thousand items and almost none of them has one.
 */
class Reader {
  at = '';
  index = -1;

  constructor(
    readonly base: string,
    readonly issues: ParseIssue[],
  ) {}

  /** The JSON path of the item being read. */
  path(): string {
    return this.index < 0 ? this.at : joinPath(this.at, this.index);
  }

  // The position `read` found, and the coordinates' texts when they are what `String` would write.
  lat = 0;
  lon = 0;
  accuracy: number | null = null;
  latText: string | undefined = undefined;
  lonText: string | undefined = undefined;

  /**
   * Reads a position from an item's fields into `lat`, `lon`, `accuracy`; false (and reported) when
   * a coordinate is not a number in range. `field` is where they sit below the item.
   */
  read(
    lat: string | undefined,
    lon: string | undefined,
    accuracy: number | undefined,
    field: '' | 'location',
  ): boolean {
    const la = toCoordinate(lat, 90);
    const latText = decimalText;
    const lo = toCoordinate(lon, 180);
    if (la === undefined || lo === undefined) {
      const path = field === '' ? this.path() : joinPath(this.path(), field);
      this.issues.push({
        path: joinPath(path, la === undefined ? 'lat' : 'lon'),
        kind: 'bad_coordinate',
        message: `coordinate ${JSON.stringify(la === undefined ? lat : lon)} is not a number in range`,
        skipped: true,
        // A comment's or document's own place is dropped alone; a ping without one is skipped.
        ...(field === 'location' && { keptItem: true }),
      });
      return false;
    }
    this.lat = la;
    this.lon = lo;
    this.accuracy = toAccuracy(accuracy);
    this.latText = latText;
    this.lonText = decimalText;
    return true;
  }

  /** A position from an item's fields, or undefined (and reported); see `read`. */
  position(
    lat: string | undefined,
    lon: string | undefined,
    accuracy: number | undefined,
    field: '' | 'location',
  ): Position | undefined {
    return this.read(lat, lon, accuracy, field)
      ? { lat: this.lat, lon: this.lon, accuracy: this.accuracy }
      : undefined;
  }

  /** An optional position (of a comment or document): absent coordinates are no issue, bad ones are. */
  optionalPosition(loc: PlaceLocation | undefined): Position | undefined {
    if (!loc || (loc.lat === undefined && loc.lon === undefined)) return undefined;
    return this.position(loc.lat, loc.lon, loc.accuracy, 'location');
  }

  /** Notes an unknown zone in the time of the item being read. */
  time(t: ItemTime): ItemTime {
    if (t.instant !== undefined && !t.zoneKnown && t.zone !== undefined) {
      this.issues.push({
        path: this.path(),
        kind: 'unknown_zone',
        message: `zone "${t.zone}" is not a known abbreviation; its local time is shown as written`,
        skipped: false,
      });
    }
    // Its UTC time sent in a form not read: the time shown came from the item's other fields.
    const unread = t.instant === undefined ? undefined : unreadUtcField();
    if (unread !== undefined)
      this.issues.push({
        path: joinPath(this.path(), unread),
        kind: 'bad_time',
        message: `not a ${unread === 'timestampUTC' ? 'MM/DD/YYYY HH:mm:ss UTC' : 'YYYY-MM-DD HH:mm:ss'} time: the item's time was read from its other fields`,
        skipped: true,
        keptItem: true,
      });
    return t;
  }

  /** The time of an item that cannot be placed without one; undefined (and reported) when unreadable. */
  requiredTime(t: ItemTime): ItemTime | undefined {
    this.time(t);
    if (t.instant === undefined) {
      this.issues.push({
        path: this.path(),
        kind: 'bad_time',
        message: 'no readable time; item skipped',
        skipped: true,
      });
      return undefined;
    }
    return t;
  }
}

/**
 * `String(instant)`, faster: an instant (whole milliseconds, around 1.8e12) is beyond the small
 * integers whose text the engine writes quickly, so it is written as two halves of at most seven
 * digits. Keys are made for every item of an answer.
 */
function instantText(instant: number): string {
  if (!(instant >= 1e6 && instant <= Number.MAX_SAFE_INTEGER && Number.isInteger(instant))) {
    return String(instant);
  }
  const high = Math.floor(instant / 1e6);
  const low = instant - high * 1e6;
  return low >= 100_000 ? `${high}${low}` : `${high}${String(low + 1e6).slice(1)}`;
}

/**
 * Keys are kept as long as their items, tens of thousands on a board: each is written out as one
 * flat string (`join`). Joined with `+` or a template, a key is a rope of four or five pieces that the
 * engine keeps as they are (more bytes per key, and more objects for every collection to trace).
 * `join` writes `undefined` as nothing, as the keys want.
 */
const joined = (...parts: (string | number | undefined)[]): string => parts.join('|');

export const keys = {
  ping: (instant: number, p: Position) => joined(instantText(instant), p.lat, p.lon),
  event: (id: string | undefined, instant: number, name?: string, code?: string) =>
    id !== undefined ? ['id:', id].join('') : joined(instantText(instant), name, code),
  comment: (instant: number, by: string | undefined, text: string | undefined) =>
    joined(instantText(instant), by, text),
  document: (url: string) => url,
  // The service writes a reading's time to the minute only: several readings of one device can share
  // it, so their values are part of who they are (two equal ones in one minute are one reading).
  reading: (
    deviceId: string | undefined,
    instant: number,
    supply: number | undefined,
    ret: number | undefined,
    set: number | undefined,
  ) => joined(deviceId, instantText(instant), supply, ret, set),
};

/** `keys.ping` of the position `r` just read, from the coordinates' texts when they are plain. */
function pingKey(r: Reader, instant: number): string {
  return joined(instantText(instant), r.latText ?? r.lat, r.lonText ?? r.lon);
}

/* Each reader below makes one item of the model. */

function latestLocation(r: Reader, w: WireLatestLocation): LatestLocation | undefined {
  const placed = r.read(w.lat, w.lon, w.accuracy, '');
  // Read here, at a site that sees one kind of item, the fields are quick to read.
  const f = w as ItemTimes;
  const time = r.requiredTime(timeOf(f.timestampUTC, f.deviceTimeGmt, f.timestampSec, f.timestamp));
  if (!placed || !time) return undefined;
  const instant = time.instant as number;
  return {
    lat: r.lat,
    lon: r.lon,
    accuracy: r.accuracy,
    key: pingKey(r, instant),
    instant,
    time,
    place: toPlace(w),
    driver: toDriver(w.driver),
  };
}

function ping(r: Reader, w: LocationItem): Ping | undefined {
  const placed = r.read(w.lat, w.lon, w.accuracy, '');
  // Read here, at a site that sees one kind of item, the fields are quick to read.
  const f = w as ItemTimes;
  const time = r.requiredTime(timeOf(f.timestampUTC, f.deviceTimeGmt, f.timestampSec, f.timestamp));
  if (!placed || !time) return undefined;
  const instant = time.instant as number;
  return {
    lat: r.lat,
    lon: r.lon,
    accuracy: r.accuracy,
    key: pingKey(r, instant),
    instant,
    time,
    driver: toDriver(w.driver, w.driverPhoneNumber),
  };
}

function statusEvent(r: Reader, w: EventItem | LatestStatus): StatusEvent | undefined {
  // Read here, at a site that sees one kind of item, the fields are quick to read.
  const f = w as ItemTimes;
  const time = r.requiredTime(timeOf(f.timestampUTC, f.deviceTimeGmt, f.timestampSec, f.timestamp));
  if (!time) return undefined;
  const instant = time.instant as number;
  // latestStatus has no id; an events item has it as a string after parsing.
  const id = typeof w.id === 'string' ? w.id : undefined;
  const name = w.name?.trim() || undefined;
  const code = w.code?.trim() || undefined;
  return {
    key: keys.event(id, instant, name, code),
    instant,
    time,
    id,
    name,
    code,
    driver: toDriver(w.driver),
  };
}

/**
 * A comment is at most this long: a browser laying out megabytes of text without a space froze the
 * load page, and no message a driver or broker types is near it.
 */
export const COMMENT_MAX_CHARACTERS = 10_000;

function comment(r: Reader, w: CommentItem): Comment | undefined {
  // Read here, at a site that sees one kind of item, the fields are quick to read.
  const f = w as ItemTimes;
  const time = r.requiredTime(timeOf(f.timestampUTC, f.deviceTimeGmt, f.timestampSec, f.timestamp));
  if (!time) return undefined;
  const instant = time.instant as number;
  const by = w.commentBy === 'D' ? 'driver' : w.commentBy === 'B' ? 'broker' : undefined;
  let text = w.comment;
  if (text !== undefined && text.length > COMMENT_MAX_CHARACTERS) {
    r.issues.push({
      path: joinPath(r.path(), 'comment'),
      kind: 'invalid_value',
      message: `a comment of ${text.length} characters is shortened to its first ${COMMENT_MAX_CHARACTERS}`,
      // Noted, not dropped: the comment is shown, its text ending in "…".
      skipped: false,
    });
    text = `${text.slice(0, COMMENT_MAX_CHARACTERS)}…`;
  }
  return {
    key: keys.comment(instant, w.commentBy, text),
    instant,
    time,
    text,
    by,
    position: r.optionalPosition(w.location),
    place: w.location ? toPlace(w.location) : undefined,
    driver: toDriver(w.driver),
  };
}

function document(r: Reader, w: DocumentItem): Document {
  const f = w as ItemTimes;
  const time = r.time(timeOf(f.timestampUTC, f.deviceTimeGmt, f.timestampSec, f.timestamp));
  return {
    key: keys.document(w.url),
    instant: time.instant ?? null,
    time,
    url: w.url,
    type: w.type?.trim() || undefined,
    stopExternalId: w.stopExternalId,
    stopOrderNumber: w.stopOrderNumber,
    position: r.optionalPosition(w.location),
    place: w.location ? toPlace(w.location) : undefined,
    driver: toDriver(w.driver),
  };
}

function reading(r: Reader, w: TemperatureReadingItem): TemperatureReading | undefined {
  // Read here, at a site that sees one kind of item, the fields are quick to read.
  const f = w as ItemTimes;
  const time = r.requiredTime(timeOf(f.timestampUTC, f.deviceTimeGmt, f.timestampSec, f.timestamp));
  if (!time) return undefined;
  const instant = time.instant as number;
  const loc = w.location;
  const position =
    loc && (loc.latitude !== undefined || loc.longitude !== undefined)
      ? r.position(loc.latitude, loc.longitude, loc.accuracy, 'location')
      : undefined;
  const zone = w.temperature?.zone1;
  return {
    key: keys.reading(w.deviceId, instant, zone?.supply, zone?.return, zone?.set),
    instant,
    time,
    deviceId: w.deviceId,
    supply: zone?.supply,
    return: zone?.return,
    set: zone?.set,
    unit: w.temperature?.UnitOfMeasurement,
    position,
  };
}

/** Reads a single object of the detail (`latestLocation`, say), at `base.name`. */
function single<W, T>(
  r: Reader,
  item: W | undefined,
  name: string,
  read: (r: Reader, w: W) => T | undefined,
): T | undefined {
  if (!item) return undefined;
  r.at = joinPath(r.base, name);
  r.index = -1;
  return read(r, item);
}

function list<W, T>(
  r: Reader,
  items: W[] | undefined,
  name: string,
  read: (r: Reader, w: W) => T | undefined,
): T[] {
  if (!items) return [];
  // Sized once: growing a list by `push` copies it several times over in a big answer.
  const out = new Array<T>(items.length);
  let n = 0;
  r.at = joinPath(r.base, name);
  for (let i = 0; i < items.length; i++) {
    r.index = i;
    const item = read(r, items[i] as W);
    if (item !== undefined) out[n++] = item;
  }
  out.length = n;
  return out;
}

const STOP_FIELDS: readonly string[] = Object.keys(StopItem.shape);
/**
 * The load's stops (undocumented) as the domain reads them (`readStops`): a list wrapped in an object
 * (`{"items": [...]}`) or a stop wrapped one level deeper (`{"stop": {...}}`) is read from inside, and
 * a field no stop can use (an object, a list) is noted as dropped, its stop kept. The same list when
 * nothing needed either.
 */
function stopList(raw: unknown, path: string, issues: ParseIssue[]): unknown {
  let list = raw;
  if (isRecord(raw)) {
    const wrapped = wrappedList(raw);
    if (!wrapped) {
      issues.push({ path, kind: 'wrong_type', message: 'expected a list of stops', skipped: true });
      return raw;
    }
    issues.push(wrappedItemNote(path, wrapped.key));
    list = wrapped.list;
  }
  if (!Array.isArray(list)) return raw;
  // Every load of every pull passes here: a list of plain stops is read without a copy or a path.
  let out: unknown[] | undefined = list === raw ? undefined : [...(list as unknown[])];
  for (let i = 0; i < list.length; i++) {
    let stop: unknown = list[i];
    if (isRecord(stop) && STOP_FIELDS.some((f) => Object.hasOwn(stop as object, f))) {
      oddStopFields(stop, path, i, issues);
      continue;
    }
    const wrapped = wrappedItem(stop, STOP_FIELDS);
    if (wrapped) {
      issues.push(wrappedItemNote(joinPath(path, i), wrapped.key));
      stop = wrapped.item;
      (out ??= [...(list as unknown[])])[i] = stop;
      oddStopFields(wrapped.item, path, i, issues);
    } else if (!isRecord(stop))
      issues.push({
        path: joinPath(path, i),
        kind: 'wrong_type',
        message: 'expected a stop object: skipped',
        skipped: true,
      });
  }
  return out ?? raw;
}

/** Notes each field of a stop that no stop can use (an object, a list): dropped, the stop kept. */
function oddStopFields(stop: Record<string, unknown>, path: string, i: number, issues: ParseIssue[]): void {
  for (const key of STOP_FIELDS) {
    const v = stop[key];
    if (typeof v === 'object' && v !== null)
      issues.push({
        path: joinPath(joinPath(path, i), key),
        kind: 'wrong_type',
        message: `expected text or a number, received ${Array.isArray(v) ? 'a list' : 'an object'}: the field was dropped, its item kept`,
        skipped: true,
        keptItem: true,
      });
  }
  // A coordinate sent that is none ("38,627"): the stop has no point, said here as its ETA says it.
  for (const [key, limit] of [
    ['lat', 90],
    ['lon', 180],
  ] as const) {
    const v = stop[key];
    if (
      ((typeof v === 'string' && v.trim() !== '') || typeof v === 'number') &&
      stopCoordinate(String(v).trim(), limit) === undefined
    )
      issues.push({
        path: joinPath(joinPath(path, i), key),
        kind: 'bad_coordinate',
        message: `coordinate ${JSON.stringify(v).slice(0, 40)} is not a number in range: the stop has no point`,
        skipped: true,
        keptItem: true,
      });
  }
  // An appointment sent in another form is no appointment: said here, as the load page says it.
  const sent = stop.datetime;
  if ((typeof sent === 'string' && sent.trim() !== '') || typeof sent === 'number') {
    if (appointmentOf(String(sent).trim(), undefined) === undefined)
      issues.push({
        path: joinPath(joinPath(path, i), 'datetime'),
        kind: 'invalid_value',
        message: `${JSON.stringify(sent).slice(0, 60)} is not an appointment time (MM/DD/YYYY HH:mm): the stop has no appointment`,
        skipped: true,
        keptItem: true,
      });
  }
}

/** The newest of pings in time order as a latest location, with no place (a ping has none). */
function latestOfPings(pings: readonly Ping[]): LatestLocation | undefined {
  const newest = pings[pings.length - 1];
  if (newest === undefined) return undefined;
  const { driver, ...fix } = newest;
  return { ...fix, place: {}, ...(driver !== undefined ? { driver } : {}) };
}

/**
 * Turns one parsed load detail into a Load. `issues` are those the contract parser reported for
 * this load; those found here (bad coordinates, unreadable times) are added to them.
 * Returns undefined only when the detail has no id for `by`.
 */
export function normalizeLoad(
  detail: LoadDetail,
  by: LoadBy,
  path: string,
  issues: ParseIssue[] = [],
): Load | undefined {
  const id = detailId(detail, by);
  if (id === undefined) return undefined;
  const r = new Reader(path, issues);
  const extras: Record<string, unknown> = {};
  // Keys read one by one: a list of [key, value] pairs for every load of every refresh is garbage.
  for (const k in detail) {
    if (Object.hasOwn(detail, k) && !KNOWN_FIELDS.has(k)) {
      const value = (detail as Record<string, unknown>)[k];
      Object.defineProperty(extras, k, {
        value: k === 'stops' ? stopList(value, joinPath(path, 'stops'), issues) : value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  // The keys of pings, comments and readings spell out their instants (see `keys`).
  const pings = sortByInstant(list(r, detail.locations, 'locations', ping), true);
  return {
    by,
    id,
    externalId: detail.loadTrackExternalId,
    loadNumber: detail.loadNumber,
    ltExternalId: detail.ltExternalId,
    // Its own unreadable or absent, the newest ping read is where the load was last seen: a fresh
    // track is never "no ping yet" and off the map.
    latestLocation:
      single(r, detail.latestLocation, 'latestLocation', latestLocation) ?? latestOfPings(pings),
    latestStatus: single(r, detail.latestStatus, 'latestStatus', statusEvent),
    latestTemperature: single(r, detail.latestTemperature, 'latestTemperature', reading),
    pings,
    events: sortByInstant(list(r, detail.events, 'events', statusEvent)),
    comments: sortByInstant(list(r, detail.comments, 'comments', comment), true),
    documents: sortByInstant(list(r, detail.documents, 'documents', document)),
    readings: sortByInstant(list(r, detail.temperatures, 'temperatures', reading), true),
    extras,
    issues,
  };
}
