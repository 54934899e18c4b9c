/// <reference lib="webworker" />
// The map's cluster index, off the page's main thread: a refresh that moves a tenth of 10,000 loads
// rebuilds it (supercluster has no update), work and garbage the page no longer has.
import { clusterEngine } from './cluster-engine';
import type { ClusterReply, ClusterRequest } from './cluster-protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
let engine = clusterEngine({ radius: 50, maxZoom: 6 });

scope.onmessage = (event: MessageEvent<ClusterRequest>) => {
  const m = event.data;
  if (m.kind === 'options') engine = clusterEngine(m.options);
  else if (m.kind === 'load') engine.load(m.coords, m.late);
  else if (m.kind === 'move') engine.move(m.places, m.coords, m.late);
  else if (m.kind === 'query') {
    const answer = engine.query(m.bbox, m.zoom, m.exclude);
    const reply: ClusterReply = { kind: 'query', id: m.id, ...answer };
    scope.postMessage(reply, [answer.clusters.buffer, answer.points.buffer]);
  } else if (m.kind === 'leaves') {
    const places = engine.leaves(m.cluster);
    const reply: ClusterReply = { kind: 'leaves', id: m.id, places };
    scope.postMessage(reply, [places.buffer]);
  } else {
    const reply: ClusterReply = { kind: 'expansion', id: m.id, zoom: engine.expansionZoom(m.cluster) };
    scope.postMessage(reply);
  }
};
