import {
  clusterEngine,
  applyLate,
  applyMoves,
  type ClusterAnswer,
  type ClusterOptions,
} from './cluster-engine';
import type { ClusterReply, ClusterRequest } from './cluster-protocol';
import { startWorker, stopWorker, type WorkerLike } from '../../lib/worker-like';

/** The cluster worker, or a stand-in for it. */
export type ClusterWorkerLike = WorkerLike<ClusterRequest, ClusterReply>;

/**
 * The map's cluster index. In a worker where the browser has them: rebuilding it for 10,000 points
 * at every refresh is work for the page's main thread, and garbage that lives until the next
 * refresh (and the major collections that follow). Without a worker (jsdom), or once it failed, the
 * index is built on the page's thread and answers at once; the answers are alike either way.
 */
export interface ClusterIndex {
  /**
   * Indexes these points (lon, lat, lon, lat, …), `late` saying which are late (1) or not (0; none
   * unless told); queries after it are answered from them.
   */
  load(coords: Float64Array, late?: Uint8Array): void;
  /**
   * Some of the points loaded last changed: their places in the list, their lon, lat, lon, lat, …
   * and late flags (unchanged unless told). A refresh moves a tenth of 10,000 loads: only those cross
   * to the worker, not all of them.
   */
  move(places: Uint32Array, coords: Float64Array, late?: Uint8Array): void;
  /**
   * The clusters and lone points of a view (west, south, east, north) at a zoom; `exclude`, a point's
   * place in the list (the selected load), is left out of the clusters and shown alone (see
   * `clusterEngine`), without building the index again.
   */
  query(
    bbox: [number, number, number, number],
    zoom: number,
    exclude?: number,
  ): ClusterAnswer | Promise<ClusterAnswer>;
  /** The zoom at which a cluster of the last answers falls apart (NaN if unknown). */
  expansionZoom(cluster: number): number | Promise<number>;
  /** The places in the list of the points a cluster of the last answers holds (none if unknown). */
  leaves(cluster: number): Uint32Array | Promise<Uint32Array>;
  /** Where the index is built and asked: in the worker, or on the page's thread. */
  where(): 'worker' | 'page';
  dispose(): void;
}

const startClusterWorker = () =>
  startWorker<ClusterRequest, ClusterReply>(
    () => new Worker(new URL('./cluster-worker.ts', import.meta.url), { type: 'module', name: 'clusters' }),
  );

type Asked = Extract<ClusterRequest, { kind: 'query' | 'expansion' | 'leaves' }>;

export function clusterIndex(
  options: ClusterOptions,
  makeWorker: () => ClusterWorkerLike | null = startClusterWorker,
): ClusterIndex {
  const local = clusterEngine(options);
  let worker = makeWorker();
  /** The points last loaded and their late flags, kept to build the index here if the worker fails. */
  let coords: Float64Array = new Float64Array(0);
  let late: Uint8Array = new Uint8Array(0);
  const waiting = new Map<number, { asked: Asked; done: (reply: ClusterReply) => void }>();
  let nextId = 0;

  const answerHere = (asked: Asked): ClusterReply =>
    asked.kind === 'query'
      ? { kind: 'query', id: asked.id, ...local.query(asked.bbox, asked.zoom, asked.exclude) }
      : asked.kind === 'leaves'
        ? { kind: 'leaves', id: asked.id, places: local.leaves(asked.cluster) }
        : { kind: 'expansion', id: asked.id, zoom: local.expansionZoom(asked.cluster) };

  // The worker broke: the index is built here from the last points, and what it held is answered here.
  const fallBack = () => {
    if (!worker) return;
    stopWorker(worker);
    worker = null;
    local.load(coords, late);
    for (const { asked, done } of waiting.values()) done(answerHere(asked));
    waiting.clear();
  };

  if (worker) {
    worker.onmessage = (event) => {
      const reply = event.data;
      const entry = waiting.get(reply.id);
      waiting.delete(reply.id);
      entry?.done(reply);
    };
    worker.onerror = fallBack;
    worker.onmessageerror = fallBack;
    worker.postMessage({ kind: 'options', options });
  }

  const ask = (asked: Asked): ClusterReply | Promise<ClusterReply> => {
    const w = worker;
    if (!w) return answerHere(asked);
    return new Promise((resolve) => {
      waiting.set(asked.id, { asked, done: resolve });
      w.postMessage(asked);
    });
  };

  return {
    load(points, lateFlags = new Uint8Array(points.length / 2)) {
      // Copies of its own, which later moves change in place (the page's index holds the very same).
      coords = points.slice();
      late = lateFlags.slice();
      if (worker) worker.postMessage({ kind: 'load', coords: points, late: lateFlags });
      else local.load(coords, late);
    },
    move(places, moved, lateFlags) {
      if (!worker) return local.move(places, moved, lateFlags);
      applyMoves(coords, places, moved);
      // Unchanged unless told: the flags the index holds for these places.
      const flags = lateFlags ?? Uint8Array.from(places, (p) => late[p] ?? 0);
      applyLate(late, places, flags);
      worker.postMessage({ kind: 'move', places, coords: moved, late: flags });
    },
    query(bbox, zoom, exclude = -1) {
      const reply = ask({ kind: 'query', id: nextId++, bbox, zoom, exclude });
      const answer = (r: ClusterReply): ClusterAnswer =>
        r.kind === 'query' ? r : { clusters: new Float64Array(0), points: new Uint32Array(0) };
      return reply instanceof Promise ? reply.then(answer) : answer(reply);
    },
    expansionZoom(cluster) {
      const reply = ask({ kind: 'expansion', id: nextId++, cluster });
      const zoom = (r: ClusterReply) => (r.kind === 'expansion' ? r.zoom : Number.NaN);
      return reply instanceof Promise ? reply.then(zoom) : zoom(reply);
    },
    leaves(cluster) {
      const reply = ask({ kind: 'leaves', id: nextId++, cluster });
      const places = (r: ClusterReply) => (r.kind === 'leaves' ? r.places : new Uint32Array(0));
      return reply instanceof Promise ? reply.then(places) : places(reply);
    },
    where: () => (worker ? 'worker' : 'page'),
    dispose() {
      if (worker) {
        stopWorker(worker);
        worker = null;
      }
      waiting.clear();
    },
  };
}
