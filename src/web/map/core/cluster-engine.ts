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
  /** Four numbers per cluster: lon, lat, how many points, and its id (the index's own). */
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

/** The side of Leaflet's tiles, in CSS pixels: the unit of a cluster's radius. */
const LEAFLET_TILE_SIZE = 256;

/**
 * The clustering itself, where it runs (the cluster worker, or the page where there is no worker):
 * points come as one array of numbers (lon, lat, lon, lat, …) and are told apart by their place in it.
 */
export function clusterEngine(options: ClusterOptions) {
  let tree: Supercluster<{ i: number }> | null = null;
  /** The points indexed last: `move` changes some of them in place. */
  let held: Float64Array = new Float64Array(0);
  /**
   * The points as supercluster takes them, one feature per point, kept from one build to the next
   * and moved in place: a refresh builds the index of 10,000 points again, and 40,000 new objects a
   * time were the worker's garbage, collected (in parallel, on the page's cores) while the page drew.
   */
  let features: PointFeature<{ i: number }>[] = [];
  const place = (i: number) => {
    const xy = (features[i] as PointFeature<{ i: number }>).geometry.coordinates;
    xy[0] = held[2 * i] as number;
    xy[1] = held[2 * i + 1] as number;
  };
  const build = () => {
    // supercluster measures `radius` in tiles of `extent` pixels (512 unless told); Leaflet's tiles are
    // 256 px, so a radius of 50 joined only points 25 px apart, and the badges (30-50 px across) of
    // neighbouring clusters covered each other's counts at low zoom.
    tree = new Supercluster<{ i: number }>({ ...options, extent: LEAFLET_TILE_SIZE }).load(features);
  };
  return {
    /**
     * Indexes these points, and keeps the array: later moves change it in place, so the caller gives
     * one of its own (the worker the copy postMessage made; the page's index its own copy).
     */
    load(coords: Float64Array): void {
      held = coords;
      const n = coords.length / 2;
      if (features.length !== n)
        features = Array.from({ length: n }, (_, i) => ({
          type: 'Feature' as const,
          properties: { i },
          geometry: { type: 'Point' as const, coordinates: [0, 0] },
        }));
      for (let i = 0; i < n; i++) place(i);
      build();
    },
    /**
     * Some of the points moved (a refresh): `places` are their places in the list, `moved` their new
     * lon, lat, lon, lat, …. The index is built again (supercluster has no update); what crosses the
     * thread is the moved points, not all of them.
     */
    move(places: Uint32Array, moved: Float64Array): void {
      applyMoves(held, places, moved);
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
        };
        const [lon, lat] = f.geometry.coordinates as [number, number];
        if (props.cluster && props.cluster_id !== undefined)
          clusters.push(lon, lat, props.point_count ?? 0, props.cluster_id);
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
