import type { ItemTime } from './model';
/**
 * The upstream's timestamp shapes (upstream-api.md 2.6):
 *   timestampSec   `MM/DD/YYYY HH:mm:ss ZONE`  device local time
 *   timestamp      `MM/DD/YYYY HH:mm ZONE`     device local time
 *   timestampUTC   `MM/DD/YYYY HH:mm:ss UTC`
 *   deviceTimeGmt  `YYYY-MM-DD HH:mm:ss`       GMT
 * Zone abbreviations are not IANA names, so the North American ones are mapped here by hand.
 */

/** Offset from UTC in minutes of each abbreviation the service is known to send. */
export const ZONE_OFFSETS_MINUTES: Readonly<Record<string, number>> = {
  UTC: 0,
  GMT: 0,
  Z: 0,
  EST: -300,
  EDT: -240,
  CST: -360,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
  AKST: -540,
  AKDT: -480,
  HST: -600,
  AST: -240,
  ADT: -180,
  NST: -210,
  NDT: -150,
};

export interface ParsedTime {
  /** Epoch milliseconds, when the zone is known. */
  instant: number | undefined;
  /** The zone abbreviation as written, upper-cased; undefined for the GMT form without one. */
  zone: string | undefined;
  zoneKnown: boolean;
  /** The wall time read as if it were UTC (epoch ms). */
  wall: number;
}

const LOCAL = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([A-Za-z]{1,5})?\s*$/;
const GMT = /^\s*(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?Z?\s*$/;

function isLeapYear(year: number): boolean {
  // Date.UTC reads the years 0 to 99 as 1900 to 1999; so must the calendar that checks them.
  const y = year >= 0 && year <= 99 ? 1900 + year : year;
  return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
}

/** Days of a month (1 to 12) in the proleptic Gregorian calendar, as `Date` counts them. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
 * `days_from_civil`), as `Date.UTC` counts them, with its reading of the years 0 to 99.
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = (year >= 0 && year <= 99 ? 1900 + year : year) - (month <= 2 ? 1 : 0);
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

// The last date `wallToUtc` counted: timestamps of one answer mostly fall on a few days.
let lastDate = -1;
let lastDays = 0;

/**
 * Epoch ms of a wall time in UTC (what `Date.UTC` gives, for the four-digit years read here), or
 * undefined when the date or time is impossible (02/30, 25:00).
 */
function wallToUtc(y: number, mo: number, d: number, h: number, mi: number, s: number): number | undefined {
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) return undefined;
  const date = (y * 100 + mo) * 100 + d;
  if (date !== lastDate) {
    lastDays = daysFromCivil(y, mo, d);
    lastDate = date;
  }
  return lastDays * 86_400_000 + h * 3_600_000 + mi * 60_000 + s * 1000;
}

/*
 * The readers below run once or twice per item of an answer that holds a hundred thousand, so the
 * common shape is read by hand, without a match array, substrings or a result object; anything else
 * goes through the regular expressions above, which define the shapes. `time.test.ts` checks that
 * both ways agree.
 */

/** Two ASCII digits at `i` as a number, or -1. */
function digits2(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/** A zone abbreviation of 1 to 5 letters as a number (base 27, case folded), or -1. */
function zoneCode(s: string, from: number, to: number): number {
  if (to - from < 1 || to - from > 5) return -1;
  let code = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    const upper = c >= 97 && c <= 122 ? c - 32 : c;
    if (upper < 65 || upper > 90) return -1;
    code = code * 27 + (upper - 64);
  }
  return code;
}

/** The known abbreviations by `zoneCode`, so that reading one allocates nothing. */
const KNOWN_ZONES = new Map<number, string>(
  Object.keys(ZONE_OFFSETS_MINUTES).map((zone) => [zoneCode(zone, 0, zone.length), zone]),
);

// What the last successful `readLocal` found: the zone as written (upper-cased) and its offset.
let lastZone: string | undefined;
let lastOffset: number | undefined;

/**
 * `MM/DD/YYYY HH:mm[:ss][ ZONE]` exactly (two-digit fields, single spaces, nothing around): the
 * wall time as epoch ms, setting `lastZone` and `lastOffset`; NaN when the text is of any other
 * shape or impossible, and then the regular expression decides.
 */
function readLocalCommon(s: string): number {
  const n = s.length;
  if (n < 16 || s.charCodeAt(2) !== 47 || s.charCodeAt(5) !== 47) return Number.NaN;
  if (s.charCodeAt(10) !== 32 || s.charCodeAt(13) !== 58) return Number.NaN;
  const mo = digits2(s, 0);
  const d = digits2(s, 3);
  const y1 = digits2(s, 6);
  const y2 = digits2(s, 8);
  const h = digits2(s, 11);
  const mi = digits2(s, 14);
  let i = 16;
  let sec = 0;
  if (i < n && s.charCodeAt(i) === 58) {
    sec = digits2(s, 17);
    i = 19;
  }
  if (mo < 0 || d < 0 || y1 < 0 || y2 < 0 || h < 0 || mi < 0 || sec < 0 || i > n) return Number.NaN;
  let zone: string | undefined;
  if (i < n) {
    if (s.charCodeAt(i) !== 32) return Number.NaN;
    const code = zoneCode(s, i + 1, n);
    if (code < 0) return Number.NaN;
    zone = KNOWN_ZONES.get(code) ?? s.slice(i + 1).toUpperCase();
  }
  const wall = wallToUtc(y1 * 100 + y2, mo, d, h, mi, sec);
  if (wall === undefined) return Number.NaN;
  lastZone = zone;
  lastOffset = zone === undefined ? undefined : ZONE_OFFSETS_MINUTES[zone];
  return wall;
}

// The last local text read, and what it held: a ping's minute-precision `timestamp` repeats.
let cachedText: string | undefined;
let cachedWall = 0;
let cachedZone: string | undefined;
let cachedOffset: number | undefined;

/** Like `readLocalCommon` for any text: the wall time, or NaN when the text is not a local timestamp. */
function readLocal(text: string): number {
  if (text === cachedText) {
    lastZone = cachedZone;
    lastOffset = cachedOffset;
    return cachedWall;
  }
  if (typeof text === 'string') {
    const wall = readLocalCommon(text);
    if (wall === wall) {
      cachedText = text;
      cachedWall = wall;
      cachedZone = lastZone;
      cachedOffset = lastOffset;
      return wall;
    }
  }
  const m = LOCAL.exec(text);
  if (!m) return Number.NaN;
  const wall = wallToUtc(
    Number(m[3]),
    Number(m[1]),
    Number(m[2]),
    Number(m[4]),
    Number(m[5]),
    Number(m[6] ?? 0),
  );
  if (wall === undefined) return Number.NaN;
  const zone = m[7]?.toUpperCase();
  lastZone = zone;
  lastOffset = zone === undefined ? undefined : ZONE_OFFSETS_MINUTES[zone];
  return wall;
}

/** The instant of a local timestamp whose zone is known; undefined otherwise. */
function localInstant(text: string): number | undefined {
  const wall = readLocal(text);
  return wall !== wall || lastOffset === undefined ? undefined : wall - lastOffset * 60_000;
}

/** Parses `MM/DD/YYYY HH:mm[:ss] ZONE`. Undefined when the text is not of that shape or impossible. */
export function parseLocalTimestamp(text: string): ParsedTime | undefined {
  const wall = readLocal(text);
  if (wall !== wall) return undefined;
  const offset = lastOffset;
  return {
    instant: offset === undefined ? undefined : wall - offset * 60_000,
    zone: lastZone,
    zoneKnown: offset !== undefined,
    wall,
  };
}

/** `YYYY-MM-DD HH:mm:ss` exactly: epoch ms, or NaN when of another shape or impossible. */
function readGmtCommon(s: string): number {
  if (s.length !== 19 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return Number.NaN;
  const sep = s.charCodeAt(10);
  if ((sep !== 32 && sep !== 84) || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return Number.NaN;
  const y1 = digits2(s, 0);
  const y2 = digits2(s, 2);
  const mo = digits2(s, 5);
  const d = digits2(s, 8);
  const h = digits2(s, 11);
  const mi = digits2(s, 14);
  const sec = digits2(s, 17);
  if (y1 < 0 || y2 < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || sec < 0) return Number.NaN;
  return wallToUtc(y1 * 100 + y2, mo, d, h, mi, sec) ?? Number.NaN;
}

/** Parses `YYYY-MM-DD HH:mm:ss` in GMT (a ping's `deviceTimeGmt`). */
export function parseGmtTimestamp(text: string): number | undefined {
  if (typeof text === 'string') {
    const t = readGmtCommon(text);
    if (t === t) return t;
  }
  const m = GMT.exec(text);
  if (!m) return undefined;
  return wallToUtc(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

export interface ItemTimes {
  timestampUTC?: string | undefined;
  deviceTimeGmt?: string | undefined;
  timestampSec?: string | undefined;
  timestamp?: string | undefined;
}

export type { ItemTime };

// The last item's time fields and what they gave: items sent in the same minute (temperature
// readings, say) have the same fields, and share one ItemTime (see model.ts).
let lastUtc: string | undefined;
let lastGmt: string | undefined;
let lastSec: string | undefined;
let lastStamp: string | undefined;
let lastTime: ItemTime | undefined;

/** The instant and display time of an item, by the preference order in the README's data section. */
export function itemTime(item: ItemTimes): ItemTime {
  return timeOf(item.timestampUTC, item.deviceTimeGmt, item.timestampSec, item.timestamp);
}

/** `itemTime` of an item with these fields. */
export function timeOf(
  timestampUTC: string | undefined,
  deviceTimeGmt: string | undefined,
  timestampSec: string | undefined,
  timestamp: string | undefined,
): ItemTime {
  // Fields an item does not declare come as they were sent (a reading's `timestampSec: false`):
  // anything but text is no time.
  if (typeof timestampUTC !== 'string') timestampUTC = undefined;
  if (typeof deviceTimeGmt !== 'string') deviceTimeGmt = undefined;
  if (typeof timestampSec !== 'string') timestampSec = undefined;
  if (typeof timestamp !== 'string') timestamp = undefined;
  if (
    lastTime !== undefined &&
    timestampUTC === lastUtc &&
    deviceTimeGmt === lastGmt &&
    timestampSec === lastSec &&
    timestamp === lastStamp
  ) {
    return lastTime;
  }
  lastUtc = timestampUTC;
  lastGmt = deviceTimeGmt;
  lastSec = timestampSec;
  lastStamp = timestamp;
  lastTime = readItemTime(timestampUTC, deviceTimeGmt, timestampSec, timestamp);
  return lastTime;
}

/** The UTC field of the last item read that was sent but not read: its time came from another. */
let lastUnread: 'timestampUTC' | 'deviceTimeGmt' | undefined;

/**
 * Which UTC field of the item `timeOf` read last was sent in a form not read (the service changed
 * its format, say), or undefined. Read right after `timeOf`: the next item's reading replaces it.
 */
export function unreadUtcField(): 'timestampUTC' | 'deviceTimeGmt' | undefined {
  return lastUnread;
}

function readItemTime(
  timestampUTC: string | undefined,
  deviceTimeGmt: string | undefined,
  timestampSec: string | undefined,
  timestamp: string | undefined,
): ItemTime {
  const local = timestampSec ?? timestamp;
  // The local text is read first and what it found is kept here: the readers below reuse the scratch.
  const wall = local === undefined ? Number.NaN : readLocal(local);
  const hasLocal = wall === wall;
  const zone = hasLocal ? lastZone : undefined;
  const offset = hasLocal ? lastOffset : undefined;
  let instant: number | undefined;
  lastUnread = undefined;
  if (timestampUTC !== undefined) instant = localInstant(timestampUTC);
  if (instant === undefined && timestampUTC !== undefined && timestampUTC.trim() !== '')
    lastUnread = 'timestampUTC';
  if (instant === undefined && deviceTimeGmt !== undefined) {
    instant = parseGmtTimestamp(deviceTimeGmt);
    if (instant === undefined && lastUnread === undefined && deviceTimeGmt.trim() !== '')
      lastUnread = 'deviceTimeGmt';
  }
  if (instant === undefined && offset !== undefined) instant = wall - offset * 60_000;
  if (instant === undefined && timestamp !== undefined && timestamp !== local) {
    instant = localInstant(timestamp);
  }
  const approximate = instant === undefined && hasLocal;
  if (approximate) instant = wall;
  // Left out rather than undefined: JSON of 20,000 pings carries the key only where it says something.
  // Each shape in one literal: a key added afterwards costs every kept item a property array.
  return offset === undefined
    ? { instant, approximate, local: local?.trim(), zone, zoneKnown: false }
    : { instant, approximate, local: local?.trim(), zone, zoneKnown: true, offset };
}
