import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import type { Load } from '@/domain/model';

/** How long a new set of loads waits for the map before the board makes its rows anyway. */
export const BOARD_WAITS_MS = 1000;

/**
 * What the board shows of the loads, and what the map calls after each draw (`onScreen`: it has a
 * size). A new set of loads (told by its count: the first answer, a watch list of another length)
 * reaches the map first when the map is on screen and draws every load (`mapFirst`: no board filter,
 * as a filtered map draws the board's rows): its points go to the cluster worker, and the board's
 * rows (all made and sorted in one block of work) wait until the map has drawn, or `waitMs`,
 * so that the clusters' answer and the map's frame do not wait for them. A refresh of as many loads
 * reaches both in one render: its rows cost little, and a pass later would be a render, a commit and
 * a frame more, with the board a version behind the map in between.
 */
export function useBoardAfterMap<T extends { loads: Load[] }>(
  current: T,
  mapFirst: boolean,
  waitMs = BOARD_WAITS_MS,
): { forBoard: T; mapDrew: (onScreen: boolean) => void } {
  const [shown, setShown] = useState(current);
  const [released, setReleased] = useState(false);
  const [mapShown, setMapShown] = useState(false);
  const newSet = current.loads.length !== shown.loads.length;
  const waiting = newSet && mapFirst && mapShown && !released;
  // What the board shows, kept for the next new set to wait with; the release is for one set (both
  // set while rendering: values derived from the props, as React's docs do it).
  if (!waiting && shown !== current) setShown(current);
  if (!newSet && released) setReleased(false);

  // Read by the map's callback, after the commits: no render for a draw that releases nothing.
  const waitingNow = useRef(false);
  const mapShownNow = useRef(false);
  useEffect(() => {
    waitingNow.current = waiting;
  });
  const mapDrew = useCallback((onScreen: boolean) => {
    if (onScreen !== mapShownNow.current) {
      mapShownNow.current = onScreen;
      setMapShown(onScreen);
    }
    if (waitingNow.current) {
      waitingNow.current = false;
      startTransition(() => setReleased(true));
    }
  }, []);
  // From when the wait began: the waiting set's own refreshes do not put it off.
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => startTransition(() => setReleased(true)), waitMs);
    return () => clearTimeout(timer);
  }, [waiting, waitMs]);
  return { forBoard: waiting ? shown : current, mapDrew };
}
