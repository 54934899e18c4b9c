import { describe, expect, it } from 'vitest';
import { replacedPlaces } from './replaced-places';

describe('replacedPlaces', () => {
  const item = (key: string) => ({ key });
  const a = item('a');
  const b = item('b');
  const c = item('c');
  const key = (x: { key: string }) => x.key;

  it('names the places where another item of the same key stands', () => {
    expect(replacedPlaces([a, b, c], [a, item('b'), item('c')], key)).toEqual([1, 2]);
    expect(replacedPlaces([a, b, c], [a, b, c], key)).toEqual([]);
  });

  it('is undefined when the list changed otherwise: another length, or another key in some place', () => {
    expect(replacedPlaces([a, b], [a, b, c], key)).toBeUndefined();
    expect(replacedPlaces([a, b, c], [a, c, b], key)).toBeUndefined();
  });
});
