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
import { detailId } from '@/contract/parse-pull';
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
import { itemTime, type ItemTime } from './time';
import { sortByInstant } from './merge';

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
  const text = raw.trim();
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) && Math.abs(n) <= limit ? n : undefined;
}

/** Accuracy in meters, or null when unknown (absent, negative, not finite): no circle is drawn. */
export function toAccuracy(raw: number | undefined): number | null {
  return raw !== undefined && Number.isFinite(raw) && raw >= 0 ? raw : null;
}

function toDriver(d: WireDriver | undefined, phone?: string): Driver | undefined {
  const name = d?.name?.trim() || undefined;
  const phoneNumber = d?.phoneNumber?.trim() || phone?.trim() || undefined;
  return name || phoneNumber ? { name, phone: phoneNumber } : undefined;
}

function toPlace(p: {
  city?: string | undefined;
  state?: string | undefined;
  country?: string | undefined;
}): Place {
  return { city: p.city, state: p.state, country: p.country };
}

class Reader {
  constructor(
    readonly base: string,
    readonly issues: ParseIssue[],
  ) {}

  position(
    lat: string | undefined,
    lon: string | undefined,
    accuracy: number | undefined,
    path: string,
  ): Position | undefined {
    const la = toCoordinate(lat, 90);
    const lo = toCoordinate(lon, 180);
    if (la === undefined || lo === undefined) {
      this.issues.push({
        path: joinPath(path, la === undefined ? 'lat' : 'lon'),
        kind: 'bad_coordinate',
        message: `coordinate ${JSON.stringify(la === undefined ? lat : lon)} is not a number in range`,
        skipped: true,
      });
      return undefined;
    }
    return { lat: la, lon: lo, accuracy: toAccuracy(accuracy) };
  }

  /** An optional position (of a comment or document): absent coordinates are no issue, bad ones are. */
  optionalPosition(loc: PlaceLocation | undefined, path: string): Position | undefined {
    if (!loc || (loc.lat === undefined && loc.lon === undefined)) return undefined;
    return this.position(loc.lat, loc.lon, loc.accuracy, joinPath(path, 'location'));
  }

  time(item: Parameters<typeof itemTime>[0], path: string): ItemTime {
    const t = itemTime(item);
    if (t.instant !== undefined && !t.zoneKnown && t.zone !== undefined) {
      this.issues.push({
        path,
        kind: 'unknown_zone',
        message: `zone "${t.zone}" is not a known abbreviation; its local time is shown as written`,
        skipped: false,
      });
    }
    return t;
  }

  /** The time of an item that cannot be placed without one; undefined (and reported) when unreadable. */
  requiredTime(item: Parameters<typeof itemTime>[0], path: string): ItemTime | undefined {
    const t = this.time(item, path);
    if (t.instant === undefined) {
      this.issues.push({ path, kind: 'bad_time', message: 'no readable time; item skipped', skipped: true });
      return undefined;
    }
    return t;
  }
}

export const keys = {
  ping: (instant: number, p: Position) => `${instant}|${p.lat}|${p.lon}`,
  event: (id: string | undefined, instant: number, name?: string, code?: string) =>
    id !== undefined ? `id:${id}` : `${instant}|${name ?? ''}|${code ?? ''}`,
  comment: (instant: number, by: string | undefined, text: string | undefined) =>
    `${instant}|${by ?? ''}|${text ?? ''}`,
  document: (url: string) => url,
  reading: (deviceId: string | undefined, instant: number) => `${deviceId ?? ''}|${instant}`,
};

function latestLocation(r: Reader, w: WireLatestLocation, path: string): LatestLocation | undefined {
  const pos = r.position(w.lat, w.lon, w.accuracy, path);
  const time = r.requiredTime(w, path);
  if (!pos || !time) return undefined;
  const instant = time.instant as number;
  return {
    ...pos,
    key: keys.ping(instant, pos),
    instant,
    time,
    place: toPlace(w),
    driver: toDriver(w.driver),
  };
}

function ping(r: Reader, w: LocationItem, path: string): Ping | undefined {
  const pos = r.position(w.lat, w.lon, w.accuracy, path);
  const time = r.requiredTime(w, path);
  if (!pos || !time) return undefined;
  const instant = time.instant as number;
  return {
    ...pos,
    key: keys.ping(instant, pos),
    instant,
    time,
    driver: toDriver(w.driver, w.driverPhoneNumber),
  };
}

function statusEvent(r: Reader, w: EventItem | LatestStatus, path: string): StatusEvent | undefined {
  const time = r.requiredTime(w, path);
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

function comment(r: Reader, w: CommentItem, path: string): Comment | undefined {
  const time = r.requiredTime(w, path);
  if (!time) return undefined;
  const instant = time.instant as number;
  const by = w.commentBy === 'D' ? 'driver' : w.commentBy === 'B' ? 'broker' : undefined;
  return {
    key: keys.comment(instant, w.commentBy, w.comment),
    instant,
    time,
    text: w.comment,
    by,
    position: r.optionalPosition(w.location, path),
    place: w.location ? toPlace(w.location) : undefined,
    driver: toDriver(w.driver),
  };
}

function document(r: Reader, w: DocumentItem, path: string): Document {
  const time = r.time(w, path);
  return {
    key: keys.document(w.url),
    instant: time.instant ?? null,
    time,
    url: w.url,
    type: w.type?.trim() || undefined,
    stopExternalId: w.stopExternalId,
    stopOrderNumber: w.stopOrderNumber,
    position: r.optionalPosition(w.location, path),
    place: w.location ? toPlace(w.location) : undefined,
    driver: toDriver(w.driver),
  };
}

function reading(r: Reader, w: TemperatureReadingItem, path: string): TemperatureReading | undefined {
  const time = r.requiredTime(w, path);
  if (!time) return undefined;
  const instant = time.instant as number;
  const loc = w.location;
  const position =
    loc && (loc.latitude !== undefined || loc.longitude !== undefined)
      ? r.position(loc.latitude, loc.longitude, loc.accuracy, joinPath(path, 'location'))
      : undefined;
  const zone = w.temperature?.zone1;
  return {
    key: keys.reading(w.deviceId, instant),
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

function list<W, T>(
  r: Reader,
  items: W[] | undefined,
  name: string,
  read: (r: Reader, w: W, path: string) => T | undefined,
): T[] {
  const out: T[] = [];
  if (!items) return out;
  const base = joinPath(r.base, name);
  for (let i = 0; i < items.length; i++) {
    const item = read(r, items[i] as W, joinPath(base, i));
    if (item !== undefined) out.push(item);
  }
  return out;
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
  for (const [k, v] of Object.entries(detail)) {
    if (!KNOWN_FIELDS.has(k))
      Object.defineProperty(extras, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return {
    by,
    id,
    externalId: detail.loadTrackExternalId,
    loadNumber: detail.loadNumber,
    ltExternalId: detail.ltExternalId,
    latestLocation: detail.latestLocation
      ? latestLocation(r, detail.latestLocation, joinPath(path, 'latestLocation'))
      : undefined,
    latestStatus: detail.latestStatus
      ? statusEvent(r, detail.latestStatus, joinPath(path, 'latestStatus'))
      : undefined,
    latestTemperature: detail.latestTemperature
      ? reading(r, detail.latestTemperature, joinPath(path, 'latestTemperature'))
      : undefined,
    pings: sortByInstant(list(r, detail.locations, 'locations', ping)),
    events: sortByInstant(list(r, detail.events, 'events', statusEvent)),
    comments: sortByInstant(list(r, detail.comments, 'comments', comment)),
    documents: sortByInstant(list(r, detail.documents, 'documents', document)),
    readings: sortByInstant(list(r, detail.temperatures, 'temperatures', reading)),
    extras,
    issues,
  };
}
