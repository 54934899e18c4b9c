import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { boardHref, restingWrite, useUrlParam, writeBeforeNavigating } from './url-state';

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

  it('renders a reader again when its own value changes, not when another one does', () => {
    window.history.replaceState(null, '', '/?w=e:1&f=late');
    let renders = 0;
    const filter = renderHook(() => {
      renders++;
      return useUrlParam('f');
    });
    const map = renderHook(() => useUrlParam('map'));
    const before = renders;
    // The map writes its view at every pan: the filter's reader is not rendered for it.
    act(() => map.result.current[1]('39,-96,4'));
    act(() => map.result.current[1]('40,-95,5'));
    expect(renders).toBe(before);
    expect(map.result.current[0]).toBe('40,-95,5');
    // Its own value, written by anyone (the browser's back button too), is read at once.
    act(() => window.history.replaceState(null, '', '/?w=e:1&f=dark&map=40,-95,5'));
    expect(renders).toBe(before + 1);
    expect(filter.result.current[0]).toBe('dark');
  });
});

describe('restingWrite', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes once the page rested since the last change, not before', () => {
    vi.useFakeTimers();
    const write = vi.fn();
    const rest = restingWrite(write, { afterMs: 300 });
    rest.schedule();
    vi.advanceTimersByTime(200);
    // Moved again: the wait starts over, and one write follows both moves.
    rest.schedule();
    vi.advanceTimersByTime(200);
    expect(write).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(write).toHaveBeenCalledTimes(1);
  });

  it('writes at once before a link is followed, then not again; a cancelled write never', () => {
    vi.useFakeTimers();
    const order: string[] = [];
    const rest = restingWrite(() => order.push('written'), { afterMs: 300 });
    const dropped = restingWrite(() => order.push('dropped'), { afterMs: 300 });
    rest.schedule();
    dropped.schedule();
    dropped.cancel();
    writeBeforeNavigating((to) => order.push(`to ${to}`), '/loads/e/1', {});
    expect(order).toEqual(['written', 'to /loads/e/1']);
    vi.advanceTimersByTime(1000);
    expect(order).toEqual(['written', 'to /loads/e/1']);
    // Nothing waiting: a later link only navigates.
    writeBeforeNavigating((to) => order.push(`to ${to}`), '/documents', {});
    expect(order).toEqual(['written', 'to /loads/e/1', 'to /documents']);
  });

  it('holds a write for a link only while a move is under way, with no timer', () => {
    vi.useFakeTimers();
    const write = vi.fn();
    const rest = restingWrite(write, { afterMs: 300 });
    rest.hold();
    vi.advanceTimersByTime(10_000);
    expect(write).not.toHaveBeenCalled();
    writeBeforeNavigating(() => {}, '/exceptions', {});
    expect(write).toHaveBeenCalledTimes(1);
  });
});

describe('boardHref', () => {
  it('goes back to the board as it was left, with the load selected', () => {
    const ref = { by: 'external-id', id: '700114' } as const;
    expect(boardHref(ref)).toBe('/?load=e:700114');
    const navigate = vi.fn();
    // A link followed from elsewhere says nothing of the board.
    window.history.replaceState(null, '', '/documents?group=load');
    writeBeforeNavigating(navigate, '/loads/external-id/700114', {});
    expect(boardHref(ref)).toBe('/?load=e:700114');
    window.history.replaceState(null, '', '/?load=e:700100&map=37.5,-83.7,9&q=700&sort=id&hide=finished');
    writeBeforeNavigating(navigate, '/loads/external-id/700100', {});
    expect(navigate).toHaveBeenLastCalledWith('/loads/external-id/700100', {});
    expect(boardHref(ref)).toBe('/?load=e:700114&map=37.5,-83.7,9&q=700&sort=id&hide=finished');
  });
});
