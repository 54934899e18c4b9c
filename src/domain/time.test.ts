import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  itemTime,
  parseGmtTimestamp,
  parseLocalTimestamp,
  ZONE_OFFSETS_MINUTES,
  type ItemTimes,
} from './time';

const utc = (iso: string) => Date.parse(iso);

describe('parseLocalTimestamp', () => {
  it('reads MM/DD/YYYY HH:mm:ss ZONE with the zone offset', () => {
    expect(parseLocalTimestamp('03/07/2026 14:05:09 CST')).toMatchObject({
      instant: utc('2026-03-07T20:05:09Z'),
      zone: 'CST',
      zoneKnown: true,
    });
  });

  it('reads the minute form MM/DD/YYYY HH:mm ZONE', () => {
    expect(parseLocalTimestamp('11/22/2026 06:26 MST')?.instant).toBe(utc('2026-11-22T13:26:00Z'));
  });

  it('maps every North American abbreviation to its offset', () => {
    const expected: Record<string, string> = {
      EST: '17:00',
      EDT: '16:00',
      CST: '18:00',
      CDT: '17:00',
      MST: '19:00',
      MDT: '18:00',
      PST: '20:00',
      PDT: '19:00',
      AKST: '21:00',
      AKDT: '20:00',
      HST: '22:00',
      AST: '16:00',
      ADT: '15:00',
      NST: '15:30',
      NDT: '14:30',
      UTC: '12:00',
      GMT: '12:00',
    };
    for (const [zone, utcTime] of Object.entries(expected)) {
      expect(ZONE_OFFSETS_MINUTES[zone], zone).toBeDefined();
      expect(parseLocalTimestamp(`01/15/2026 12:00:00 ${zone}`)?.instant, zone).toBe(
        utc(`2026-01-15T${utcTime}:00Z`),
      );
    }
  });

  it('keeps the wall time of an unknown zone and flags it', () => {
    const t = parseLocalTimestamp('01/15/2026 12:00:00 XYZ');
    expect(t).toMatchObject({
      instant: undefined,
      zone: 'XYZ',
      zoneKnown: false,
      wall: utc('2026-01-15T12:00:00Z'),
    });
  });

  it('rejects impossible dates and times', () => {
    for (const bad of [
      '02/30/2026 10:00:00 EST',
      '02/29/2026 10:00 EST',
      '13/01/2026 10:00 EST',
      '01/01/2026 25:00 EST',
      '01/01/2026 10:60 EST',
      '00/10/2026 10:00 EST',
      'yesterday',
      '',
    ]) {
      expect(parseLocalTimestamp(bad), bad).toBeUndefined();
    }
    expect(parseLocalTimestamp('02/29/2028 10:00 EST')).toBeDefined();
  });
});

describe('itemTime', () => {
  it('prefers timestampUTC, then deviceTimeGmt, then the local form with a known zone', () => {
    const local = { timestampSec: '07/04/2026 09:00:00 EDT' };
    expect(itemTime(local).instant).toBe(utc('2026-07-04T13:00:00Z'));
    expect(itemTime({ ...local, deviceTimeGmt: '2026-07-04 13:00:30' }).instant).toBe(
      utc('2026-07-04T13:00:30Z'),
    );
    expect(
      itemTime({ ...local, deviceTimeGmt: '2026-07-04 13:00:30', timestampUTC: '07/04/2026 13:00:45 UTC' })
        .instant,
    ).toBe(utc('2026-07-04T13:00:45Z'));
  });

  it('orders items across zones by their instant, not their wall time', () => {
    const east = itemTime({ timestampSec: '11/01/2026 10:00:00 EST' });
    const west = itemTime({ timestampSec: '11/01/2026 08:30:00 PST' });
    expect(west.instant).toBeGreaterThan(east.instant as number);
  });

  it('keeps the device-local text for display, and marks an unknown zone as approximate', () => {
    const t = itemTime({ timestamp: '01/15/2026 12:00 XST' });
    expect(t).toMatchObject({
      local: '01/15/2026 12:00 XST',
      zone: 'XST',
      zoneKnown: false,
      approximate: true,
    });
    expect(t.instant).toBe(utc('2026-01-15T12:00:00Z'));
    expect(t).not.toHaveProperty('offset');
  });

  it('says the offset of a known zone, so a page can write the driver’s time without the zone tables', () => {
    // Sent with its UTC form: the offset is the local text's, not the one the instant came from.
    const t = itemTime({ timestampSec: '11/22/2026 06:26:00 MST', timestampUTC: '11/22/2026 13:26:00 UTC' });
    expect(t).toMatchObject({ zone: 'MST', offset: -420, instant: utc('2026-11-22T13:26:00Z') });
    expect(itemTime({ timestampSec: '07/04/2026 09:00:00 EDT' }).offset).toBe(-240);
    expect(itemTime({ deviceTimeGmt: '2026-07-04 13:00:00' })).not.toHaveProperty('offset');
  });

  it('has no instant when no form is readable', () => {
    expect(itemTime({ timestampUTC: 'garbage', timestamp: '99/99/2026 10:00 EST' }).instant).toBeUndefined();
    expect(itemTime({}).instant).toBeUndefined();
  });
});

describe('parseGmtTimestamp', () => {
  it('reads YYYY-MM-DD HH:mm:ss as GMT', () => {
    expect(parseGmtTimestamp('2026-03-08 07:59:59')).toBe(utc('2026-03-08T07:59:59Z'));
    expect(parseGmtTimestamp('2026-02-30 07:59:59')).toBeUndefined();
  });
});

/** The readers as they were: regular expressions only. The hand-written common cases must agree. */
const reference = (() => {
  const LOCAL = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([A-Za-z]{1,5})?\s*$/;
  const GMT = /^\s*(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?Z?\s*$/;
  const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
  function wallToUtc(y: number, mo: number, d: number, h: number, mi: number, s: number) {
    if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) return undefined;
    return Date.UTC(y, mo - 1, d, h, mi, s);
  }
  function local(text: string) {
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
  function gmt(text: string) {
    const m = GMT.exec(text);
    if (!m) return undefined;
    return wallToUtc(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  }
  function item(t: ItemTimes) {
    const localText = t.timestampSec ?? t.timestamp;
    const parsedLocal = localText === undefined ? undefined : local(localText);
    let instant: number | undefined;
    if (t.timestampUTC !== undefined) instant = local(t.timestampUTC)?.instant;
    if (instant === undefined && t.deviceTimeGmt !== undefined) instant = gmt(t.deviceTimeGmt);
    if (instant === undefined) instant = parsedLocal?.instant;
    if (instant === undefined && t.timestamp !== undefined && t.timestamp !== localText) {
      instant = local(t.timestamp)?.instant;
    }
    const approximate = instant === undefined && parsedLocal !== undefined;
    if (approximate) instant = parsedLocal.wall;
    const offset = parsedLocal?.zone === undefined ? undefined : ZONE_OFFSETS_MINUTES[parsedLocal.zone];
    return {
      instant,
      approximate,
      local: localText?.trim(),
      zone: parsedLocal?.zone,
      zoneKnown: parsedLocal?.zoneKnown ?? false,
      ...(offset === undefined ? {} : { offset }),
    };
  }
  return { local, gmt, item };
})();

const digits = (n: number, min = 0, max = 10 ** n - 1) =>
  fc.integer({ min, max }).map((v) => String(v).padStart(n, '0'));
const anyDigits = fc.oneof(digits(1), digits(2), digits(3));
const blank = fc.constantFrom(' ', ' ', ' ', '', '  ', '\t', '\u00a0', 'T', 'x');
const zoneText = fc.oneof(
  fc.constantFrom(...Object.keys(ZONE_OFFSETS_MINUTES), 'cst', 'Pdt', 'XYZ', 'ABCDE', 'ABCDEF', 'C5T', ''),
  fc.string({ maxLength: 6 }),
);
/** Texts near the local form: well-formed ones, ones with every part sometimes off, and others. */
const localText = fc.oneof(
  fc
    .record({
      mo: digits(2, 1, 12),
      d: digits(2, 1, 31),
      y: digits(4, 1999, 2101),
      h: digits(2, 0, 23),
      mi: digits(2, 0, 59),
      s: fc.option(digits(2, 0, 59)),
      zone: fc.option(zoneText),
      gap: fc.constantFrom(' ', ' ', ' ', ' ', 'x', 'T', '\t', '  '),
      zoneGap: fc.constantFrom(' ', ' ', ' ', ' ', 'x', '', '\t'),
    })
    .map(
      (p) =>
        `${p.mo}/${p.d}/${p.y}${p.gap}${p.h}:${p.mi}${p.s === null ? '' : `:${p.s}`}${p.zone === null ? '' : `${p.zoneGap}${p.zone}`}`,
    ),
  fc
    .record({
      mo: fc.oneof(digits(2, 0, 13), anyDigits),
      d: fc.oneof(digits(2, 0, 32), anyDigits),
      y: fc.oneof(digits(4, 1999, 2101), digits(4, 0, 120), digits(4, 1600, 2400), anyDigits),
      h: fc.oneof(digits(2, 0, 24), anyDigits),
      mi: fc.oneof(digits(2, 0, 60), anyDigits),
      s: fc.option(fc.oneof(digits(2, 0, 60), anyDigits)),
      sep: fc.constantFrom('/', '/', '/', '-', '.'),
      gap: blank,
      zoneGap: blank,
      zone: zoneText,
      lead: fc.constantFrom('', '', '', ' '),
      trail: fc.constantFrom('', '', '', ' ', 'x'),
    })
    .map(
      (p) =>
        `${p.lead}${p.mo}${p.sep}${p.d}/${p.y}${p.gap}${p.h}:${p.mi}${p.s === null ? '' : `:${p.s}`}${p.zoneGap}${p.zone}${p.trail}`,
    ),
  fc.string({ maxLength: 24 }),
);
const gmtText = fc.oneof(
  fc
    .record({
      y: fc.oneof(digits(4, 1999, 2101), digits(4, 0, 120), anyDigits),
      mo: fc.oneof(digits(2, 0, 13), anyDigits),
      d: fc.oneof(digits(2, 0, 32), anyDigits),
      t: fc.constantFrom(' ', 'T', '  ', '_'),
      h: digits(2, 0, 25),
      mi: digits(2, 0, 60),
      s: digits(2, 0, 60),
      tail: fc.constantFrom('', '', '', 'Z', '.123', ' ', 'x'),
    })
    .map((p) => `${p.y}-${p.mo}-${p.d}${p.t}${p.h}:${p.mi}:${p.s}${p.tail}`),
  fc.string({ maxLength: 22 }),
);

describe('the timestamp readers', () => {
  it('read the local form exactly as the regular expression does', () => {
    fc.assert(
      fc.property(localText, (text) => {
        // Twice: the second read of a text comes from what the first one kept.
        expect(parseLocalTimestamp(text)).toStrictEqual(reference.local(text));
        expect(parseLocalTimestamp(text)).toStrictEqual(reference.local(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('read the GMT form exactly as the regular expression does', () => {
    fc.assert(
      fc.property(gmtText, (text) => {
        expect(parseGmtTimestamp(text)).toBe(reference.gmt(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('give each item the time the plain readers give it, also when neighbours repeat fields', () => {
    const field = fc.option(fc.oneof(localText, gmtText), { nil: undefined });
    const item = fc.record(
      { timestampUTC: field, deviceTimeGmt: field, timestampSec: field, timestamp: field },
      { requiredKeys: [] },
    );
    // Runs of items drawn from a few, so that consecutive items often have the same fields.
    const run = fc
      .array(item, { minLength: 1, maxLength: 4 })
      .chain((pool) => fc.array(fc.constantFrom(...pool)));
    fc.assert(
      fc.property(run, (items) => {
        for (const t of items) {
          expect(itemTime(t)).toStrictEqual(reference.item(t));
          // A text read again in another field, right after.
          const again = { timestamp: t.timestampSec ?? t.timestamp };
          expect(itemTime(again)).toStrictEqual(reference.item(again));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('count days as Date.UTC does, leap years and the years 0 to 99 included', () => {
    for (const year of [0, 4, 99, 100, 1600, 1900, 2000, 2024, 2026, 2100, 2400, 9999]) {
      for (const month of [1, 2, 3, 12]) {
        const day = month === 2 ? 29 : 31;
        const text = `${String(month).padStart(2, '0')}/${day}/${String(year).padStart(4, '0')} 23:59:59 UTC`;
        expect(parseLocalTimestamp(text), text).toStrictEqual(reference.local(text));
      }
    }
  });
});

/** `MM/DD/YYYY HH:mm:ss ZONE` of an instant in US Central time, as a phone there would write it. */
function central(instant: number): string {
  const cdt = instant >= Date.UTC(2026, 2, 8, 8) && instant < Date.UTC(2026, 10, 1, 7);
  const wall = new Date(instant + (cdt ? -5 : -6) * 3_600_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(wall.getUTCMonth() + 1)}/${p(wall.getUTCDate())}/${wall.getUTCFullYear()} ${p(wall.getUTCHours())}:${p(wall.getUTCMinutes())}:${p(wall.getUTCSeconds())} ${cdt ? 'CDT' : 'CST'}`;
}

describe('itemTime across daylight-saving changes', () => {
  it('keeps instants increasing when the clocks go forward (03/08/2026 02:00 CST → 03:00 CDT)', () => {
    const start = Date.UTC(2026, 2, 8, 7, 30);
    const instants = Array.from({ length: 120 }, (_, i) => start + i * 30_000);
    const texts = instants.map(central);
    expect(texts).toContain('03/08/2026 01:59:30 CST');
    expect(texts).toContain('03/08/2026 03:00:00 CDT');
    expect(texts.map((text) => itemTime({ timestampSec: text }).instant)).toEqual(instants);
  });

  it('keeps instants increasing when the clocks go back and an hour of wall time repeats', () => {
    const start = Date.UTC(2026, 10, 1, 5, 30);
    const instants = Array.from({ length: 300 }, (_, i) => start + i * 30_000);
    const texts = instants.map(central);
    expect(texts).toContain('11/01/2026 01:30:00 CDT');
    expect(texts).toContain('11/01/2026 01:30:00 CST');
    expect(texts.map((text) => itemTime({ timestampSec: text }).instant)).toEqual(instants);
  });

  it('reads the minute form across the change too', () => {
    expect(itemTime({ timestamp: '03/08/2026 01:59 CST' }).instant).toBe(Date.UTC(2026, 2, 8, 7, 59));
    expect(itemTime({ timestamp: '03/08/2026 03:00 CDT' }).instant).toBe(Date.UTC(2026, 2, 8, 8, 0));
  });
});
