import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeItems, applyDelta, sortByInstant, withReadings } from './merge';
import type { Load, Ping, TemperatureReading } from './model';
import { keys } from './normalize';
import { emptyLoad, testTime } from '@/testing/loads';

function ping(instant: number, lat = 40, lon = -90): Ping {
  const pos = { lat, lon, accuracy: 10 };
  return { ...pos, key: keys.ping(instant, pos), instant, time: testTime(instant), driver: undefined };
}

const load = (pings: Ping[]): Load => emptyLoad('1', 'external-id', { pings: sortByInstant([...pings]) });

const pingsArb = fc.array(
  fc
    .record({ t: fc.integer({ min: 0, max: 50 }), lat: fc.integer({ min: 0, max: 3 }) })
    .map(({ t, lat }) => ping(t * 1000, lat)),
  { maxLength: 20 },
);
function reading(instant: number, supply: number): TemperatureReading {
  return {
    key: keys.reading('r1', instant, supply, supply + 1, -18),
    instant,
    time: { instant, approximate: false, local: undefined, zone: undefined, zoneKnown: false },
    deviceId: 'r1',
    supply,
    return: supply + 1,
    set: -18,
    unit: 'C',
    position: undefined,
  };
}

const keysOf = (l: Load) => l.pings.map((p) => p.key);

describe('applyDelta', () => {
  it('keeps every item either side had, once, in time order', () => {
    const a = load([ping(1000), ping(3000)]);
    const b = load([ping(2000), ping(3000)]);
    expect(applyDelta(a, b).pings.map((p) => p.instant)).toEqual([1000, 2000, 3000]);
  });

  it('returns the previous object itself when the answer brings nothing new', () => {
    const a = load([ping(1000), ping(3000)]);
    const same = load([ping(3000)]);
    expect(applyDelta(a, same)).toBe(a);
    expect(applyDelta(a, load([]))).toBe(a);
  });

  it('keeps the previous load when a new answer reads to equal items and extras (a refresh of unchanged loads)', () => {
    const a = {
      ...load([ping(1000)]),
      latestLocation: {
        ...ping(1000),
        place: { city: 'Omaha', state: 'NE', country: 'US' },
        driver: undefined,
      },
      extras: { stops: [{ stopExternalId: 'S1', city: 'Omaha' }] },
    };
    // Read again from a new answer: equal data, all new objects.
    expect(applyDelta(a, structuredClone(a))).toBe(a);
  });

  it('chooses between versions of an item by content whatever the order, key order included', () => {
    // The same fields in another order: other JSON texts, so not "the same data".
    const p = { ...ping(2000), driver: { name: 'A', phone: '1' } };
    const q = { ...ping(2000), driver: { phone: '1', name: 'A' } };
    const pq = applyDelta(load([p]), load([q])).pings[0];
    const qp = applyDelta(load([q]), load([p])).pings[0];
    expect(JSON.stringify(pq)).toBe(JSON.stringify(qp));
  });

  it('is idempotent, commutative and associative over items', () => {
    fc.assert(
      fc.property(pingsArb, pingsArb, pingsArb, (x, y, z) => {
        const [a, b, c] = [load(x), load(y), load(z)];
        expect(keysOf(applyDelta(a, a))).toEqual(keysOf(a));
        expect(keysOf(applyDelta(a, b))).toEqual(keysOf(applyDelta(b, a)));
        expect(keysOf(applyDelta(applyDelta(a, b), c))).toEqual(keysOf(applyDelta(a, applyDelta(b, c))));
        const keys = keysOf(applyDelta(a, b));
        expect(new Set(keys).size).toBe(keys.length);
      }),
    );
  });
});

describe('withReadings', () => {
  const skipped = (path: string) => ({ path, kind: 'wrong_type' as const, message: 'x', skipped: true });

  it('puts the readings answer’s readings, latest temperature and skipped readings on the track', () => {
    const track: Load = {
      ...load([ping(1000), ping(2000)]),
      latestTemperature: reading(1000, -17),
      issues: [skipped('details[0].locations[3].lat'), skipped('details[0].latestTemperature.supplyTemp')],
    };
    const readings: Load = {
      ...load([]),
      readings: [reading(1000, -17), reading(2000, -12)],
      latestTemperature: reading(2000, -12),
      // The readings answer repeats what is wrong with the latest temperature: counted once.
      issues: [
        skipped('details[0].latestTemperature.supplyTemp'),
        skipped('details[0].temperatures[7].setTemp'),
      ],
    };
    const both = withReadings(track, readings);
    expect(both.pings).toBe(track.pings);
    expect(both.readings.map((r) => r.supply)).toEqual([-17, -12]);
    expect(both.latestTemperature?.supply).toBe(-12);
    expect(both.issues.map((i) => i.path)).toEqual([
      'details[0].locations[3].lat',
      'details[0].latestTemperature.supplyTemp',
      'details[0].temperatures[7].setTemp',
    ]);
  });

  it('returns the track itself when the readings add nothing', () => {
    const track = load([ping(1000)]);
    expect(withReadings(track, load([]))).toBe(track);
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

/** sortByInstant and mergeItems as they were: `pick` by the JSON texts themselves. */
const reference = (() => {
  const compare = (a: Item, b: Item) => {
    const ai = a.instant ?? Number.POSITIVE_INFINITY;
    const bi = b.instant ?? Number.POSITIVE_INFINITY;
    if (ai !== bi) return ai < bi ? -1 : 1;
    return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
  };
  const pick = (a: Item, b: Item) => (a === b ? a : JSON.stringify(a) >= JSON.stringify(b) ? a : b);
  // One item per key (the greatest text of its versions, wherever they were), in time order.
  function sort(items: Item[]): Item[] {
    const best = new Map<string, Item>();
    for (const item of items) {
      const before = best.get(item.key);
      best.set(item.key, before === undefined ? item : pick(before, item));
    }
    return [...best.values()].sort(compare);
  }
  function merge(a: Item[], b: Item[]): Item[] {
    if (b.length === 0) return a;
    if (a.length === 0) return b;
    const byKey = new Map<string, Item>();
    for (const item of a) byKey.set(item.key, item);
    let changed = false;
    for (const item of b) {
      const old = byKey.get(item.key);
      const kept = old === undefined ? item : pick(old, item);
      if (kept !== old) {
        byKey.set(item.key, kept);
        changed = true;
      }
    }
    return changed ? sort([...byKey.values()]) : a;
  }
  return { sort, merge };
})();

interface Item {
  key: string;
  instant: number | null;
  time?: { local: string | undefined; zone: string | undefined };
  value?: unknown;
}

/** Items of few keys and instants, so that lists hold versions of one item, in and out of order. */
const item = fc
  .record({
    id: fc.constantFrom('a', 'b', 'c'),
    instant: fc.option(fc.constantFrom(1000, 2000, 3000), { nil: null }),
    value: fc.oneof(
      fc.constantFrom(1, 12, 12.5, -1, 'x', 'xy', undefined, null),
      fc.jsonValue({ maxDepth: 1 }),
    ),
    local: fc.constantFrom('07:00 CST', '07:00 CDT', undefined),
  })
  .map(({ id, instant, value, local }) => ({
    // As in the domain: the key either spells out the instant or does not (an event's id).
    key: id === 'c' ? `${instant}|c` : `id:${id}`,
    instant,
    time: { local, zone: local?.slice(-3) },
    value,
  }));
const items = fc.array(item, { maxLength: 12 });
const sortedItems = items.map((list) => reference.sort(list));
const timedItem = item.map((i) => ({ ...i, key: `${i.instant}|${i.key}` }));

describe('sortByInstant and mergeItems, against the plain way', () => {
  it('sort and fold exactly as sorting and comparing JSON texts does', () => {
    fc.assert(
      fc.property(items, (list) => {
        expect(sortByInstant([...list])).toStrictEqual(reference.sort([...list]));
      }),
      { numRuns: 2000 },
    );
  });

  it('sort and fold the same when told that keys spell out instants, where they do', () => {
    fc.assert(
      fc.property(fc.array(timedItem, { maxLength: 12 }), (list) => {
        expect(sortByInstant([...list], true)).toStrictEqual(reference.sort([...list]));
      }),
      { numRuns: 1000 },
    );
  });

  it('merge the same when told that keys spell out instants, a delta wholly after the list included', () => {
    const timedSorted = fc.array(timedItem, { maxLength: 12 }).map((list) => reference.sort(list));
    fc.assert(
      fc.property(timedSorted, timedSorted, fc.constantFrom(0, 2000, 3000), (a, delta, shift) => {
        // Shifted by 2,000 or 3,000, the delta starts at or after the list's last instant (equal
        // instants with smaller keys included), as a poll's new pings do.
        const b = reference.sort(
          delta.map((i) => {
            const instant = i.instant === null ? null : i.instant + shift;
            return { ...i, instant, key: `${instant}|${i.key.split('|').slice(1).join('|')}` };
          }),
        );
        const merged = mergeItems(a, b, true);
        const expected = reference.merge(a, b);
        expect(merged).toStrictEqual(expected);
        expect(merged === a).toBe(expected === a);
      }),
      { numRuns: 2000 },
    );
  });

  it('merge exactly as merging by JSON texts does, and keep the first list when nothing changes', () => {
    fc.assert(
      fc.property(sortedItems, sortedItems, (a, b) => {
        const merged = mergeItems(a, b);
        const expected = reference.merge(a, b);
        expect(merged).toStrictEqual(expected);
        expect(merged === a).toBe(expected === a);
      }),
      { numRuns: 2000 },
    );
  });
});
