import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonPrint } from './json-print';

describe('jsonPrint', () => {
  it('gives equal prints to equal JSON values, parsed apart', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(jsonPrint(JSON.parse(text))).toBe(jsonPrint(JSON.parse(text)));
      }),
    );
  });

  it('tells apart values that differ anywhere, in kind or place', () => {
    const detail = { id: 1, at: { lat: 41.25, lon: -95.9, city: 'Omaha' }, list: [1, '1', null, true] };
    const variants: unknown[] = [
      detail,
      { ...detail, id: 2 },
      { ...detail, id: '1' },
      { ...detail, at: { ...detail.at, lat: 41.250001 } },
      { ...detail, at: { ...detail.at, city: 'Omahb' } },
      { ...detail, at: { lon: -95.9, lat: 41.25, city: 'Omaha' } },
      { ...detail, list: [1, '1', null, false] },
      { ...detail, list: [1, '1', null] },
      { ...detail, list: [[1, '1'], null, true] },
      { ...detail, list: {} },
      { ...detail, list: [] },
      { ...detail, extra: null },
      { ...detail, at: { ...detail.at, lat: -0 } },
      { ...detail, at: { ...detail.at, lat: 0 } },
    ];
    const prints = new Set(variants.map(jsonPrint));
    expect(prints.size).toBe(variants.length);
    for (const p of prints) expect(Number.isSafeInteger(p) && p >= 0).toBe(true);
  });

  it('tells apart values whose numbers all change sign', () => {
    expect(jsonPrint({ accuracy: 41.2840295, temp: -3.5 })).not.toBe(
      jsonPrint({ accuracy: -41.2840295, temp: 3.5 }),
    );
    fc.assert(
      fc.property(fc.double({ noNaN: true }), fc.double({ noNaN: true }), (x, y) => {
        fc.pre(x !== 0 && y !== 0);
        expect(jsonPrint([x, y])).not.toBe(jsonPrint([-x, -y]));
      }),
    );
  });
});
