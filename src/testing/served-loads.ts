import { withOutlook } from '@/domain/outlook';
import { loadView, relativeIssues } from '@/server/track-cache';
import { generateFleet } from '@/simulator/fleet';
import { simulatedLoads } from './simulated-answer';

/** Simulated loads as the proxy serves them (outlooks and stops included), written out and read back. */
export function servedLoads(include: Parameters<typeof loadView>[2]): unknown[] {
  const startedAt = Date.parse('2026-11-22T12:00:00Z');
  const plans = generateFleet({ seed: 11, loads: 40, speed: 60, startedAt });
  // Ten minutes on the fleet's sped-up clock: trips of some hours, stops reached, a few dark.
  const at = startedAt + 10 * 60_000;
  return simulatedLoads(plans, at, { speed: 60, seed: 11, stops: true }).map((load) => {
    const view = loadView(withOutlook(load, undefined), relativeIssues(load.issues), include);
    return JSON.parse(JSON.stringify(view)) as unknown;
  });
}
