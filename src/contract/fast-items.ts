import type { Driver } from './fields';
import type {
  CommentItem,
  DetailListName,
  DocumentItem,
  EventItem,
  LatestLocation,
  LatestStatus,
  LocationItem,
  PlaceLocation,
  TemperatureReadingItem,
} from './load-detail';

/**
 * Fast readers of the wire shapes in `load-detail.ts`, for the items a big answer holds by the
 * ten thousand. The zod schemas stay the definition: each reader here checks a well-formed item
 * cheaply and builds exactly what its schema would (same values, same keys in the same order,
 * `undefined`-valued keys included), or returns `undefined` when anything is odd (a wrong type, a
 * malformed nested object). Then the caller runs the schema,
 * which decides and reports. Nothing here reports an issue: a fast read only ever succeeds where
 * the schema succeeds without one. An object is read with the operations zod uses (`input[key]`,
 * `key in input`, `for...in`), so any object reads alike, provided that reading its properties
 * has no side effects (JSON never has getters). An object whose fields are all there is made as
 * one literal, the others field by field. `fast-items.test.ts` checks, on arbitrary items, that
 * both ways agree. An item with none of its documented fields is declined as well, though its
 * schema (all fields optional) would take it: it may be an item wrapped one level deeper, which
 * the parser looks into. Only that rare branch pays for the check.
 */

/** "Not vouched for": the zod schema decides. */
const ODD: unique symbol = Symbol('odd');
type Odd = typeof ODD;
type Obj = Record<string, unknown>;

/** What zod reads as an object. */
function isObject(x: unknown): x is Obj {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** `text`: a string, or absent for null / undefined. */
function text(x: unknown): string | undefined | Odd {
  if (typeof x === 'string') return x;
  return x === undefined || x === null ? undefined : ODD;
}

/** `codeText`: a string, or a finite number as text; absent for null / undefined. */
function codeText(x: unknown): string | undefined | Odd {
  if (typeof x === 'number') return Number.isFinite(x) ? String(x) : ODD;
  return text(x);
}

/** `coordinate`: a string, or a (finite) number as text. */
function coordinate(x: unknown): string | Odd {
  if (typeof x === 'string') return x;
  return typeof x === 'number' && Number.isFinite(x) ? String(x) : ODD;
}

/** `optionalCoordinate`. */
function optionalCoordinate(x: unknown): string | undefined | Odd {
  return x === undefined || x === null ? undefined : coordinate(x);
}

/** `optionalNumber`: a finite number, a numeric string as a number, absent for null / ""; other text is odd. */
function optionalNumber(x: unknown): number | undefined | Odd {
  if (typeof x === 'number') return Number.isFinite(x) ? x : ODD;
  if (typeof x === 'string') {
    if (x === '') return undefined;
    const n = Number(x);
    return Number.isFinite(n) ? n : ODD;
  }
  return x === undefined || x === null ? undefined : ODD;
}

/** `optionalId`: a string, or a safe integer as text; absent for null / undefined. */
function optionalId(x: unknown): string | undefined | Odd {
  if (typeof x === 'string') return x;
  if (typeof x === 'number') return Number.isSafeInteger(x) ? String(x) : ODD;
  return x === undefined || x === null ? undefined : ODD;
}

/*
 * Fields are set the way a zod object sets them: a value is set; `undefined` only when the key was
 * in the input (so `null` gives the key with `undefined`, a missing key gives no key):
 * `if (value !== undefined || 'key' in input) out.key = value`, written out at each field so that
 * every store is to a named property.
 */

/**
 * Copies the fields a loose object does not declare, in input order. Like zod, skips an undeclared
 * `__proto__`, which an assignment would take for the prototype.
 */
function rest(out: Obj, input: Obj, declared: ReadonlySet<string>): Obj {
  for (const key in input) {
    if (declared.has(key) || key === '__proto__') continue;
    out[key] = input[key];
  }
  return out;
}

const DRIVER_KEYS: ReadonlySet<string> = new Set(['name', 'phoneNumber']);

/** `optionalDriver`, when the driver is absent or well-formed. */
function driver(x: unknown): Driver | undefined | Odd {
  if (x === undefined || x === null) return undefined;
  if (!isObject(x)) return ODD;
  const name = text(x.name);
  const phoneNumber = text(x.phoneNumber);
  if (name === ODD || phoneNumber === ODD) return ODD;
  const hasName = name !== undefined || 'name' in x;
  const hasPhoneNumber = phoneNumber !== undefined || 'phoneNumber' in x;
  let out: Obj;
  if (hasName && hasPhoneNumber) out = { name, phoneNumber };
  else {
    out = {};
    if (hasName) out.name = name;
    if (hasPhoneNumber) out.phoneNumber = phoneNumber;
  }
  return rest(out, x, DRIVER_KEYS) as Driver;
}

const PLACE_KEYS: ReadonlySet<string> = new Set(['lat', 'lon', 'accuracy', 'city', 'state', 'country']);

/** `optionalPlace` (the location of a comment or document). */
function place(x: unknown): PlaceLocation | undefined | Odd {
  if (x === undefined || x === null) return undefined;
  if (!isObject(x)) return ODD;
  const lat = optionalCoordinate(x.lat);
  const lon = optionalCoordinate(x.lon);
  const accuracy = optionalNumber(x.accuracy);
  const city = text(x.city);
  const state = text(x.state);
  const country = text(x.country);
  if (lat === ODD || lon === ODD || accuracy === ODD || city === ODD || state === ODD || country === ODD)
    return ODD;
  const hasLat = lat !== undefined || 'lat' in x;
  const hasLon = lon !== undefined || 'lon' in x;
  const hasAccuracy = accuracy !== undefined || 'accuracy' in x;
  const hasCity = city !== undefined || 'city' in x;
  const hasState = state !== undefined || 'state' in x;
  const hasCountry = country !== undefined || 'country' in x;
  let out: Obj;
  if (hasLat && hasLon && hasAccuracy && hasCity && hasState && hasCountry)
    out = { lat, lon, accuracy, city, state, country };
  else {
    out = {};
    if (hasLat) out.lat = lat;
    if (hasLon) out.lon = lon;
    if (hasAccuracy) out.accuracy = accuracy;
    if (hasCity) out.city = city;
    if (hasState) out.state = state;
    if (hasCountry) out.country = country;
  }
  return rest(out, x, PLACE_KEYS) as PlaceLocation;
}

const LOCATION_KEYS: ReadonlySet<string> = new Set([
  'lat',
  'lon',
  'deviceTimeGmt',
  'accuracy',
  'timestamp',
  'driver',
  'driverPhoneNumber',
]);

/** `LocationItem` (a ping). */
export function fastLocationItem(x: unknown): LocationItem | undefined {
  if (!isObject(x)) return undefined;
  const lat = coordinate(x.lat);
  const lon = coordinate(x.lon);
  const deviceTimeGmt = text(x.deviceTimeGmt);
  const accuracy = optionalNumber(x.accuracy);
  const timestamp = text(x.timestamp);
  const drv = driver(x.driver);
  const driverPhoneNumber = text(x.driverPhoneNumber);
  if (
    lat === ODD ||
    lon === ODD ||
    deviceTimeGmt === ODD ||
    accuracy === ODD ||
    timestamp === ODD ||
    drv === ODD ||
    driverPhoneNumber === ODD
  )
    return undefined;
  const hasGmt = deviceTimeGmt !== undefined || 'deviceTimeGmt' in x;
  const hasAccuracy = accuracy !== undefined || 'accuracy' in x;
  const hasTimestamp = timestamp !== undefined || 'timestamp' in x;
  const hasDriver = drv !== undefined || 'driver' in x;
  const hasPhone = driverPhoneNumber !== undefined || 'driverPhoneNumber' in x;
  let out: Obj;
  if (hasGmt && hasAccuracy && hasTimestamp && hasDriver) {
    out = hasPhone
      ? { lat, lon, deviceTimeGmt, accuracy, timestamp, driver: drv, driverPhoneNumber }
      : { lat, lon, deviceTimeGmt, accuracy, timestamp, driver: drv };
  } else {
    out = { lat, lon };
    if (hasGmt) out.deviceTimeGmt = deviceTimeGmt;
    if (hasAccuracy) out.accuracy = accuracy;
    if (hasTimestamp) out.timestamp = timestamp;
    if (hasDriver) out.driver = drv;
    if (hasPhone) out.driverPhoneNumber = driverPhoneNumber;
  }
  return rest(out, x, LOCATION_KEYS) as LocationItem;
}

const LATEST_LOCATION_KEYS: ReadonlySet<string> = new Set([
  'lat',
  'lon',
  'accuracy',
  'timestampSec',
  'timestamp',
  'timestampUTC',
  'city',
  'state',
  'country',
  'driver',
]);

/** `LatestLocation`. */
export function fastLatestLocation(x: unknown): LatestLocation | undefined {
  if (!isObject(x)) return undefined;
  const lat = coordinate(x.lat);
  const lon = coordinate(x.lon);
  const accuracy = optionalNumber(x.accuracy);
  const timestampSec = text(x.timestampSec);
  const timestamp = text(x.timestamp);
  const timestampUTC = text(x.timestampUTC);
  const city = text(x.city);
  const state = text(x.state);
  const country = text(x.country);
  const drv = driver(x.driver);
  if (
    lat === ODD ||
    lon === ODD ||
    accuracy === ODD ||
    timestampSec === ODD ||
    timestamp === ODD ||
    timestampUTC === ODD ||
    city === ODD ||
    state === ODD ||
    country === ODD ||
    drv === ODD
  )
    return undefined;
  const out: Obj = { lat, lon };
  if (accuracy !== undefined || 'accuracy' in x) out.accuracy = accuracy;
  if (timestampSec !== undefined || 'timestampSec' in x) out.timestampSec = timestampSec;
  if (timestamp !== undefined || 'timestamp' in x) out.timestamp = timestamp;
  if (timestampUTC !== undefined || 'timestampUTC' in x) out.timestampUTC = timestampUTC;
  if (city !== undefined || 'city' in x) out.city = city;
  if (state !== undefined || 'state' in x) out.state = state;
  if (country !== undefined || 'country' in x) out.country = country;
  if (drv !== undefined || 'driver' in x) out.driver = drv;
  return rest(out, x, LATEST_LOCATION_KEYS) as LatestLocation;
}

const LATEST_STATUS_KEYS: ReadonlySet<string> = new Set([
  'name',
  'code',
  'timestampSec',
  'timestamp',
  'timestampUTC',
  'driver',
]);

/** `LatestStatus`. */
export function fastLatestStatus(x: unknown): LatestStatus | undefined {
  if (!isObject(x)) return undefined;
  const name = text(x.name);
  const code = codeText(x.code);
  const timestampSec = text(x.timestampSec);
  const timestamp = text(x.timestamp);
  const timestampUTC = text(x.timestampUTC);
  const drv = driver(x.driver);
  if (
    name === ODD ||
    code === ODD ||
    timestampSec === ODD ||
    timestamp === ODD ||
    timestampUTC === ODD ||
    drv === ODD
  )
    return undefined;
  const hasName = name !== undefined || 'name' in x;
  const hasCode = code !== undefined || 'code' in x;
  const hasTimestampSec = timestampSec !== undefined || 'timestampSec' in x;
  const hasTimestamp = timestamp !== undefined || 'timestamp' in x;
  const hasTimestampUTC = timestampUTC !== undefined || 'timestampUTC' in x;
  const hasDriver = drv !== undefined || 'driver' in x;
  let out: Obj;
  if (hasName && hasCode && hasTimestampSec && hasTimestamp && hasTimestampUTC && hasDriver)
    out = { name, code, timestampSec, timestamp, timestampUTC, driver: drv };
  else {
    if (!hasName && !hasCode && !hasTimestampSec && !hasTimestamp && !hasTimestampUTC && !hasDriver)
      return undefined;
    out = {};
    if (hasName) out.name = name;
    if (hasCode) out.code = code;
    if (hasTimestampSec) out.timestampSec = timestampSec;
    if (hasTimestamp) out.timestamp = timestamp;
    if (hasTimestampUTC) out.timestampUTC = timestampUTC;
    if (hasDriver) out.driver = drv;
  }
  return rest(out, x, LATEST_STATUS_KEYS) as LatestStatus;
}

const EVENT_KEYS: ReadonlySet<string> = new Set([
  'id',
  'timestampSec',
  'timestamp',
  'timestampUTC',
  'timstampUTC',
  'name',
  'code',
  'driver',
]);

/** `EventItem`, its `timstampUTC` transform included. */
export function fastEventItem(x: unknown): EventItem | undefined {
  if (!isObject(x)) return undefined;
  const id = optionalId(x.id);
  const timestampSec = text(x.timestampSec);
  const timestamp = text(x.timestamp);
  const timestampUTC = text(x.timestampUTC);
  const timstampUTC = text(x.timstampUTC);
  const name = text(x.name);
  const code = codeText(x.code);
  const drv = driver(x.driver);
  if (
    id === ODD ||
    timestampSec === ODD ||
    timestamp === ODD ||
    timestampUTC === ODD ||
    timstampUTC === ODD ||
    name === ODD ||
    code === ODD ||
    drv === ODD
  )
    return undefined;
  const hasId = id !== undefined || 'id' in x;
  const hasTimestampSec = timestampSec !== undefined || 'timestampSec' in x;
  const hasTimestamp = timestamp !== undefined || 'timestamp' in x;
  const hasTimestampUTC = timestampUTC !== undefined || 'timestampUTC' in x;
  const hasName = name !== undefined || 'name' in x;
  const hasCode = code !== undefined || 'code' in x;
  const hasDriver = drv !== undefined || 'driver' in x;
  let out: Obj;
  if (hasId && hasTimestampSec && hasTimestamp && hasTimestampUTC && hasName && hasCode && hasDriver)
    out = { id, timestampSec, timestamp, timestampUTC, name, code, driver: drv };
  else {
    const hasTimstampUTC = timstampUTC !== undefined || 'timstampUTC' in x;
    if (
      !hasId &&
      !hasTimestampSec &&
      !hasTimestamp &&
      !hasTimestampUTC &&
      !hasTimstampUTC &&
      !hasName &&
      !hasCode &&
      !hasDriver
    )
      return undefined;
    out = {};
    if (hasId) out.id = id;
    if (hasTimestampSec) out.timestampSec = timestampSec;
    if (hasTimestamp) out.timestamp = timestamp;
    if (hasTimestampUTC) out.timestampUTC = timestampUTC;
    if (hasName) out.name = name;
    if (hasCode) out.code = code;
    if (hasDriver) out.driver = drv;
  }
  rest(out, x, EVENT_KEYS);
  // The schema's transform: `{ ...rest, timestampUTC: rest.timestampUTC ?? timstampUTC }`. An
  // existing key keeps its place; a missing one goes last.
  out.timestampUTC = timestampUTC ?? timstampUTC;
  return out as EventItem;
}

const COMMENT_KEYS: ReadonlySet<string> = new Set([
  'comment',
  'commentBy',
  'timestampSec',
  'timestamp',
  'timestampUTC',
  'location',
  'driver',
]);

/** `CommentItem`. */
export function fastCommentItem(x: unknown): CommentItem | undefined {
  if (!isObject(x)) return undefined;
  const comment = text(x.comment);
  const by = x.commentBy;
  // Anything but D, B or nothing: the schema reports it.
  if (by !== 'D' && by !== 'B' && by !== undefined && by !== null) return undefined;
  const commentBy = by ?? undefined;
  const timestampSec = text(x.timestampSec);
  const timestamp = text(x.timestamp);
  const timestampUTC = text(x.timestampUTC);
  const location = place(x.location);
  const drv = driver(x.driver);
  if (
    comment === ODD ||
    timestampSec === ODD ||
    timestamp === ODD ||
    timestampUTC === ODD ||
    location === ODD ||
    drv === ODD
  )
    return undefined;
  const hasComment = comment !== undefined || 'comment' in x;
  const hasCommentBy = commentBy !== undefined || 'commentBy' in x;
  const hasTimestampSec = timestampSec !== undefined || 'timestampSec' in x;
  const hasTimestamp = timestamp !== undefined || 'timestamp' in x;
  const hasTimestampUTC = timestampUTC !== undefined || 'timestampUTC' in x;
  const hasLocation = location !== undefined || 'location' in x;
  const hasDriver = drv !== undefined || 'driver' in x;
  let out: Obj;
  if (
    hasComment &&
    hasCommentBy &&
    hasTimestampSec &&
    hasTimestamp &&
    hasTimestampUTC &&
    hasLocation &&
    hasDriver
  )
    out = { comment, commentBy, timestampSec, timestamp, timestampUTC, location, driver: drv };
  else {
    if (
      !hasComment &&
      !hasCommentBy &&
      !hasTimestampSec &&
      !hasTimestamp &&
      !hasTimestampUTC &&
      !hasLocation &&
      !hasDriver
    )
      return undefined;
    out = {};
    if (hasComment) out.comment = comment;
    if (hasCommentBy) out.commentBy = commentBy;
    if (hasTimestampSec) out.timestampSec = timestampSec;
    if (hasTimestamp) out.timestamp = timestamp;
    if (hasTimestampUTC) out.timestampUTC = timestampUTC;
    if (hasLocation) out.location = location;
    if (hasDriver) out.driver = drv;
  }
  return rest(out, x, COMMENT_KEYS) as CommentItem;
}

const DOCUMENT_KEYS: ReadonlySet<string> = new Set([
  'type',
  'timestamp',
  'url',
  'location',
  'stopExternalId',
  'stopOrderNumber',
  'driver',
]);

/** `DocumentItem`. */
export function fastDocumentItem(x: unknown): DocumentItem | undefined {
  if (!isObject(x)) return undefined;
  const type = codeText(x.type);
  const timestamp = text(x.timestamp);
  const url = x.url;
  if (typeof url !== 'string') return undefined;
  const location = place(x.location);
  const stopExternalId = optionalId(x.stopExternalId);
  const stopOrderNumber = optionalNumber(x.stopOrderNumber);
  const drv = driver(x.driver);
  if (
    type === ODD ||
    timestamp === ODD ||
    location === ODD ||
    stopExternalId === ODD ||
    stopOrderNumber === ODD ||
    drv === ODD
  )
    return undefined;
  const hasType = type !== undefined || 'type' in x;
  const hasTimestamp = timestamp !== undefined || 'timestamp' in x;
  const hasLocation = location !== undefined || 'location' in x;
  const hasStopExternalId = stopExternalId !== undefined || 'stopExternalId' in x;
  const hasStopOrderNumber = stopOrderNumber !== undefined || 'stopOrderNumber' in x;
  const hasDriver = drv !== undefined || 'driver' in x;
  let out: Obj;
  if (hasType && hasTimestamp && hasLocation && hasStopExternalId && hasStopOrderNumber && hasDriver)
    out = { type, timestamp, url, location, stopExternalId, stopOrderNumber, driver: drv };
  else {
    out = {};
    if (hasType) out.type = type;
    if (hasTimestamp) out.timestamp = timestamp;
    out.url = url;
    if (hasLocation) out.location = location;
    if (hasStopExternalId) out.stopExternalId = stopExternalId;
    if (hasStopOrderNumber) out.stopOrderNumber = stopOrderNumber;
    if (hasDriver) out.driver = drv;
  }
  return rest(out, x, DOCUMENT_KEYS) as DocumentItem;
}

type ReadingLocation = NonNullable<TemperatureReadingItem['location']>;
type ReadingTemperature = NonNullable<TemperatureReadingItem['temperature']>;
type Zone1 = NonNullable<ReadingTemperature['zone1']>;

/** A reading's `location`: the schema's transform keeps three keys and drops undeclared ones. */
function readingLocation(x: unknown): ReadingLocation | undefined | Odd {
  if (x === undefined || x === null) return undefined;
  if (!isObject(x)) return ODD;
  const latitude = optionalCoordinate(x.latitude);
  const longitutde = optionalCoordinate(x.longitutde);
  const longitude = optionalCoordinate(x.longitude);
  const accuracy = optionalNumber(x.accuracy);
  if (latitude === ODD || longitutde === ODD || longitude === ODD || accuracy === ODD) return ODD;
  // An undeclared `__proto__` would be skipped by the schema and dropped by its transform alike.
  return { latitude, longitude: longitutde ?? longitude, accuracy };
}

const ZONE_KEYS: ReadonlySet<string> = new Set(['supply', 'return', 'set']);
const TEMPERATURE_KEYS: ReadonlySet<string> = new Set(['zone1', 'UnitOfMeasurement']);

function zone1(x: unknown): Zone1 | undefined | Odd {
  if (x === undefined || x === null) return undefined;
  if (!isObject(x)) return ODD;
  const supply = optionalNumber(x.supply);
  const ret = optionalNumber(x.return);
  const set = optionalNumber(x.set);
  if (supply === ODD || ret === ODD || set === ODD) return ODD;
  const hasSupply = supply !== undefined || 'supply' in x;
  const hasReturn = ret !== undefined || 'return' in x;
  const hasSet = set !== undefined || 'set' in x;
  let out: Obj;
  if (hasSupply && hasReturn && hasSet) out = { supply, return: ret, set };
  else {
    out = {};
    if (hasSupply) out.supply = supply;
    if (hasReturn) out.return = ret;
    if (hasSet) out.set = set;
  }
  return rest(out, x, ZONE_KEYS) as Zone1;
}

function temperature(x: unknown): ReadingTemperature | undefined | Odd {
  if (x === undefined || x === null) return undefined;
  if (!isObject(x)) return ODD;
  const zone = zone1(x.zone1);
  const unit = text(x.UnitOfMeasurement);
  if (zone === ODD || unit === ODD) return ODD;
  const hasZone1 = zone !== undefined || 'zone1' in x;
  const hasUnitOfMeasurement = unit !== undefined || 'UnitOfMeasurement' in x;
  let out: Obj;
  if (hasZone1 && hasUnitOfMeasurement) out = { zone1: zone, UnitOfMeasurement: unit };
  else {
    out = {};
    if (hasZone1) out.zone1 = zone;
    if (hasUnitOfMeasurement) out.UnitOfMeasurement = unit;
  }
  return rest(out, x, TEMPERATURE_KEYS) as ReadingTemperature;
}

const READING_KEYS: ReadonlySet<string> = new Set(['deviceId', 'location', 'timestamp', 'temperature']);

/** `TemperatureReadingItem` (items of `temperatures`, and `latestTemperature`). */
export function fastTemperatureReadingItem(x: unknown): TemperatureReadingItem | undefined {
  if (!isObject(x)) return undefined;
  const deviceId = optionalId(x.deviceId);
  const location = readingLocation(x.location);
  const timestamp = text(x.timestamp);
  const temp = temperature(x.temperature);
  if (deviceId === ODD || location === ODD || timestamp === ODD || temp === ODD) return undefined;
  const hasDeviceId = deviceId !== undefined || 'deviceId' in x;
  const hasLocation = location !== undefined || 'location' in x;
  const hasTimestamp = timestamp !== undefined || 'timestamp' in x;
  const hasTemperature = temp !== undefined || 'temperature' in x;
  let out: Obj;
  if (hasDeviceId && hasLocation && hasTimestamp && hasTemperature)
    out = { deviceId, location, timestamp, temperature: temp };
  else {
    if (!hasDeviceId && !hasLocation && !hasTimestamp && !hasTemperature) return undefined;
    out = {};
    if (hasDeviceId) out.deviceId = deviceId;
    if (hasLocation) out.location = location;
    if (hasTimestamp) out.timestamp = timestamp;
    if (hasTemperature) out.temperature = temp;
  }
  return rest(out, x, READING_KEYS) as TemperatureReadingItem;
}

/** `optionalId` for a load's own ids: the id as text, `null` for absent, `undefined` when odd. */
export function fastOptionalId(x: unknown): string | null | undefined {
  const id = optionalId(x);
  return id === ODD ? undefined : (id ?? null);
}

/** The fast reader of each list's items, beside `detailLists`. */
export const fastListItems: { readonly [K in DetailListName]: (x: unknown) => unknown } = {
  locations: fastLocationItem,
  temperatures: fastTemperatureReadingItem,
  events: fastEventItem,
  comments: fastCommentItem,
  documents: fastDocumentItem,
};

/** The fast reader of each single object, beside `detailObjects`. */
export const fastObjects = {
  latestLocation: fastLatestLocation,
  latestStatus: fastLatestStatus,
  latestTemperature: fastTemperatureReadingItem,
} as const;
