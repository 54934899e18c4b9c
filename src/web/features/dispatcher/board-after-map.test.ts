import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { Load } from '@/domain/model';
import { BOARD_WAITS_MS, useBoardAfterMap } from './board-after-map';

// Only identity and count matter to the hook: stand-ins for loads.
const loads = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ id: `${tag}${i}` }) as Load);
const view = (list: Load[]) => ({ loads: list });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** The hook with the map mounted and drawn once (empty) on screen, as a first visit has it. */
function renderBoard({ mapFirst = true, onScreen = true } = {}) {
  const first = view([]);
  let renders = 0;
  const hook = renderHook(
    ({ current, first: f }) => {
      renders++;
      return useBoardAfterMap(current, f);
    },
    { initialProps: { current: first, first: mapFirst } },
  );
  act(() => hook.result.current.mapDrew(onScreen));
  return { hook, first, renders: () => renders };
}

it('shows a new set of loads once the map has drawn it, and a refresh of as many at once', () => {
  const { hook, first, renders } = renderBoard();
  const answer = view(loads(3, 'a'));
  hook.rerender({ current: answer, first: true });
  // The map has not drawn the new set: the board keeps what it showed.
  expect(hook.result.current.forBoard).toBe(first);
  act(() => hook.result.current.mapDrew(true));
  expect(hook.result.current.forBoard).toBe(answer);

  const refreshed = view([{ id: 'a0', moved: true } as unknown as Load, ...answer.loads.slice(1)]);
  hook.rerender({ current: refreshed, first: true });
  expect(hook.result.current.forBoard).toBe(refreshed);

  // The map's draws with nothing waiting (a pan) render nothing.
  const before = renders();
  act(() => {
    hook.result.current.mapDrew(true);
    hook.result.current.mapDrew(true);
  });
  expect(renders()).toBe(before);

  // The next new set waits again.
  const more = view(loads(5, 'b'));
  hook.rerender({ current: more, first: true });
  expect(hook.result.current.forBoard).toBe(refreshed);
  act(() => hook.result.current.mapDrew(true));
  expect(hook.result.current.forBoard).toBe(more);
});

it('waits a second at most, counted from the new set, whatever its refreshes', () => {
  const { hook, first } = renderBoard();
  hook.rerender({ current: view(loads(2, 'b')), first: true });
  // Refreshes of the waiting set (as many loads, new objects) every 300 ms.
  for (let t = 300; t < BOARD_WAITS_MS; t += 300) {
    act(() => vi.advanceTimersByTime(300));
    hook.rerender({ current: view(loads(2, `b${t}`)), first: true });
    expect(hook.result.current.forBoard).toBe(first);
  }
  const last = view(loads(2, 'c'));
  hook.rerender({ current: last, first: true });
  act(() => vi.advanceTimersByTime(BOARD_WAITS_MS - 900));
  expect(hook.result.current.forBoard).toBe(last);
});

it('does not wait when the map is filtered by the board, or not on screen', () => {
  const filtered = renderBoard({ mapFirst: false });
  const answer = view(loads(3, 'a'));
  filtered.hook.rerender({ current: answer, first: false });
  expect(filtered.hook.result.current.forBoard).toBe(answer);

  // A phone showing the board: the map is there, hidden.
  const hidden = renderBoard({ onScreen: false });
  hidden.hook.rerender({ current: answer, first: true });
  expect(hidden.hook.result.current.forBoard).toBe(answer);
});
