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

/**
 * Writes the time into the slider and the clock as it moves, outside React's render. The words for
 * screen readers wait for the replay to rest: nobody hears them change in every frame.
 */
function useWrittenTime(time: TimeSource, span: { from: number; to: number }, playing: boolean) {
  const slider = useRef<HTMLInputElement>(null);
  const clock = useRef<HTMLOutputElement>(null);
  useLayoutEffect(() => {
    const write = (t: number, words: boolean) => {
      if (slider.current) {
        slider.current.value = String(t);
        if (words) slider.current.setAttribute('aria-valuetext', replayTimeWords(t, span));
      }
      if (clock.current) clock.current.textContent = viewerTime(t);
    };
    const now = time.get();
    if (now !== undefined) write(now, true);
    return time.subscribe((t) => write(t, !playing));
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
