import type { TemperatureReading } from './model';

/**
 * A reefer excursion: supply or return outside set ± tolerance (degrees, in the reading's unit).
 * A reading without a set point cannot be judged, and is no excursion.
 */
export function isExcursion(r: TemperatureReading | undefined, tolerance: number): boolean {
  if (!r || r.set === undefined) return false;
  const set = r.set;
  return [r.supply, r.return].some((t) => t !== undefined && Math.abs(t - set) > tolerance);
}
