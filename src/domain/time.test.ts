import { describe, expect, it } from 'vitest';
import { itemTime, parseGmtTimestamp, parseLocalTimestamp, ZONE_OFFSETS_MINUTES } from './time';

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
