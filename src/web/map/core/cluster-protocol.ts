import type { ClusterAnswer, ClusterOptions } from './cluster-engine';

/** What the page asks the cluster worker; every message is answered in the order it was sent. */
export type ClusterRequest =
  | { kind: 'options'; options: ClusterOptions }
  | { kind: 'load'; coords: Float64Array }
  /** Some points of the last list moved: their places in it, and their new lon, lat, lon, lat, … */
  | { kind: 'move'; places: Uint32Array; coords: Float64Array }
  | { kind: 'query'; id: number; bbox: [number, number, number, number]; zoom: number }
  | { kind: 'expansion'; id: number; cluster: number };

/** What the worker answers. */
export type ClusterReply =
  ({ kind: 'query'; id: number } & ClusterAnswer) | { kind: 'expansion'; id: number; zoom: number };
