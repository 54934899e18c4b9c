import type { Load } from '@/domain/model';
import { attentionAt, needsAttention, type Attention } from '@/domain/attention';
import type { Staleness } from '@/domain/staleness';
import { statusPhase } from '@/domain/status-phase';
import { formatAccuracy } from '../../lib/format';
import { outlookLine } from '../../components/outlook-text';
import { nextStopOutlook } from '@/domain/outlook-text';
import { loadKey, loadLabel } from '../../lib/load-ref';
import type { MarkerPoint } from './load-markers-layer';
import { phaseColors, statusColors } from '../../../../tailwind.config';

/**
 * A load's latest position as the map marks it: coloured by how long since its last ping (a finished
 * load in a pale grey whatever its age: no alarm), with a dot
 * for where in its trip it is (its latest status's phase). Its tooltip's text is written when a pointer asks
 * for it, not for each of the thousand loads a refresh moves (a text of seven parts each, kept until
 * the load moved again).
 */
class LoadPoint implements MarkerPoint {
  readonly key: string;
  readonly lat: number;
  readonly lon: number;
  readonly accuracy: number | null;
  readonly color: string;
  readonly centre: string | null;
  /** Its next stop late (red) or at risk (amber), as the proxy reckoned it; else the plain ring. */
  readonly ring: string | undefined;
  /** It needs attention (silent, excursion, stale: `domain/attention.ts`): its cluster's badge counts it. */
  readonly late: boolean;
  private readonly attention: Attention;
  constructor(
    private readonly load: Load,
    private readonly level: Staleness,
    excursionTolerance: number,
  ) {
    const at = load.latestLocation as NonNullable<Load['latestLocation']>;
    this.key = loadKey(load);
    this.lat = at.lat;
    this.lon = at.lon;
    this.accuracy = at.accuracy;
    this.attention = attentionAt(load, level, excursionTolerance);
    this.color = this.attention.finished ? statusColors.finished : statusColors[level];
    const phase = statusPhase(load.latestStatus);
    this.centre = phase === 'other' ? null : phaseColors[phase];
    const next = this.attention.finished ? undefined : nextStopOutlook(load.outlook);
    this.ring =
      next?.progress !== 'upcoming'
        ? undefined
        : next.status === 'late'
          ? statusColors.silent
          : next.status === 'at-risk'
            ? statusColors.stale
            : undefined;
    this.late = needsAttention(this.attention);
  }
  get label(): string {
    const { finished, reasons } = this.attention;
    const level = finished
      ? 'finished'
      : this.level === 'fresh'
        ? 'reporting'
        : this.level === 'unknown'
          ? 'unknown'
          : this.level;
    const excursion = reasons.includes('excursion') ? ' · excursion' : '';
    // Why it is dark and how its next stop stands, as the board says them (at the pointer's time).
    const outlook = outlookLine(this.load, this.level, finished, Date.now());
    const more = [outlook.dark, outlook.next?.text]
      .filter(Boolean)
      .map((t) => ` · ${t}`)
      .join('');
    return `${loadLabel(this.load)} · ${this.load.latestStatus?.name ?? 'no status'} · ${level}${excursion}${more} · ${formatAccuracy(this.accuracy)}`;
  }
}

/**
 * A load's point at a staleness level; none without a position. Each call makes a new point: the map
 * keeps an unchanged load's point by its place in the list (`levelCache`), not per load object. Its
 * attention follows from the level and the load, so a kept point keeps it true.
 */
export function pointOf(load: Load, level: Staleness, excursionTolerance: number): MarkerPoint | undefined {
  return load.latestLocation ? new LoadPoint(load, level, excursionTolerance) : undefined;
}
