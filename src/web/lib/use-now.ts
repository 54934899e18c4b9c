import { useEffect, useState } from 'react';
import type { Load } from '@/domain/model';
import { nextLevelChange, type StalenessThresholds } from '@/domain/staleness';
import { perfMark } from './perf-marks';

/** The current time, updated every `intervalMs`, for ages that count up while you watch. */
export function useNow(intervalMs = 10_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => {
      // For `npm run bench`: a measurement can keep the ticks out of its window.
      perfMark('clock-tick', { every: intervalMs });
      setNow(Date.now());
    }, intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
}

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

/**
 * `now` for judging staleness: it moves on only when some load changes level (or the thresholds
 * change), so derivations keyed on it (the board's rows, the markers' colours) are not redone for
 * 10,000 loads on every tick of a clock that changed nothing. New loads (a refresh) keep it too when
 * none of them changes level between it and now: judged then or now, every load is at the same
 * level, and the rows and points of the 9,000 unchanged loads are kept. Ages on screen use `now`.
 */
export function useLevelNow(loads: readonly Load[], now: number, thresholds: StalenessThresholds): number {
  const hold = (at: number): Held => ({
    loads,
    thresholds,
    at,
    next: nextLevelChange(loads, at, thresholds),
  });
  const [held, setHeld] = useState(() => hold(now));
  // Derived from the previous render's value, the way React's docs store information from it.
  if (held.thresholds !== thresholds || now >= held.next) {
    const fresh = hold(now);
    setHeld(fresh);
    return fresh.at;
  }
  if (held.loads !== loads) {
    // Judged at the held instant, the new list's next change of level must still be ahead of now.
    const kept = { loads, thresholds, at: held.at, next: nextAfterRefresh(held, loads) };
    const fresh = kept.next > now ? kept : hold(now);
    setHeld(fresh);
    return fresh.at;
  }
  return held.at;
}
