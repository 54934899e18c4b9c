import type { TemperatureReading } from './model';

/**
 * A reefer excursion: supply or return outside set ± tolerance (degrees, in the reading's unit).
 * A reading without a set point cannot be judged, and is no excursion.
 */
export function isExcursion(r: TemperatureReading | undefined, tolerance: number): boolean {
  if (!r || r.set === undefined) return false;
  const set = r.set;
  // No list and no closure: a reefer's 50,000 readings are judged twice when its detail opens.
  const s = r.supply;
  const t = r.return;
  return (
    (s !== undefined && Math.abs(s - set) > tolerance) || (t !== undefined && Math.abs(t - set) > tolerance)
  );
}
