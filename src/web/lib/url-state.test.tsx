import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useUrlParam } from './url-state';

describe('useUrlParam', () => {
  it('writes its value into the query of the page it belongs to, keeping the rest', () => {
    window.history.replaceState(null, '', '/?w=e:1');
    const { result } = renderHook(() => useUrlParam('map'));
    expect(result.current[0]).toBeNull();
    act(() => result.current[1]('39,-96,4'));
    expect(window.location.pathname).toBe('/');
    expect(new URLSearchParams(window.location.search).get('map')).toBe('39,-96,4');
    expect(new URLSearchParams(window.location.search).get('w')).toBe('e:1');
    expect(result.current[0]).toBe('39,-96,4');
    // Readable as a link: the colons and commas as they were, not %3A and %2C; other characters
    // that would change the query's meaning are still escaped.
    expect(window.location.search).toBe('?w=e:1&map=39,-96,4');
    act(() => result.current[1]('a&b=c d'));
    expect(window.location.search).toBe('?w=e:1&map=a%26b%3Dc+d');
    expect(result.current[0]).toBe('a&b=c d');
  });

  it('does not take the user back when a late write comes from a page already left', () => {
    window.history.replaceState(null, '', '/');
    const { result } = renderHook(() => useUrlParam('map'));
    const write = result.current[1];
    // A link was followed; the map's view, written once it rested, arrives after.
    window.history.pushState(null, '', '/documents');
    act(() => write('40,-90,6'));
    expect(window.location.pathname).toBe('/documents');
    expect(window.location.search).toBe('');
  });
});
