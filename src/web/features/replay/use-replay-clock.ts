import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

/**
 * The replay's time, played at `speed` track seconds per real second. React's state changes at most
 * once per animation frame: a drag's many input events, or the play loop, land in the next frame.
 * Times are whole milliseconds, so a link written from the state opens at exactly the same instant.
 */
export function useReplayClock(
  span: { from: number; to: number } | undefined,
  start: number | undefined,
  speed: number,
) {
  const [time, setTime] = useState<number | undefined>(start);
  const [playing, setPlaying] = useState(false);
  const current = useRef(time);
  const pending = useRef<number | undefined>(undefined);
  const frame = useRef<number | undefined>(undefined);
  const speedNow = useRef(speed);
  useLayoutEffect(() => {
    speedNow.current = speed;
  }, [speed]);

  // The span arrives with the loads: the time starts at the link's instant, else the first item.
  const t = time ?? (span ? Math.min(span.to, Math.max(span.from, start ?? span.from)) : undefined);
  useLayoutEffect(() => {
    current.current = t;
  }, [t]);

  const clamp = useCallback(
    (v: number) => (span ? Math.round(Math.min(span.to, Math.max(span.from, v))) : Math.round(v)),
    [span],
  );

  /** Moves the time; called as often as a drag likes, applied once in the next frame. */
  const seek = useCallback(
    (v: number) => {
      pending.current = clamp(v);
      if (frame.current !== undefined) return;
      frame.current = requestAnimationFrame(() => {
        frame.current = undefined;
        if (pending.current !== undefined) setTime(pending.current);
        pending.current = undefined;
      });
    },
    [clamp],
  );

  /** Moves the time by `delta` from where it is going: key repeats within one frame add up. */
  const nudge = useCallback(
    (delta: number) => seek((pending.current ?? current.current ?? span?.from ?? 0) + delta),
    [seek, span],
  );

  useEffect(
    () => () => {
      if (frame.current !== undefined) cancelAnimationFrame(frame.current);
    },
    [],
  );

  useEffect(() => {
    if (!playing || !span) return;
    let last: number | undefined;
    let id = 0;
    const tick = (now: number) => {
      const dt = last === undefined ? 0 : now - last;
      last = now;
      const next = clamp((current.current ?? span.from) + dt * speedNow.current);
      current.current = next;
      setTime(next);
      if (next >= span.to) setPlaying(false);
      else id = requestAnimationFrame(tick);
    };
    id = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(id);
  }, [playing, span, clamp]);

  const toggle = useCallback(() => {
    if (!span) return;
    // Play at the end starts again from the beginning.
    if (!playing && (current.current ?? span.from) >= span.to) {
      current.current = span.from;
      setTime(span.from);
    }
    setPlaying(!playing);
  }, [span, playing]);

  return { time: t, playing, seek, nudge, toggle, setPlaying };
}
