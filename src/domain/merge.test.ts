import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeItems, mergeLoads, sortByInstant } from './merge';
import type { Load, Ping } from './model';
import { keys } from './normalize';

function ping(instant: number, lat = 40, lon = -90): Ping {
  const pos = { lat, lon, accuracy: 10 };
  return {
    ...pos,
    key: keys.ping(instant, pos),
    instant,
    time: { instant, approximate: false, local: undefined, zone: undefined, zoneKnown: false },
    driver: undefined,
  };
}

function load(pings: Ping[]): Load {
  return {
    by: 'external-id',
    id: '1',
    externalId: '1',
    loadNumber: undefined,
    ltExternalId: undefined,
    latestLocation: undefined,
    latestStatus: undefined,
    latestTemperature: undefined,
    pings: sortByInstant([...pings]),
    events: [],
    comments: [],
    documents: [],
    readings: [],
    extras: {},
    issues: [],
  };
}

const pingsArb = fc.array(
  fc
    .record({ t: fc.integer({ min: 0, max: 50 }), lat: fc.integer({ min: 0, max: 3 }) })
    .map(({ t, lat }) => ping(t * 1000, lat)),
  { maxLength: 20 },
);
const keysOf = (l: Load) => l.pings.map((p) => p.key);

describe('mergeLoads', () => {
  it('keeps every item either side had, once, in time order', () => {
    const a = load([ping(1000), ping(3000)]);
    const b = load([ping(2000), ping(3000)]);
    expect(mergeLoads(a, b).pings.map((p) => p.instant)).toEqual([1000, 2000, 3000]);
  });

  it('returns the previous object itself when the answer brings nothing new', () => {
    const a = load([ping(1000), ping(3000)]);
    const same = load([ping(3000)]);
    expect(mergeLoads(a, same)).toBe(a);
    expect(mergeLoads(a, load([]))).toBe(a);
  });

  it('is idempotent, commutative and associative over items', () => {
    fc.assert(
      fc.property(pingsArb, pingsArb, pingsArb, (x, y, z) => {
        const [a, b, c] = [load(x), load(y), load(z)];
        expect(keysOf(mergeLoads(a, a))).toEqual(keysOf(a));
        expect(keysOf(mergeLoads(a, b))).toEqual(keysOf(mergeLoads(b, a)));
        expect(keysOf(mergeLoads(mergeLoads(a, b), c))).toEqual(keysOf(mergeLoads(a, mergeLoads(b, c))));
        const keys = keysOf(mergeLoads(a, b));
        expect(new Set(keys).size).toBe(keys.length);
      }),
    );
  });
});

describe('sortByInstant', () => {
  it('orders by instant and folds items sent twice', () => {
    expect(sortByInstant([ping(3000), ping(1000), ping(3000), ping(2000)]).map((p) => p.instant)).toEqual([
      1000, 2000, 3000,
    ]);
  });
});

describe('mergeItems', () => {
  it('returns the first list itself when the second adds nothing', () => {
    const list = [ping(1), ping(2)];
    expect(mergeItems(list, [ping(2)])).toBe(list);
  });
});
