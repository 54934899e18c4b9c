import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sameItems, useSameList } from './same-list';

describe('useSameList', () => {
  it('returns the previous list while the items are the very same, and the new one once one differs', () => {
    const a = { id: 'a' };
    const b = { id: 'b' };
    const { result, rerender } = renderHook(({ list }) => useSameList(list), {
      initialProps: { list: [a, b] },
    });
    const first = result.current;
    rerender({ list: [a, b] });
    expect(result.current).toBe(first);
    const changed = [a, { id: 'b' }];
    rerender({ list: changed });
    expect(result.current).toBe(changed);
    rerender({ list: [a] });
    expect(result.current).toEqual([a]);
  });

  it('compares by identity and order', () => {
    const a = { id: 'a' };
    expect(sameItems([a], [a])).toBe(true);
    expect(sameItems([a], [{ id: 'a' }])).toBe(false);
    expect(sameItems([a, 1], [1, a])).toBe(false);
  });
});
