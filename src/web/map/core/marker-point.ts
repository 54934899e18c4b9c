import { replacedPlaces } from '../../lib/replaced-places';

/** One thing to mark on the map: a load's latest position, say. */
export interface MarkerPoint {
  key: string;
  lat: number;
  lon: number;
  /** Meters (68% radius); null = unknown, no circle. */
  accuracy: number | null;
  color: string;
  /** The colour of a dot in the marker's middle (a load's trip phase); null or absent: no dot. */
  centre?: string | null;
  /** The colour of its ring (a load's next stop late or at risk); absent: the plain white ring. */
  ring?: string;
  label: string;
  /** It needs attention (silent, excursion, stale; never a finished load): its cluster's badge counts it. */
  late?: boolean;
}

/** The same point for the cluster index, which reads keys, places and late flags only. */
export const samePlace = (a: MarkerPoint, b: MarkerPoint) =>
  a.key === b.key && a.lat === b.lat && a.lon === b.lon && !a.late === !b.late;

/** The points as the cluster index takes them: lon, lat, lon, lat, …, and their late flags. */
export function indexedOf(points: readonly MarkerPoint[]): { coords: Float64Array; late: Uint8Array } {
  const coords = new Float64Array(points.length * 2);
  const late = new Uint8Array(points.length);
  points.forEach((p, i) => {
    coords[2 * i] = p.lon;
    coords[2 * i + 1] = p.lat;
    late[i] = p.late ? 1 : 0;
  });
  return { coords, late };
}

/**
 * The points that moved or turned late (or back) from one list to the next, when every point kept its
 * place (a refresh, a staleness threshold crossed): their places, lon, lat, lon, lat, … and late
 * flags; undefined when the list changed (a load came, went or moved in the list), which the index
 * must load whole.
 */
export function movesOf(
  before: readonly MarkerPoint[],
  after: readonly MarkerPoint[],
): { places: Uint32Array; coords: Float64Array; late: Uint8Array } | undefined {
  const places = replacedPlaces(before, after, (p) => p.key)?.filter((i) => {
    const [p, q] = [after[i] as MarkerPoint, before[i] as MarkerPoint];
    return p.lat !== q.lat || p.lon !== q.lon || !p.late !== !q.late;
  });
  if (!places) return undefined;
  const coords = new Float64Array(places.length * 2);
  const late = new Uint8Array(places.length);
  places.forEach((place, k) => {
    const p = after[place] as MarkerPoint;
    coords[2 * k] = p.lon;
    coords[2 * k + 1] = p.lat;
    late[k] = p.late ? 1 : 0;
  });
  return { places: Uint32Array.from(places), coords, late };
}
