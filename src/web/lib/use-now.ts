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
 * `now` for judging staleness: it moves on only when some load changes level (or the loads or the
 * thresholds change), so derivations keyed on it (the board's rows, the markers' colours) are not
 * redone for 10,000 loads on every tick of a clock that changed nothing. Ages on screen use `now`.
 */
export function useLevelNow(loads: readonly Load[], now: number, thresholds: StalenessThresholds): number {
  const hold = (): Held => ({ loads, thresholds, at: now, next: nextLevelChange(loads, now, thresholds) });
  const [held, setHeld] = useState(hold);
  // Derived from the previous render's value, the way React's docs store information from it.
  if (held.loads !== loads || held.thresholds !== thresholds || now >= held.next) {
    const fresh = hold();
    setHeld(fresh);
    return fresh.at;
  }
  return held.at;
}
