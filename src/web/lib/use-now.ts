import { useEffect, useState, useSyncExternalStore } from 'react';
import type { Load } from '@/domain/model';
import { nextLevelChange, type StalenessThresholds } from '@/domain/staleness';
import { perfMark } from './perf-marks';

interface Clock {
  now: number;
  listeners: Set<() => void>;
  subscribe: (listener: () => void) => () => void;
  read: () => number;
}

/** How often a live board's ages move on ("4 min ago"). */
export const BOARD_TICK_MS = 5_000;

/** One clock per period, shared: every age on a page moves in the same render, once per tick. */
const clocks = new Map<number, Clock>();

function clockOf(intervalMs: number): Clock {
  let clock = clocks.get(intervalMs);
  if (!clock) {
    let timer: ReturnType<typeof setInterval> | undefined;
    const made: Clock = {
      now: Date.now(),
      listeners: new Set(),
      read: () => made.now,
      subscribe: (listener) => {
        made.listeners.add(listener);
        timer ??= setInterval(() => {
          // For `npm run bench`: a measurement can keep the ticks out of its window.
          perfMark('clock-tick', { every: intervalMs });
          made.now = Date.now();
          for (const l of made.listeners) l();
        }, intervalMs);
        return () => {
          made.listeners.delete(listener);
          if (made.listeners.size === 0) {
            clearInterval(timer);
            timer = undefined;
          }
        };
      },
    };
    clocks.set(intervalMs, (clock = made));
  }
  // A clock nobody watched may have stopped long ago: its first reader starts it from now.
  if (clock.listeners.size === 0) clock.now = Date.now();
  return clock;
}

/**
 * The current time, updated every `intervalMs`, for ages that count up while you watch. Read it in
 * the component that shows the age, not above it: each tick renders only the clock's readers.
 */
export function useNow(intervalMs = 10_000): number {
  const clock = clockOf(intervalMs);
  return useSyncExternalStore(clock.subscribe, clock.read);
}

/** The clock's last tick without watching it (now, if no one does): what the ages on screen say. */
const clockReading = (intervalMs: number): number => clockOf(intervalMs).now;

interface Held {
  loads: readonly Load[];
  thresholds: StalenessThresholds;
  at: number;
  next: number;
}

/**
 * The next change of level in a new list of loads, judged at the held instant. A refresh keeps most
 * loads in their places: only the ones replaced are looked at, and the held next change stands for
 * the others. It may be a change of a load that was replaced, and come earlier than needed: then
 * the list is judged whole, once, a little early.
 */
function nextAfterRefresh(held: Held, loads: readonly Load[]): number {
  const before = held.loads;
  if (before.length !== loads.length) return nextLevelChange(loads, held.at, held.thresholds);
  const replaced: Load[] = [];
  for (let i = 0; i < loads.length; i++) if (loads[i] !== before[i]) replaced.push(loads[i] as Load);
  return Math.min(held.next, nextLevelChange(replaced, held.at, held.thresholds));
}

/** The longest a timer may wait (setTimeout's limit); a later change of level is waited for in steps. */
const LONGEST_WAIT_MS = 2 ** 31 - 1;
/** Levels are judged again at most this often: 10,000 loads cross thresholds many times a minute. */
const LEVEL_STEP_MS = 5_000;

/**
 * The time staleness is judged at: it moves on only when some load changes level (a timer set for
 * the next change) or the thresholds change, so derivations keyed on it (the board's rows, the
 * markers' colours) are not redone for 10,000 loads on every tick of a clock that changed nothing,
 * and the page that holds the loads does not render at each tick. New loads (a refresh) keep it too
 * when none of them changes level between it and now: judged then or now, every load is at the same
 * level, and the rows and points of the 9,000 unchanged loads are kept. Ages on screen use `useNow`.
 */
export function useLevelNow(loads: readonly Load[], thresholds: StalenessThresholds): number {
  const hold = (at: number): Held => ({
    loads,
    thresholds,
    at,
    next: nextLevelChange(loads, at, thresholds),
  });
  const [held, setHeld] = useState(() => hold(Date.now()));
  useEffect(() => {
    if (!Number.isFinite(held.next)) return;
    let timer: ReturnType<typeof setTimeout>;
    const due = Math.max(held.next, held.at + LEVEL_STEP_MS);
    const wait = () => {
      const now = Date.now();
      // A timer may fire a little early: judged before the change, the level would not move.
      if (now < due) timer = setTimeout(wait, Math.min(due - now, LONGEST_WAIT_MS));
      else
        setHeld({
          ...held,
          at: now,
          next: nextLevelChange(held.loads, now, held.thresholds),
        });
    };
    wait();
    return () => clearTimeout(timer);
  }, [held]);
  // Derived from the previous render's value, the way React's docs store information from it.
  if (held.thresholds !== thresholds) {
    const fresh = hold(clockReading(BOARD_TICK_MS));
    setHeld(fresh);
    return fresh.at;
  }
  if (held.loads !== loads) {
    // Judged at the held instant, the new list's next change of level must still be ahead of now
    // (the board's clock: a load that crossed since its last tick is judged by the timer below).
    const now = clockReading(BOARD_TICK_MS);
    const kept = { loads, thresholds, at: held.at, next: nextAfterRefresh(held, loads) };
    const fresh = kept.next > now ? kept : hold(now);
    setHeld(fresh);
    return fresh.at;
  }
  return held.at;
}
