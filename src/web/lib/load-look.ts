import type { Load } from '@/domain/model';
import { loadStaleness, type StalenessThresholds } from '@/domain/staleness';
import { loadKey } from './load-ref';
import { attentionAt, needsAttention, type Attention } from '@/domain/attention';
import { nextStopOutlook } from '@/domain/outlook-text';
import type { Staleness } from '@/domain/staleness';
import { statusPhase, type StatusPhase } from '@/domain/status-phase';
import { phaseColors, statusColors } from '../../../tailwind.config';

/**
 * How a load's map marker looks, as one small number: its colour (its staleness level, or finished),
 * its middle dot (its trip phase), its ring (its next stop late or at risk) and whether its cluster's
 * badge counts it late. One number, so the pull worker can send 10,000 of them in one typed array and
 * the map draw them before the loads themselves reach the page; the map's points read their colours
 * from the same number, so both ways draw alike.
 */
export type LoadLook = number;

const COLOURS = ['fresh', 'stale', 'silent', 'unknown', 'finished'] as const;
const PHASES: readonly (Exclude<StatusPhase, 'other'> | null)[] = [
  null,
  'planned',
  'pickup',
  'transit',
  'delivery',
  'delivered',
];
const RINGS = [undefined, statusColors.silent, statusColors.stale] as const;

/** A load's look at a staleness level, from its attention at that level. */
export function lookOf(load: Load, level: Staleness, attention: Attention): LoadLook {
  const colour = attention.finished ? 4 : COLOURS.indexOf(level);
  const phase = statusPhase(load.latestStatus);
  const dot = phase === 'other' ? 0 : PHASES.indexOf(phase);
  const next = attention.finished ? undefined : nextStopOutlook(load.outlook);
  const ring =
    next?.progress !== 'upcoming' ? 0 : next.status === 'late' ? 1 : next.status === 'at-risk' ? 2 : 0;
  return colour | (dot << 3) | (ring << 6) | ((needsAttention(attention) ? 1 : 0) << 8);
}

/** A load's look at a staleness level (its attention judged here). */
export const lookAt = (load: Load, level: Staleness, excursionTolerance: number): LoadLook =>
  lookOf(load, level, attentionAt(load, level, excursionTolerance));

/** What a look draws: the marker's fill, its dot (null: none), its ring (absent: plain), late or not. */
export interface LookColours {
  color: string;
  centre: string | null;
  ring: string | undefined;
  late: boolean;
}

/** Each look's colours, made once: 10,000 points share a few dozen. */
const decoded: LookColours[] = [];

export function lookColours(look: LoadLook): LookColours {
  return (decoded[look] ??= decode(look));
}

function decode(look: LoadLook): LookColours {
  const phase = PHASES[(look >> 3) & 7] ?? null;
  return {
    color: statusColors[COLOURS[look & 7] ?? 'unknown'],
    centre: phase === null ? null : phaseColors[phase],
    ring: RINGS[(look >> 6) & 3],
    late: ((look >> 8) & 1) === 1,
  };
}

/** What the map's looks are judged with (the client's config), and when. */
export interface LookRules {
  thresholds: StalenessThresholds;
  excursionTolerance: number;
  /**
   * The instant the page judges its loads at (its level clock): early points judged later than the
   * loads that replace them could show a load stale and then fresh again.
   */
  at: number;
}

/**
 * The map's points of a board, in the board's order (the loads without a position left out): what the
 * pull worker sends ahead of the loads. Typed arrays, moved to the page without a copy.
 */
export interface EarlyPoints {
  /** The view of many loads they are of (the pull's view key). */
  view: string;
  /** When their staleness was judged. */
  at: number;
  keys: string[];
  /** lon, lat, lon, lat, … */
  coords: Float64Array;
  /** Meters; NaN: unknown. */
  accuracy: Float64Array;
  looks: Uint16Array;
}

/** The early points of these loads (a whole answer), judged at `now`. */
export function earlyPointsOf(
  view: string,
  loads: readonly Load[],
  now: number,
  rules: LookRules,
): EarlyPoints {
  const located = loads.filter((l) => l.latestLocation);
  const n = located.length;
  const points: EarlyPoints = {
    view,
    at: now,
    keys: new Array<string>(n),
    coords: new Float64Array(2 * n),
    accuracy: new Float64Array(n),
    looks: new Uint16Array(n),
  };
  located.forEach((load, i) => {
    const at = load.latestLocation as NonNullable<Load['latestLocation']>;
    points.keys[i] = loadKey(load);
    points.coords[2 * i] = at.lon;
    points.coords[2 * i + 1] = at.lat;
    points.accuracy[i] = at.accuracy ?? Number.NaN;
    points.looks[i] = lookAt(load, loadStaleness(load, now, rules.thresholds), rules.excursionTolerance);
  });
  return points;
}
