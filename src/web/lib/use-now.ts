import { useEffect, useState } from 'react';
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
