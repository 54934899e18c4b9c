import { describe, expect, it, vi } from 'vitest';
import { levelCache } from './index-cache';

describe('levelCache', () => {
  type Ping = { id: string; at: number };
  const levelOf = (p: Ping, now: number) => (now - p.at >= 100 ? 'stale' : 'fresh');

  it('builds again only the items whose level changed when the time moves on', () => {
    const level = vi.fn(levelOf);
    const fn = vi.fn((p: Ping, l: string) => ({ id: p.id, l }));
    const map = levelCache(level, fn);
    const list = [
      { id: 'a', at: 0 },
      { id: 'b', at: 50 },
      { id: 'c', at: 90 },
    ];
    const first = map(list, 60);
    expect(first.map((r) => r.l)).toEqual(['fresh', 'fresh', 'fresh']);
    expect(fn).toHaveBeenCalledTimes(3);
    // At 120, only a (age 120) is stale: b and c keep their very results.
    const second = map(list, 120);
    expect(second.map((r) => r.l)).toEqual(['stale', 'fresh', 'fresh']);
    expect(fn).toHaveBeenCalledTimes(4);
    expect(second[1]).toBe(first[1]);
    expect(second[2]).toBe(first[2]);
    expect(map(list, 120)).toBe(second);
  });

  it('judges only the replaced items when the list changes and the time does not', () => {
    const level = vi.fn(levelOf);
    const fn = vi.fn((p: Ping, l: string) => `${p.id}:${l}`);
    const map = levelCache(level, fn);
    const [a, b, c] = [
      { id: 'a', at: 0 },
      { id: 'b', at: 50 },
      { id: 'c', at: 90 },
    ];
    map([a, b, c], 120);
    level.mockClear();
    const b2 = { id: 'b', at: 0 };
    expect(map([a, b2, c], 120)).toEqual(['a:stale', 'b:stale', 'c:fresh']);
    expect(level).toHaveBeenCalledTimes(1);
    expect(fn).toHaveBeenCalledTimes(4);
    // Items that moved place are built again; a shorter list is fine.
    expect(map([c, a], 200)).toEqual(['c:stale', 'a:stale']);
    expect(map([], 200)).toEqual([]);
  });
});
