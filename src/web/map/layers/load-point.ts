import type { Load } from '@/domain/model';
import { attentionAt, type Attention } from '@/domain/attention';
import type { Staleness } from '@/domain/staleness';
import { formatAccuracy } from '../../lib/format';
import { outlookLine } from '../../components/outlook-text';
import { loadKey, loadLabel } from '../../lib/load-ref';
import type { MarkerPoint } from './load-markers-layer';
import { lookColours, lookOf, type EarlyPoints } from '../../lib/load-look';

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
    // From the look the pull worker sends the map ahead of the loads: both ways draw alike.
    const look = lookColours(lookOf(load, level, this.attention));
    this.color = look.color;
    this.centre = look.centre;
    this.ring = look.ring;
    this.late = look.late;
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

/**
 * The points of a board's answer as the pull worker sent them ahead of its loads: the same places and
 * looks as `pointOf` gives from the loads, judged at the page's level instant the worker was told;
 * until the loads come, a tooltip names the load by its key.
 */
export function earlyPoints(early: EarlyPoints): MarkerPoint[] {
  const { keys, coords, accuracy, looks } = early;
  return keys.map((key, i) => {
    const { color, centre, ring, late } = lookColours(looks[i] as number);
    const meters = accuracy[i] as number;
    return {
      key,
      lon: coords[2 * i] as number,
      lat: coords[2 * i + 1] as number,
      accuracy: Number.isNaN(meters) ? null : meters,
      color,
      centre,
      ...(ring === undefined ? {} : { ring }),
      label: key,
      late,
    };
  });
}
