import type { Load } from '@/domain/model';
import type { Staleness } from '@/domain/staleness';
import { statusPhase } from '@/domain/status-phase';
import { formatAccuracy } from '../../lib/format';
import { loadKey, loadLabel } from '../../lib/load-ref';
import type { MarkerPoint } from './load-markers-layer';
import { phaseColors, statusColors } from '../../../../tailwind.config';

/**
 * A load's latest position as the map marks it: coloured by how long since its last ping, with a dot
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
  /** Stale or silent: counted on its cluster's badge as a load that needs attention. */
  readonly late: boolean;
  constructor(
    private readonly load: Load,
    private readonly level: Staleness,
  ) {
    const at = load.latestLocation as NonNullable<Load['latestLocation']>;
    this.key = loadKey(load);
    this.lat = at.lat;
    this.lon = at.lon;
    this.accuracy = at.accuracy;
    this.color = statusColors[level];
    const phase = statusPhase(load.latestStatus);
    this.centre = phase === 'other' ? null : phaseColors[phase];
    this.late = level === 'stale' || level === 'silent';
  }
  get label(): string {
    const level = this.level === 'fresh' ? 'reporting' : this.level;
    return `${loadLabel(this.load)} · ${this.load.latestStatus?.name ?? 'no status'} · ${level} · ${formatAccuracy(this.accuracy)}`;
  }
}

/**
 * A load's point at a staleness level; none without a position. Each call makes a new point: the map
 * keeps an unchanged load's point by its place in the list (`levelCache`), not per load object.
 */
export function pointOf(load: Load, level: Staleness): MarkerPoint | undefined {
  return load.latestLocation ? new LoadPoint(load, level) : undefined;
}
