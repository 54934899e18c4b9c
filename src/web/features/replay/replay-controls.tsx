import { useLayoutEffect, useRef } from 'react';
import { durationText } from '@/domain/outlook-text';
import { viewerTime } from '../../lib/time-format';
import type { TimeSource } from '../../lib/time-store';
import { SPEEDS } from './replay-state';

export interface ReplayControlsProps {
  span: { from: number; to: number };
  time: TimeSource;
  playing: boolean;
  speed: number;
  onSeek: (t: number) => void;
  onToggle: () => void;
  onStep: (direction: 1 | -1) => void;
  onSpeed: (speed: number) => void;
}

/** Written once: formatting numbers anew in every frame of play is not free. */
const SPEED_OPTIONS = SPEEDS.map((s) => (
  <option key={s} value={s}>
    {`${s.toLocaleString('en-US')}×`}
  </option>
));

/** The slider's value in words, for screen readers: the instant and how far into the replay. */
export function replayTimeWords(time: number, span: { from: number; to: number }): string {
  return `${viewerTime(time)}, ${durationText((time - span.from) / 60_000)} into the replay of ${durationText((span.to - span.from) / 60_000)}`;
}

/** While playing, the clock's text is written at most this often: each write lays the row out again. */
const CLOCK_EVERY_MS = 200;

/**
 * Writes the time into the slider and the clock as it moves, outside React's render. While playing,
 * the slider is written when its thumb would move by a pixel and the clock a few times a second:
 * a value or text written in every frame costs a layout and a paint for no change anyone sees. The
 * words for screen readers wait for the replay to rest: nobody hears them change in every frame.
 */
function useWrittenTime(time: TimeSource, span: { from: number; to: number }, playing: boolean) {
  const slider = useRef<HTMLInputElement>(null);
  const clock = useRef<HTMLOutputElement>(null);
  useLayoutEffect(() => {
    const input = slider.current;
    // The slider's width from an observer: reading it in a frame would force a layout.
    let width = 1_000;
    const observer =
      input && typeof ResizeObserver !== 'undefined'
        ? new ResizeObserver(([entry]) => {
            if (entry) width = Math.max(1, entry.contentRect.width);
          })
        : undefined;
    if (input) observer?.observe(input);
    let sliderAt: number | undefined;
    let clockAt = -Infinity;
    const write = (t: number, resting: boolean) => {
      if (
        input &&
        (resting || sliderAt === undefined || Math.abs(t - sliderAt) * width >= span.to - span.from)
      ) {
        input.value = String(t);
        sliderAt = t;
        if (resting) input.setAttribute('aria-valuetext', replayTimeWords(t, span));
      }
      const now = performance.now();
      if (clock.current && (resting || now - clockAt >= CLOCK_EVERY_MS)) {
        clock.current.textContent = viewerTime(t);
        clockAt = now;
      }
    };
    const now = time.get();
    if (now !== undefined) write(now, true);
    const unsubscribe = time.subscribe((t) => write(t, !playing));
    return () => {
      unsubscribe();
      observer?.disconnect();
    };
  }, [time, span, playing]);
  return { slider, clock };
}

/**
 * One time slider for every load of the replay, with play/pause, a step each way and the speed. Keys
 * (space, ←/→, +/−) are read by the page, so they work wherever the focus is on it.
 */
export function ReplayControls({
  span,
  time,
  playing,
  speed,
  onSeek,
  onToggle,
  onStep,
  onSpeed,
}: ReplayControlsProps) {
  const { slider, clock } = useWrittenTime(time, span, playing);
  const button =
    'rounded border border-panel-line bg-white px-2 py-1 text-sm hover:bg-panel-sunk focus-visible:outline-2 focus-visible:outline-status-selected';
  return (
    <div className="flex flex-col gap-1 border-b border-panel-line bg-panel px-4 py-2">
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className={button} onClick={() => onStep(-1)} aria-label="Step back">
          ◀◀
        </button>
        <button type="button" className={`${button} min-w-16 font-semibold`} onClick={onToggle}>
          {playing ? 'Pause' : 'Play'}
        </button>
        <button type="button" className={button} onClick={() => onStep(1)} aria-label="Step forward">
          ▶▶
        </button>
        <label className="flex items-center gap-1 text-sm">
          Speed
          <select
            className="rounded border border-panel-line bg-white px-1 py-1"
            value={speed}
            onChange={(e) => onSpeed(Number(e.target.value))}
          >
            {SPEED_OPTIONS}
          </select>
        </label>
        {/* Its text is written by useWrittenTime. */}
        <output
          ref={clock}
          className="ml-auto text-sm font-semibold tabular-nums"
          aria-live="off"
          data-replay-clock
        />
      </div>
      {/* Uncontrolled: its value and words are written by useWrittenTime. */}
      <input
        ref={slider}
        type="range"
        className="w-full accent-status-selected"
        min={span.from}
        max={span.to}
        step="any"
        aria-label="Replay time"
        onChange={(e) => onSeek(Number(e.target.value))}
      />
      <p className="text-xs text-ink-muted">Keys: space plays or pauses, ← → step, + − change the speed.</p>
    </div>
  );
}
