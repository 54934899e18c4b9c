import { describe, expect, it } from 'vitest';
import { parsePullAnswer } from '@/contract/parse-pull';
import type { ParseIssue } from '@/contract/parse-issue';
import quirks from '@/testing/fixtures/by-external-id-quirks.json';
import { normalizeLoad, toAccuracy, toCoordinate } from './normalize';

function firstLoad() {
  const result = parsePullAnswer(quirks);
  if ('error' in result) throw new Error(result.error);
  const issues: ParseIssue[] = [...(result.data.detailIssues[0] ?? [])];
  const load = normalizeLoad(result.data.details[0]!, 'external-id', 'details[0]', issues);
  if (!load) throw new Error('no load');
  return load;
}

describe('toCoordinate', () => {
  it('accepts decimal degrees within range and refuses everything else', () => {
    expect(toCoordinate('41.2565', 90)).toBe(41.2565);
    expect(toCoordinate(' -95.9 ', 180)).toBe(-95.9);
    expect(toCoordinate('-180', 180)).toBe(-180);
    for (const bad of ['NaN', '1e309', '91', '', '12,5', 'abc', 'Infinity', '0x10', undefined]) {
      expect(toCoordinate(bad, 90), String(bad)).toBeUndefined();
    }
    expect(toCoordinate('181', 180)).toBeUndefined();
  });
});

describe('toAccuracy', () => {
  it('is meters when it is a finite non-negative number, else unknown (no circle)', () => {
    expect(toAccuracy(12.5)).toBe(12.5);
    expect(toAccuracy(0)).toBe(0);
    expect(toAccuracy(-1)).toBeNull();
    expect(toAccuracy(Number.NaN)).toBeNull();
    expect(toAccuracy(undefined)).toBeNull();
  });
});

describe('normalizeLoad', () => {
  it('turns the latest location into numbers with accuracy and an instant', () => {
    const load = firstLoad();
    expect(load).toMatchObject({ by: 'external-id', id: '700100', externalId: '700100' });
    expect(load.latestLocation).toMatchObject({
      lat: 41.2565,
      lon: -95.9345,
      accuracy: 12.5,
      instant: Date.parse('2026-11-22T13:26:01Z'),
      place: { city: undefined, state: 'NE', country: 'US' },
      driver: { name: 'Elena Smith', phone: undefined },
    });
    expect(load.latestLocation?.time.local).toBe('11/22/2026 07:26:01 CST');
  });

  it('drops only the ping with a bad coordinate, and keeps one with unknown accuracy without a circle', () => {
    const load = firstLoad();
    expect(load.pings.map((p) => p.lat)).toEqual([41.2, 41.2565]);
    expect(load.pings[1]?.accuracy).toBeNull();
    expect(load.issues.map((i) => `${i.path} ${i.kind}`)).toContain(
      'details[0].locations[1].lat bad_coordinate',
    );
  });

  it('skips an event without a time, keeps its siblings in time order, and shows no code for null', () => {
    const load = firstLoad();
    expect(load.events.map((e) => e.name)).toEqual(['Dispatched', 'In transit']);
    expect(load.events[1]?.code).toBeUndefined();
    expect(load.issues.map((i) => `${i.path} ${i.kind}`)).toContain('details[0].events[2] bad_time');
  });

  it('reads comments, documents and readings with their places', () => {
    const load = firstLoad();
    expect(load.comments.map((c) => [c.by, c.text])).toEqual([
      ['driver', '<b>Running late</b>'],
      [undefined, 'Send POD'],
    ]);
    expect(load.comments[0]?.position).toEqual({ lat: 41.1, lon: -96, accuracy: 15 });
    expect(load.documents).toHaveLength(1);
    expect(load.documents[0]).toMatchObject({
      url: 'https://docs.example.com/bol.jpg',
      type: 'BOL',
      stopOrderNumber: 1,
    });
    expect(load.readings.map((r) => [r.supply, r.return, r.set, r.unit])).toEqual([
      [33.1, 36.4, 34, 'Fahrenheit'],
      [33, 36, 34, 'Fahrenheit'],
    ]);
    expect(load.readings[0]?.position).toEqual({ lat: 41.2, lon: -95.9, accuracy: null });
  });

  it('keeps undocumented fields such as stops as extras', () => {
    expect(firstLoad().extras.stops).toEqual([
      { stopExternalId: 'S1', stopOrderNumber: 1, address: { city: 'Omaha' } },
    ]);
  });
});
