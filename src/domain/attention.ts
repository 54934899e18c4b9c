import type { Load } from './model';
import { staleness, type Staleness, type StalenessThresholds } from './staleness';
import { isFinished } from './status-phase';
import { isExcursion } from './temperature';

/**
 * Whether a load needs a dispatcher's attention, and why: the one rule the board (its order, "needs
 * attention", its text filter), the map's red counts and the load's page all read, so that every
 * screen says the same of a load.
 *
 * - `silent`: its phone has not reported for `silentAfterMinutes` (call the driver);
 * - `excursion`: its reefer's latest reading is out of its set point by more than the tolerance;
 * - `stale`: its phone has not reported for `staleAfterMinutes` (look soon).
 *
 * A finished load (delivered or cancelled) needs none, whatever its ping age or temperature: its
 * phone is expected to go quiet once the freight is off the truck.
 */
export type AttentionReason = 'silent' | 'excursion' | 'stale';

/**
 * A load's place in "most urgent first": the reasons above, then a load that never reported, then
 * one reporting as it should, then a finished one (its trip is over: at the end of the list).
 */
export type Urgency = AttentionReason | 'unknown' | 'fresh' | 'finished';

/** Most urgent first. A silent phone comes before an excursion: nobody can be told of the reefer. */
export const URGENCY_ORDER: readonly Urgency[] = [
  'silent',
  'excursion',
  'stale',
  'unknown',
  'fresh',
  'finished',
];

const RANK: Record<Urgency, number> = Object.fromEntries(URGENCY_ORDER.map((u, i) => [u, i])) as Record<
  Urgency,
  number
>;

/** An urgency's rank, 0 the most urgent. */
export const urgencyRank = (u: Urgency): number => RANK[u];

export interface Attention {
  /** Why it needs attention, the most urgent first; empty when it needs none. */
  reasons: readonly AttentionReason[];
  /** Its place in "most urgent first" (the first reason, or what it is without one). */
  urgency: Urgency;
  /** Delivered or cancelled: its trip is over. */
  finished: boolean;
}

/** What of a load the rule reads: its latest status, position and temperature. */
export type AttentionInput = Pick<Load, 'latestStatus' | 'latestTemperature'> & {
  latestLocation?: { instant: number } | undefined;
};

const NONE: readonly AttentionReason[] = [];
const FINISHED: Attention = { reasons: NONE, urgency: 'finished', finished: true };

/**
 * A load's attention, given its staleness as judged at some time (the board and the map judge it
 * once per load and clock tick, `levelCache`); the rest of it is the load's own.
 */
export function attentionAt(load: AttentionInput, level: Staleness, excursionTolerance: number): Attention {
  if (isFinished(load.latestStatus)) return FINISHED;
  const excursion = isExcursion(load.latestTemperature, excursionTolerance);
  const reasons: AttentionReason[] = [];
  if (level === 'silent') reasons.push('silent');
  if (excursion) reasons.push('excursion');
  if (level === 'stale') reasons.push('stale');
  return { reasons: reasons.length > 0 ? reasons : NONE, urgency: reasons[0] ?? level, finished: false };
}

/** A load's attention at `now`. */
export function attention(
  load: AttentionInput,
  now: number,
  thresholds: StalenessThresholds,
  excursionTolerance: number,
): Attention {
  return attentionAt(load, staleness(load.latestLocation?.instant, now, thresholds), excursionTolerance);
}

/** It needs attention: counted on the map's badges and the board's "needs attention". */
export const needsAttention = (a: Attention): boolean => a.reasons.length > 0;

/** How a reason is said in words (never by colour alone). */
export const REASON_TEXT: Record<AttentionReason, string> = {
  silent: 'Silent',
  excursion: 'Excursion',
  stale: 'Stale',
};
