import type { Load } from '@/domain/model';
import { generateFleet } from '@/simulator/fleet';
import { simulatedLoads } from './simulated-answer';

export interface SimulatedRefreshes {
  /** The fleet's loads at the first moment, everything they sent. */
  start: Load[];
  /** Per refresh: its moment, and what a `sendNewData: yes` pull would bring, per load id. */
  refreshes: { at: number; byId: Map<string, Load> }[];
}

/**
 * A simulated fleet with its stops, and the deltas of refreshes `everyMs` apart, as the exceptions
 * bench makes them: for tests that follow a fleet through refreshes.
 */
export function simulatedRefreshes(o: {
  seed: number;
  loads: number;
  speed: number;
  /** How long the fleet has run at the first moment. */
  afterMs: number;
  everyMs: readonly number[];
}): SimulatedRefreshes {
  const startedAt = Date.parse('2026-11-22T12:00:00Z');
  const plans = generateFleet({ seed: o.seed, loads: o.loads, speed: o.speed, startedAt });
  const answer = { speed: o.speed, seed: o.seed, stops: true };
  let at = startedAt + o.afterMs;
  const start = simulatedLoads(plans, at, answer);
  const refreshes = o.everyMs.map((every) => {
    const after = at;
    at += every;
    const deltas = simulatedLoads(plans, at, { ...answer, after }).flatMap((d) => {
      // The simulator adds each load's last ping and every event, which the service would not send again.
      const pings = d.pings.filter((p) => p.instant > after);
      const events = d.events.filter((e) => e.instant > after);
      return pings.length + events.length > 0 ? [{ ...d, pings, events }] : [];
    });
    return { at, byId: new Map(deltas.map((d) => [d.id, d])) };
  });
  return { start, refreshes };
}
