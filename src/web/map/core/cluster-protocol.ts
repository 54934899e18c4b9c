import type { ClusterAnswer, ClusterOptions } from './cluster-engine';

/** What the page asks the cluster worker; every message is answered in the order it was sent. */
export type ClusterRequest =
  | { kind: 'options'; options: ClusterOptions }
  /** The points (lon, lat, lon, lat, …) and which are late (1) or not (0). */
  | { kind: 'load'; coords: Float64Array; late: Uint8Array }
  /** Some points of the last list changed: their places in it, their lon, lat, lon, lat, … and late flags. */
  | { kind: 'move'; places: Uint32Array; coords: Float64Array; late: Uint8Array }
  /** `exclude`: the place of a point left out of the clusters (the selected load), or -1. */
  | { kind: 'query'; id: number; bbox: [number, number, number, number]; zoom: number; exclude: number }
  | { kind: 'expansion'; id: number; cluster: number }
  /** The places of the points a cluster holds. */
  | { kind: 'leaves'; id: number; cluster: number };

/** What the worker answers. */
export type ClusterReply =
  | ({ kind: 'query'; id: number } & ClusterAnswer)
  | { kind: 'expansion'; id: number; zoom: number }
  | { kind: 'leaves'; id: number; places: Uint32Array };
