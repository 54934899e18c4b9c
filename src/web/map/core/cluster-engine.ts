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
   * and moved in place: a refresh builds the index of 10,000 points again, and 40,000 new objects a
   * time were the worker's garbage, collected (in parallel, on the page's cores) while the page drew.
   */
  let features: PointFeature<PointProps>[] = [];
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
    query(bbox: [number, number, number, number], zoom: number): ClusterAnswer {
      const found = tree ? tree.getClusters(bbox, zoom) : [];
      const clusters: number[] = [];
      const points: number[] = [];
      for (const f of found) {
        const props = f.properties as {
          cluster?: boolean;
          point_count?: number;
          cluster_id?: number;
          i?: number;
          late?: number;
        };
        const [lon, lat] = f.geometry.coordinates as [number, number];
        if (props.cluster && props.cluster_id !== undefined)
          clusters.push(lon, lat, props.point_count ?? 0, props.cluster_id, props.late ?? 0);
        else if (props.i !== undefined) points.push(props.i);
      }
      return { clusters: Float64Array.from(clusters), points: Uint32Array.from(points) };
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
