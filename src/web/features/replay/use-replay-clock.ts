import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { createTimeStore, type TimeSource } from '../../lib/time-store';

/**
 * The replay's time, played at `speed` track seconds per real second. The time lives in a store
 * outside React (`time`): the map, the charts' lines and the slider follow it in the task that moves
 * it, and no component renders in a frame of play. Times are whole milliseconds, so a link written
 * from it opens at exactly the same instant.
 */
export function useReplayClock(
  span: { from: number; to: number } | undefined,
  start: number | undefined,
  speed: number,
): {
  time: TimeSource;
  playing: boolean;
  seek: (t: number) => void;
  nudge: (delta: number) => void;
  toggle: () => void;
} {
  const [store] = useState(() => createTimeStore());
  const [playing, setPlaying] = useState(false);
  const speedNow = useRef(speed);
  useLayoutEffect(() => {
    speedNow.current = speed;
  }, [speed]);

  const clamp = useCallback(
    (v: number) => (span ? Math.round(Math.min(span.to, Math.max(span.from, v))) : Math.round(v)),
    [span],
  );
  // The span arrives with the loads: the time starts at the link's instant, else the first item.
  // Set while rendering so the first frame already has it; no one listens yet, and it is set once.
  if (store.get() === undefined && span) store.set(clamp(start ?? span.from));

  /** Moves the time; the layers redraw in the next frame however often a drag calls it. */
  const seek = useCallback((v: number) => store.set(clamp(v)), [store, clamp]);

  /** Moves the time by `delta` from where it is: key repeats add up. */
  const nudge = useCallback(
    (delta: number) => seek((store.get() ?? span?.from ?? 0) + delta),
    [seek, store, span],
  );

  useEffect(() => {
    if (!playing || !span) return;
    let last: number | undefined;
    let id = 0;
    const tick = (now: number) => {
      const dt = last === undefined ? 0 : now - last;
      last = now;
      const next = clamp((store.get() ?? span.from) + dt * speedNow.current);
      store.set(next);
      if (next >= span.to) setPlaying(false);
      else id = requestAnimationFrame(tick);
    };
    id = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(id);
  }, [playing, span, clamp, store]);

  const toggle = useCallback(() => {
    if (!span) return;
    // Play at the end starts again from the beginning.
    if (!playing && (store.get() ?? span.from) >= span.to) store.set(span.from);
    setPlaying(!playing);
  }, [span, playing, store]);

  return { time: store, playing, seek, nudge, toggle };
}
