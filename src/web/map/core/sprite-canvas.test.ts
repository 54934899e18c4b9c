import L from 'leaflet';
import { describe, expect, it } from 'vitest';
import { ClusterBadge } from './cluster-badge';
import { spriteCanvas } from './sprite-canvas';

interface Order {
  layer: L.Layer;
  next: Order | null;
}
type Internals = L.Canvas & {
  _drawFirst: Order | null;
  _initPath(layer: L.Layer): void;
  _removePath(layer: L.Layer): void;
};

/** The layers in the order the canvas draws them (jsdom has no canvas to draw on: the list is read). */
function drawOrder(renderer: Internals, names: Map<L.Layer, string>): string[] {
  const out: string[] = [];
  for (let o = renderer._drawFirst; o; o = o.next) out.push(names.get(o.layer) ?? '?');
  return out;
}

describe('the sprite canvas', () => {
  it('draws the cluster badges over every marker, whenever each was added', () => {
    const renderer = spriteCanvas() as Internals;
    const names = new Map<L.Layer, string>();
    const add = (name: string, layer: L.Layer) => {
      names.set(layer, name);
      renderer._initPath(layer);
      return layer;
    };
    const marker = (name: string) => add(name, L.circleMarker([40, -96]));
    const badge = (name: string, count: number) => add(name, new ClusterBadge([40, -96], count, count));

    marker('a');
    const b1 = badge('badge 5', 5);
    marker('b');
    badge('badge 7', 7);
    marker('c');
    expect(drawOrder(renderer, names)).toEqual(['a', 'b', 'c', 'badge 5', 'badge 7']);

    // The first badge gone, the next one takes its part.
    renderer._removePath(b1);
    marker('d');
    expect(drawOrder(renderer, names)).toEqual(['a', 'b', 'c', 'd', 'badge 7']);
  });
});
