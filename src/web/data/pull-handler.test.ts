import { describe, expect, it } from 'vitest';
import type { Load } from '@/domain/model';
import { emptyLoad, testLatestLocation, testTime } from '@/testing/loads';
import { sharedAlike } from './pull-handler';

const joliet = () => ({ city: 'Joliet', state: 'IL', country: 'US' });
const driver = (name: string) => ({ name, phone: '+15555550100' });

function load(id: string, at: Load['latestLocation'], statusDriver?: string) {
  return emptyLoad(id, 'external-id', {
    latestLocation: at,
    latestStatus: statusDriver
      ? { key: 's', instant: 1, time: testTime(1), name: 'In transit', driver: driver(statusDriver) }
      : undefined,
  });
}

describe('sharedAlike', () => {
  it('makes equal places and drivers one object, across loads and parts, and changes no value', () => {
    const a = load('a', testLatestLocation(1, { place: joliet(), driver: driver('Ana') }), 'Ana');
    const b = load('b', testLatestLocation(2, { place: joliet(), driver: driver('Ana') }), 'Bo');
    const c = load('c', testLatestLocation(3, { place: joliet(), driver: undefined }));
    const before = structuredClone([a, b, c]);
    const alike = sharedAlike();
    const [first, second] = [alike([a, b]), alike([c])];
    expect([...first, ...second]).toEqual(before);
    expect(b.latestLocation?.place).toBe(a.latestLocation?.place);
    expect(c.latestLocation?.place).toBe(a.latestLocation?.place);
    expect(a.latestStatus?.driver).toBe(a.latestLocation?.driver);
    expect(b.latestLocation?.driver).toBe(a.latestLocation?.driver);
    // Another driver stays another object, and so does its own place when nothing is like it.
    expect(b.latestStatus?.driver).not.toBe(a.latestStatus?.driver);
    expect(c.latestLocation?.driver).toBeUndefined();
  });

  it('makes empty lists one array and keeps a list with items as it is', () => {
    const reading = { key: 'r', instant: 1, time: testTime(1), deviceId: 'RF-1', unit: 'Fahrenheit' };
    const a = emptyLoad('a');
    const b = emptyLoad('b', 'external-id', { readings: [reading] as Load['readings'], extras: { x: '1' } });
    const before = structuredClone([a, b]);
    expect(sharedAlike()([a, b])).toEqual(before);
    expect(b.pings).toBe(a.pings);
    expect(a.events).toBe(a.pings);
    expect(b.extras).toEqual({ x: '1' });
    expect(b.readings).toHaveLength(1);
    // Copied to the page, the shared arrays stay shared and empty there too.
    const [pa, pb] = structuredClone([a, b]);
    expect(pa?.pings).toBe(pb?.pings);
  });

  it('keeps places apart that differ in any part, an absent part included', () => {
    const places = [
      { city: 'Springfield', state: 'IL', country: 'US' },
      { city: 'Springfield', state: 'MO', country: 'US' },
      { city: 'Springfield', state: 'MO', country: undefined },
      { city: 'Springfield', state: 'MO', country: '' },
      { city: undefined, state: 'MO', country: 'US' },
    ];
    const loads = sharedAlike()(places.map((place, i) => load(`l${i}`, testLatestLocation(i, { place }))));
    expect(loads.map((l) => l.latestLocation?.place)).toEqual(places);
    expect(new Set(loads.map((l) => l.latestLocation?.place)).size).toBe(places.length);
  });
});
