import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { Load } from '@/domain/model';
import { useBoardAfterMap } from './use-dispatcher-loads';

// Only identity and count matter to the hook: stand-ins for loads.
const loads = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ id: `${tag}${i}` }) as Load);
const view = (list: Load[]) => ({ loads: list });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function renderBoard() {
  const first = view([]);
  const hook = renderHook(({ current }) => useBoardAfterMap(current), { initialProps: { current: first } });
  return { hook, first };
}

it('shows a new set of loads on the board once the map has drawn it, a refresh at once', () => {
  const { hook, first } = renderBoard();
  expect(hook.result.current.forBoard).toBe(first);

  const answer = view(loads(3, 'a'));
  hook.rerender({ current: answer });
  // The map has not drawn the new set: the board keeps what it showed.
  expect(hook.result.current.forBoard).toBe(first);
  act(() => hook.result.current.mapDrew?.());
  expect(hook.result.current.forBoard).toBe(answer);

  // A refresh of the same loads: with the map, in the same pass.
  const refreshed = view([{ id: 'a0', moved: true } as unknown as Load, ...answer.loads.slice(1)]);
  hook.rerender({ current: refreshed });
  expect(hook.result.current.forBoard).toBe(refreshed);

  // Nothing waits: the map's draws (a pan) have nothing to call.
  expect(hook.result.current.mapDrew).toBeUndefined();
});

it('shows a new set after a second when the map does not draw it (hidden, still loading)', () => {
  const { hook, first } = renderBoard();
  const answer = view(loads(2, 'b'));
  hook.rerender({ current: answer });
  act(() => vi.advanceTimersByTime(999));
  expect(hook.result.current.forBoard).toBe(first);
  act(() => vi.advanceTimersByTime(1));
  expect(hook.result.current.forBoard).toBe(answer);

  // Another watch list while one waits: the wait is the newest set's, and the map's draw releases it.
  const more = view(loads(5, 'c'));
  const most = view(loads(7, 'd'));
  hook.rerender({ current: more });
  act(() => vi.advanceTimersByTime(600));
  hook.rerender({ current: most });
  act(() => vi.advanceTimersByTime(600));
  expect(hook.result.current.forBoard).toBe(answer);
  act(() => hook.result.current.mapDrew?.());
  expect(hook.result.current.forBoard).toBe(most);
});
