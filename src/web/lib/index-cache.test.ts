import { describe, expect, it, vi } from 'vitest';
import { indexCache } from './index-cache';

const item = (id: string, v: number) => ({ id, v });

describe('indexCache', () => {
  it('maps a list, and again only the items that are not the same object at the same index', () => {
    const fn = vi.fn((x: { id: string; v: number }) => ({ id: x.id, double: x.v * 2 }));
    const map = indexCache(fn);
    const a = [item('a', 1), item('b', 2), item('c', 3)];
    const first = map(a);
    expect(first.map((r) => r.double)).toEqual([2, 4, 6]);
    expect(fn).toHaveBeenCalledTimes(3);

    const b = [a[0]!, item('b', 5), a[2]!];
    const second = map(b);
    expect(second.map((r) => r.double)).toEqual([2, 10, 6]);
    expect(fn).toHaveBeenCalledTimes(4);
    // What did not change is the very same result.
    expect(second[0]).toBe(first[0]);
    expect(second[2]).toBe(first[2]);
    expect(map(b)).toBe(second);
  });

  it('computes an item again when it moved to another index, and handles lists growing and shrinking', () => {
    const fn = vi.fn((x: { id: string; v: number }) => x.id + x.v);
    const map = indexCache(fn);
    const [a, b, c] = [item('a', 1), item('b', 2), item('c', 3)];
    map([a, b]);
    expect(map([b, a, c])).toEqual(['b2', 'a1', 'c3']);
    expect(fn).toHaveBeenCalledTimes(5);
    expect(map([b])).toEqual(['b2']);
    expect(fn).toHaveBeenCalledTimes(5);
    expect(map([])).toEqual([]);
  });
});
