import { describe, expect, it } from 'vitest';
import { viewerInZone } from '@/testing/viewer-zone';
import type { ItemTime } from '@/domain/model';
import { formatTime, itemTimeWords, timeTickLabels, viewerTime, viewerZoneName } from './time-format';

// The viewer sits in Chicago: their zone differs from UTC and from the drivers' below. Set before
// the first time is written (the viewer's format is made once).
viewerInZone('America/Chicago');

const at = Date.parse('2026-11-26T20:26:03Z');
const mst: ItemTime = {
  instant: at,
  approximate: false,
  local: '11/26/2026 13:26:03 MST',
  zone: 'MST',
  zoneKnown: true,
  offset: -420,
};

describe('formatTime', () => {
  it('writes every time one way, its zone named: in a driver’s zone and in the viewer’s', () => {
    expect(formatTime(at, { kind: 'fixed', offset: -420, name: 'MST' })).toBe('Nov 26, 13:26 MST');
    expect(formatTime(at, { kind: 'mine' })).toBe('Nov 26, 14:26 CST');
    expect(formatTime(at, { kind: 'fixed', offset: 0, name: 'UTC' })).toBe('Nov 26, 20:26 UTC');
    expect(viewerTime(at)).toBe('Nov 26, 14:26:03 CST');
    expect(viewerZoneName(Date.parse('2026-07-04T12:00:00Z'))).toBe('CDT');
  });

  it('crosses midnight into the zone’s own date', () => {
    expect(formatTime(Date.parse('2026-11-27T02:30:00Z'), { kind: 'fixed', offset: -300, name: 'EST' })).toBe(
      'Nov 26, 21:30 EST',
    );
    expect(formatTime(Date.parse('2026-11-27T02:30:00Z'), { kind: 'mine' })).toBe('Nov 26, 20:30 CST');
  });

  it('says a text that was no time is unknown rather than throwing', () => {
    expect(formatTime(Number.NaN, { kind: 'mine' })).toBe('time unknown');
    expect(viewerTime(Date.parse('not a date'))).toBe('time unknown');
  });
});

describe('itemTimeWords', () => {
  it('writes an item’s time in the zone chosen, and the other zone, UTC and the phone’s text on hover', () => {
    const driver = itemTimeWords(mst, at, 'driver');
    expect(driver.text).toBe('Nov 26, 13:26 MST');
    expect(driver.note).toBeUndefined();
    const mine = itemTimeWords(mst, at, 'mine');
    expect(mine.text).toBe('Nov 26, 14:26 CST');
    for (const { title } of [driver, mine]) {
      expect(title).toContain('Driver’s zone: Nov 26, 13:26 MST');
      expect(title).toContain('Your zone: Nov 26, 14:26 CST');
      expect(title).toContain('2026-11-26 20:26:03 UTC');
      expect(title).toContain('As sent: 11/26/2026 13:26:03 MST');
    }
  });

  it('shows an unknown zone’s wall time as sent, unconverted and said so, whatever the choice', () => {
    // The server reads an unknown zone's wall time as if it were UTC.
    const unknown: ItemTime = {
      instant: Date.parse('2026-11-22T05:00:00Z'),
      approximate: true,
      local: '11/22/2026 05:00:00 XYZ',
      zone: 'XYZ',
      zoneKnown: false,
    };
    for (const choice of ['driver', 'mine'] as const) {
      expect(itemTimeWords(unknown, unknown.instant!, choice)).toMatchObject({
        text: 'Nov 22, 05:00 XYZ',
        note: 'zone unknown',
      });
    }
  });

  it('writes an item with only a UTC time in UTC for the driver’s zone, and says the phone sent none', () => {
    const utcOnly: ItemTime = { instant: at, approximate: false, zoneKnown: false };
    expect(itemTimeWords(utcOnly, at, 'driver')).toMatchObject({
      text: 'Nov 26, 20:26 UTC',
      note: 'no device time',
    });
    expect(itemTimeWords(utcOnly, at, 'mine')).toMatchObject({ text: 'Nov 26, 14:26 CST', note: undefined });
  });

  it('says when there is no readable time, keeping the text sent', () => {
    const bad: ItemTime = { approximate: false, local: 'yesterday-ish', zoneKnown: false };
    expect(itemTimeWords(bad, null, 'mine')).toMatchObject({
      text: 'yesterday-ish',
      note: 'not a readable time',
    });
    expect(itemTimeWords({ approximate: false, zoneKnown: false }, null, 'driver').text).toBe('time unknown');
  });
});

describe('timeTickLabels', () => {
  it('labels a time axis with the clock, and the date where a day begins, in the zone chosen', () => {
    const ticks = [22, 23, 24, 25].map((h) => Date.parse('2026-11-26T00:00:00Z') + h * 3_600_000);
    expect(timeTickLabels(ticks, { kind: 'fixed', offset: -420, name: 'MST' })).toEqual([
      '15:00\nNov 26',
      '16:00',
      '17:00',
      '18:00',
    ]);
    expect(timeTickLabels(ticks, { kind: 'fixed', offset: 0, name: 'UTC' })).toEqual([
      '22:00\nNov 26',
      '23:00',
      '00:00\nNov 27',
      '01:00',
    ]);
    expect(timeTickLabels(ticks, { kind: 'mine' })[0]).toBe('16:00\nNov 26');
  });

  it('gives ticks less than a minute apart their seconds, so that no two read the same', () => {
    const ticks = [0, 15, 30, 45, 60].map((s) => Date.parse('2026-11-26T22:00:00Z') + s * 1000);
    expect(timeTickLabels(ticks, { kind: 'fixed', offset: -420, name: 'MST' })).toEqual([
      '15:00:00\nNov 26',
      '15:00:15',
      '15:00:30',
      '15:00:45',
      '15:01:00',
    ]);
  });
});
