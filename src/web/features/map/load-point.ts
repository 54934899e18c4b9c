import type { Load } from '@/domain/model';
import type { Staleness } from '@/domain/staleness';
import { formatAccuracy } from '../../lib/format';
import { loadKey } from '../../lib/load-key';
import type { MarkerPoint } from '../../map/layers/load-markers-layer';
import { statusColors } from '../../../../tailwind.config';

const labelOf = (l: Load) => (l.by === 'load-number' ? (l.loadNumber ?? l.id) : (l.externalId ?? l.id));

/** One point per load object and staleness level: an unchanged load yields the very same point. */
const pointCache = new WeakMap<Load, Map<string, MarkerPoint>>();
export function pointOf(load: Load, level: Staleness): MarkerPoint | undefined {
  const at = load.latestLocation;
  if (!at) return undefined;
  let byLevel = pointCache.get(load);
  if (!byLevel) pointCache.set(load, (byLevel = new Map()));
  let point = byLevel.get(level);
  if (!point) {
    point = {
      key: loadKey(load),
      lat: at.lat,
      lon: at.lon,
      accuracy: at.accuracy,
      color: statusColors[level],
      label: `${labelOf(load)} · ${load.latestStatus?.name ?? 'no status'} · ${level === 'fresh' ? 'reporting' : level} · ${formatAccuracy(at.accuracy)}`,
    };
    byLevel.set(level, point);
  }
  return point;
}
