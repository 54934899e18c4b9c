import Supercluster, { type PointFeature } from 'supercluster';

/** How points are clustered (supercluster's options). */
export interface ClusterOptions {
  /** Pixels around a cluster within which points join it. */
  radius: number;
  /** The last zoom at which points are clustered. */
  maxZoom: number;
}

/** What is shown in a view: its clusters, and the points in no cluster (by their place in the list). */
export interface ClusterAnswer {
  /**
   * Five numbers per cluster: lon, lat, how many points, its id (the index's own), and how many of
   * its points are late (stale or silent loads: what a dispatcher must see at fleet zoom).
   */
  clusters: Float64Array;
  /** The places, in the list the index was loaded with, of the points shown alone. */
  points: Uint32Array;
}

/**
 * Moves some of the points (lon, lat, lon, lat, …) in place: `places` are their places in the list,
 * `moved` their new lon, lat, in the same order. A place past the list's end is left out.
 */
export function applyMoves(coords: Float64Array, places: Uint32Array, moved: Float64Array): void {
  places.forEach((place, k) => {
    if (2 * place + 1 >= coords.length) return;
    coords[2 * place] = moved[2 * k] as number;
    coords[2 * place + 1] = moved[2 * k + 1] as number;
  });
}

/** Numbers per cluster in `ClusterAnswer.clusters`. */
export const CLUSTER_STRIDE = 5;

/** Marks some points late or not: `places` are their places in the list, `flags` 1 (late) or 0. */
export function applyLate(late: Uint8Array, places: Uint32Array, flags: Uint8Array): void {
  places.forEach((place, k) => {
    if (place < late.length) late[place] = flags[k] as number;
  });
}

/** The side of Leaflet's tiles, in CSS pixels: the unit of a cluster's radius. */
const LEAFLET_TILE_SIZE = 256;

/** A point as the index holds it: its place in the list, and 1 when its load is late. */
interface PointProps {
  i: number;
  late: number;
}

/** What the index answers for a point or a cluster (supercluster's properties, ours included). */
interface FoundProps {
  cluster?: boolean;
  point_count?: number;
  cluster_id?: number;
  i?: number;
  late?: number;
}

// Spherical Mercator in [0, 1], where supercluster places points and clusters (its own formulas).
const lngX = (lng: number) => lng / 360 + 0.5;
function latY(lat: number): number {
  const sin = Math.sin((lat * Math.PI) / 180);
  const y = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI;
  return y < 0 ? 0 : y > 1 ? 1 : y;
}
const xLng = (x: number) => (x - 0.5) * 360;
const yLat = (y: number) => (360 * Math.atan(Math.exp(((180 - y * 360) * Math.PI) / 180))) / Math.PI - 90;

/** Whether (lon, lat) is in a box (west, south, east, north) as supercluster reads one, across the date line too. */
function inBox(
  [west, south, east, north]: [number, number, number, number],
  lon: number,
  lat: number,
): boolean {
  if (lat < Math.max(-90, south) || lat > Math.min(90, north)) return false;
  if (east - west >= 360) return true;
  const wrap = (x: number) => ((((x + 180) % 360) + 360) % 360) - 180;
  const [w, e, x] = [wrap(west), east === 180 ? 180 : wrap(east), wrap(lon)];
  return w <= e ? x >= w && x <= e : x >= w || x <= e;
}

/**
 * The clustering itself, where it runs (the cluster worker, or the page where there is no worker):
 * points come as one array of numbers (lon, lat, lon, lat, …) and are told apart by their place in it.
 */
export function clusterEngine(options: ClusterOptions) {
  let tree: Supercluster<PointProps, { late: number }> | null = null;
  /** The points indexed last: `move` changes some of them in place. */
  let held: Float64Array = new Float64Array(0);
  /** Which of them are late (1) or not (0), in the same order. */
  let heldLate: Uint8Array = new Uint8Array(0);
  /**
   * The points as supercluster takes them, one feature per point, kept from one build to the next
   * and moved in place: a refresh builds the index of 10,000 points again, and new objects each time
   * would be the worker's garbage, collected (in parallel, on the page's cores) while the page draws.
   */
  let features: PointFeature<PointProps>[] = [];
  /**
   * What holds the point left out of the clusters (the selected load) at each zoom, found once per
   * index and point (see `holders`): a cluster's id, or -1 where the point is alone.
   */
  let holding: { place: number; zooms: number[] | null } | null = null;
  const place = (i: number) => {
    const feature = features[i] as PointFeature<PointProps>;
    const xy = feature.geometry.coordinates;
    xy[0] = held[2 * i] as number;
    xy[1] = held[2 * i + 1] as number;
    feature.properties.late = heldLate[i] ?? 0;
  };
  const build = () => {
    // supercluster measures `radius` in tiles of `extent` pixels (512 unless told); Leaflet's tiles are
    // 256 px, so a radius of 50 joined only points 25 px apart, and the badges (30-50 px across) of
    // neighbouring clusters covered each other's counts at low zoom.
    tree = new Supercluster<PointProps, { late: number }>({
      ...options,
      extent: LEAFLET_TILE_SIZE,
      // Each cluster sums its points' late flags: its badge says how many of its loads are late.
      map: (props) => ({ late: props.late }),
      reduce: (sum, props) => {
        sum.late += props.late;
      },
    }).load(features);
    holding = null;
  };

  /**
   * The cluster that holds a point at each zoom from the last clustered one down to 0 (-1: alone
   * there), found with supercluster's own answers, without building the index again: at each zoom,
   * the point's holder one zoom in either stays as it is or is a child of a cluster made at this zoom.
   * Points join a cluster within `radius` of its first point, whose centre is their mean, so a
   * cluster made at zoom z is less than 2r(z) + 2r(z+1) + … < 4r(z) from any of its points: the
   * clusters to look at are those that near the point. Seven zooms, a few clusters each. Null where
   * supercluster answered otherwise (it never did in the tests).
   */
  const holders = (place: number): number[] | null => {
    if (!tree) return null;
    const px = lngX(held[2 * place] as number);
    const py = latY(held[2 * place + 1] as number);
    const isHere = (f: { properties: FoundProps }, id: number, cluster: boolean) =>
      cluster ? f.properties.cluster_id === id : !f.properties.cluster && f.properties.i === id;
    const zooms: number[] = [];
    let id = place;
    let cluster = false;
    for (let z = options.maxZoom; z >= 0; z--) {
      const reach = (4.5 * options.radius) / (LEAFLET_TILE_SIZE * 2 ** z);
      const found = tree.getClusters(
        [xLng(px - reach), yLat(py + reach), xLng(px + reach), yLat(py - reach)],
        z,
      ) as { properties: FoundProps; geometry: { coordinates: number[] } }[];
      if (!found.some((f) => isHere(f, id, cluster))) {
        const away = (f: { geometry: { coordinates: number[] } }) =>
          Math.hypot(
            lngX(f.geometry.coordinates[0] as number) - px,
            latY(f.geometry.coordinates[1] as number) - py,
          );
        const parent = found
          .filter((f) => f.properties.cluster)
          .sort((a, b) => away(a) - away(b))
          .find((f) => {
            try {
              return tree?.getChildren(f.properties.cluster_id as number).some((c) => isHere(c, id, cluster));
            } catch {
              return false;
            }
          });
        if (!parent) return null;
        id = parent.properties.cluster_id as number;
        cluster = true;
      }
      zooms[z] = cluster ? id : -1;
    }
    return zooms;
  };
  /** The cluster of these that holds a point, asking each for all its points: the slow way, a fallback. */
  const holderAmong = (found: { properties: unknown }[], place: number): number => {
    for (const f of found) {
      const props = f.properties as FoundProps;
      if (!props.cluster || props.cluster_id === undefined) continue;
      const leaves = tree?.getLeaves(props.cluster_id, Infinity) ?? [];
      if (leaves.some((leaf) => (leaf.properties as FoundProps).i === place)) return props.cluster_id;
    }
    return -1;
  };

  return {
    /**
     * Indexes these points (and which are late: none unless told), and keeps the arrays: later moves
     * change them in place, so the caller gives ones of its own (the worker the copies postMessage
     * made; the page's index its own copies).
     */
    load(coords: Float64Array, late: Uint8Array = new Uint8Array(coords.length / 2)): void {
      held = coords;
      heldLate = late;
      const n = coords.length / 2;
      if (features.length !== n)
        features = Array.from({ length: n }, (_, i) => ({
          type: 'Feature' as const,
          properties: { i, late: 0 },
          geometry: { type: 'Point' as const, coordinates: [0, 0] },
        }));
      for (let i = 0; i < n; i++) place(i);
      build();
    },
    /**
     * Some of the points changed (a refresh): `places` are their places in the list, `moved` their
     * lon, lat, lon, lat, …, and `late` their late flags. The index is built again (supercluster has
     * no update); what crosses the thread is the changed points, not all of them.
     */
    move(places: Uint32Array, moved: Float64Array, late?: Uint8Array): void {
      applyMoves(held, places, moved);
      if (late) applyLate(heldLate, places, late);
      for (const i of places) if (i < features.length) place(i);
      build();
    },
    /**
     * The clusters and lone points of a view. `exclude`, a place in the list (the selected load), is
     * taken out of the clusters: it is among the lone points (when in the box), and the cluster that
     * held it counts one load less (and one late load less if it is late), its centre the mean of the
     * others (a cluster of two leaves its other point alone). Its cluster is found, not the index
     * built again: the others stay clustered as they were with it.
     */
    query(bbox: [number, number, number, number], zoom: number, exclude = -1): ClusterAnswer {
      const found = tree ? tree.getClusters(bbox, zoom) : [];
      const level = Math.max(0, Math.floor(zoom));
      const leaving = tree !== null && exclude >= 0 && exclude < held.length / 2;
      let holder = -1;
      if (leaving && level <= options.maxZoom) {
        if (holding?.place !== exclude) holding = { place: exclude, zooms: holders(exclude) };
        holder = holding.zooms ? (holding.zooms[level] ?? -1) : holderAmong(found, exclude);
      }
      const clusters: number[] = [];
      const points: number[] = [];
      for (const f of found) {
        const props = f.properties as FoundProps;
        const [lon, lat] = f.geometry.coordinates as [number, number];
        if (props.cluster && props.cluster_id !== undefined) {
          const count = props.point_count ?? 0;
          const late = props.late ?? 0;
          if (props.cluster_id !== holder) clusters.push(lon, lat, count, props.cluster_id, late);
          else if (count > 2) {
            // The mean of the others, where supercluster takes means: in Mercator's x and y.
            const x = (lngX(lon) * count - lngX(held[2 * exclude] as number)) / (count - 1);
            const y = (latY(lat) * count - latY(held[2 * exclude + 1] as number)) / (count - 1);
            clusters.push(xLng(x), yLat(y), count - 1, props.cluster_id, late - (heldLate[exclude] ?? 0));
          } else {
            const other = tree
              ?.getLeaves(props.cluster_id, 2)
              .map((leaf) => (leaf.properties as FoundProps).i)
              .find((i) => i !== exclude);
            if (other !== undefined) points.push(other);
          }
        } else if (props.i !== undefined && props.i !== exclude) points.push(props.i);
      }
      if (leaving && inBox(bbox, held[2 * exclude] as number, held[2 * exclude + 1] as number))
        points.push(exclude);
      return { clusters: Float64Array.from(clusters), points: Uint32Array.from(points) };
    },
    /**
     * The places in the list of every point a cluster holds (none for an id the index does not know,
     * one from an index built since): what a click on its badge zooms to, or lists.
     */
    leaves(id: number): Uint32Array {
      try {
        const found = tree ? tree.getLeaves(id, Infinity) : [];
        return Uint32Array.from(found, (leaf) => (leaf.properties as FoundProps).i ?? 0);
      } catch {
        return new Uint32Array(0);
      }
    },
    /** The zoom at which a cluster falls apart; NaN before any points were loaded. */
    expansionZoom(id: number): number {
      try {
        return tree ? tree.getClusterExpansionZoom(id) : Number.NaN;
      } catch {
        return Number.NaN;
      }
    },
  };
}
