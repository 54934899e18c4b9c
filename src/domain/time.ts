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

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Epoch ms of a wall time in UTC, or undefined when the date or time is impossible (02/30, 25:00). */
function wallToUtc(y: number, mo: number, d: number, h: number, mi: number, s: number): number | undefined {
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) return undefined;
  return Date.UTC(y, mo - 1, d, h, mi, s);
}

/** Parses `MM/DD/YYYY HH:mm[:ss] ZONE`. Undefined when the text is not of that shape or impossible. */
export function parseLocalTimestamp(text: string): ParsedTime | undefined {
  const m = LOCAL.exec(text);
  if (!m) return undefined;
  const wall = wallToUtc(
    Number(m[3]),
    Number(m[1]),
    Number(m[2]),
    Number(m[4]),
    Number(m[5]),
    Number(m[6] ?? 0),
  );
  if (wall === undefined) return undefined;
  const zone = m[7]?.toUpperCase();
  const offset = zone === undefined ? undefined : ZONE_OFFSETS_MINUTES[zone];
  return {
    instant: offset === undefined ? undefined : wall - offset * 60_000,
    zone,
    zoneKnown: offset !== undefined,
    wall,
  };
}

/** Parses `YYYY-MM-DD HH:mm:ss` in GMT (a ping's `deviceTimeGmt`). */
export function parseGmtTimestamp(text: string): number | undefined {
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

export interface ItemTime {
  /**
   * Epoch ms: from `timestampUTC`, else `deviceTimeGmt`, else a local form with a known zone, else
   * (approximate) the local wall time read as UTC.
   */
  instant: number | undefined;
  /** True when the instant came from a wall time whose zone is unknown. */
  approximate: boolean;
  /** The device-local text as the driver saw it, for display. */
  local: string | undefined;
  /** The zone abbreviation of the local text, and whether we know its offset. */
  zone: string | undefined;
  zoneKnown: boolean;
}

/** The instant and display time of an item, by the preference order in the README's data section. */
export function itemTime(item: ItemTimes): ItemTime {
  const local = item.timestampSec ?? item.timestamp;
  const parsedLocal = local === undefined ? undefined : parseLocalTimestamp(local);
  let instant: number | undefined;
  if (item.timestampUTC !== undefined) instant = parseLocalTimestamp(item.timestampUTC)?.instant;
  if (instant === undefined && item.deviceTimeGmt !== undefined)
    instant = parseGmtTimestamp(item.deviceTimeGmt);
  if (instant === undefined) instant = parsedLocal?.instant;
  if (instant === undefined && item.timestamp !== undefined && item.timestamp !== local) {
    instant = parseLocalTimestamp(item.timestamp)?.instant;
  }
  const approximate = instant === undefined && parsedLocal !== undefined;
  if (approximate) instant = parsedLocal.wall;
  return {
    instant,
    approximate,
    local: local?.trim(),
    zone: parsedLocal?.zone,
    zoneKnown: parsedLocal?.zoneKnown ?? false,
  };
}
