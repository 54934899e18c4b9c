import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareJson } from './json-order';

function textOrder(a: unknown, b: unknown): number {
  const sa = JSON.stringify(a);
  const sb = JSON.stringify(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

// Few keys and values that are prefixes of one another ("1", "12", "12.5"; "a", "ab"; "lat",
// "latitude"), so that two values often agree for a while and then differ in the hard places.
const key = fc.constantFrom('a', 'ab', 'b', 'lat', 'latitude', 'a"', '0', '1', '10', '__proto__');
const leaf = fc.oneof(
  fc.constantFrom(0, -0, 1, 12, 12.5, 125, -1, -12, -12.5, 1e21, 1e-7, 0.5, Number.NaN, Infinity),
  fc.constantFrom('', 'a', 'ab', 'a"', 'a\\', 'a\n', 'é', '\u2028', true, false, null),
  fc.constantFrom(undefined, () => 1, Symbol('s')),
  fc.double(),
  fc.string({ maxLength: 3 }),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('object'), tie('array')),
  // Object.fromEntries keeps "__proto__" as an own key, as JSON.parse does.
  object: fc.array(fc.tuple(key, tie('value')), { maxLength: 5 }).map((e) => Object.fromEntries(e)),
  array: fc.array(tie('value'), { maxLength: 4 }),
}));
const container = fc.oneof(
  leaf,
  fc.array(fc.tuple(key, value), { maxLength: 6 }).map((e) => Object.fromEntries(e)),
  fc.array(value, { maxLength: 4 }),
);

/** Two versions of one object: the second with one field changed, added, dropped or moved. */
const versions = fc
  .tuple(fc.array(fc.tuple(key, value), { minLength: 1, maxLength: 6 }), fc.nat(), key, value, fc.nat(3))
  .map(([entries, at, k, v, how]) => {
    const i = at % entries.length;
    const changed = [...entries];
    if (how === 0) changed[i] = [changed[i]![0], v];
    else if (how === 1) changed.splice(i, 0, [k, v]);
    else if (how === 2) changed.splice(i, 1);
    else changed.push(...changed.splice(i, 1));
    return [Object.fromEntries(entries), Object.fromEntries(changed)] as const;
  });

describe('compareJson', () => {
  it('orders two values as their JSON texts sort, or says it cannot tell', () => {
    let told = 0;
    const runs = 3000;
    fc.assert(
      fc.property(fc.oneof(fc.tuple(container, container), versions), ([a, b]) => {
        const order = compareJson(a, b);
        if (order === undefined) return;
        told++;
        expect(order).toBe(textOrder(a, b));
      }),
      { numRuns: runs },
    );
    expect(told).toBeGreaterThan(runs * 0.8);
  });

  it('finds two equal texts equal, however the values are built', () => {
    fc.assert(
      fc.property(container, (a) => {
        const text = JSON.stringify(a) as string | undefined;
        if (text === undefined) return;
        const copy = JSON.parse(text) as unknown;
        expect(compareJson(a, copy) ?? textOrder(a, copy)).toBe(textOrder(a, copy));
        expect(compareJson(copy, copy)).toBe(0);
      }),
    );
  });

  it('orders values that are not containers by their texts too', () => {
    expect(compareJson('a', 'b')).toBe(-1);
    expect(compareJson(1, 12)).toBe(-1);
    expect(compareJson(12, 1)).toBe(1);
    expect(compareJson(false, false)).toBe(0);
    expect(compareJson(null, 0)).toBe(textOrder(null, 0));
  });

  it('orders numbers that are prefixes of one another by what follows them', () => {
    expect(compareJson({ a: 1, b: 2 }, { a: 12 })).toBe(textOrder({ a: 1, b: 2 }, { a: 12 }));
    // '}' sorts after '2': {"a":1} comes after {"a":12}.
    expect(compareJson({ a: 1 }, { a: 12 })).toBe(1);
    expect(compareJson([12.5], [12, 5])).toBe(textOrder([12.5], [12, 5]));
    expect(compareJson({ s: -12, t: 1 }, { s: -12.5 })).toBe(textOrder({ s: -12, t: 1 }, { s: -12.5 }));
  });

  it('gives up on what is not plain data, where the texts must be compared', () => {
    expect(compareJson({ d: new Date(0) }, { d: new Date(1) })).toBeUndefined();
    expect(compareJson({ n: 1n }, { n: 2n })).toBeUndefined();
    expect(compareJson(undefined, 'b')).toBeUndefined();
    expect(compareJson({}, () => 1)).toBeUndefined();
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const other: Record<string, unknown> = {};
    other.self = other;
    expect(compareJson(cycle, other)).toBeUndefined();
  });

  it('gives up when Object.prototype has enumerable keys, which for...in would list', () => {
    Object.defineProperty(Object.prototype, 'polluted', {
      value: 1,
      enumerable: true,
      configurable: true,
      writable: true,
    });
    try {
      expect(compareJson({ a: 1 }, { a: 2 })).toBeUndefined();
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
    expect(compareJson({ a: 1 }, { a: 2 })).toBe(-1);
  });
});
