import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useNewKeys } from './use-new-keys';

afterEach(() => vi.useRealTimers());

describe('useNewKeys', () => {
  it('marks nothing at first, then the keys a later list adds, until they are no longer news', () => {
    vi.useFakeTimers();
    const { result, rerender } = renderHook(({ keys, scope }) => useNewKeys(keys, scope, 1000), {
      initialProps: { keys: undefined as string[] | undefined, scope: 'e:1' },
    });
    expect(result.current.size).toBe(0);
    rerender({ keys: ['a', 'b'], scope: 'e:1' });
    expect(result.current.size).toBe(0);
    rerender({ keys: ['a', 'b', 'c'], scope: 'e:1' });
    expect([...result.current]).toEqual(['c']);
    // The same keys again (a refetch that brought nothing) keep the mark; it fades after holdMs.
    rerender({ keys: ['a', 'b', 'c'], scope: 'e:1' });
    expect([...result.current]).toEqual(['c']);
    act(() => vi.advanceTimersByTime(1000));
    expect(result.current.size).toBe(0);
  });

  it('marks nothing when the list belongs to another load', () => {
    const { result, rerender } = renderHook(({ keys, scope }) => useNewKeys(keys, scope), {
      initialProps: { keys: ['a'], scope: 'e:1' },
    });
    rerender({ keys: ['x', 'y'], scope: 'e:2' });
    expect(result.current.size).toBe(0);
    rerender({ keys: ['x', 'y', 'z'], scope: 'e:2' });
    expect([...result.current]).toEqual(['z']);
  });
});
