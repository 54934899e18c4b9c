import L from 'leaflet';
import { describe, expect, it, vi } from 'vitest';
import { ClusterBadge } from './cluster-badge';
import { deferRedraws, spriteCanvas } from './sprite-canvas';

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

  it('draws the late counts’ pills after every badge’s disc, so a neighbour drawn later never covers one', () => {
    const renderer = spriteCanvas() as Internals & {
      _ctx: unknown;
      _redrawBounds: L.Bounds | null;
      _draw(): void;
    };
    const drawn: string[] = [];
    // What the canvas is asked to draw, in order: each layer's own drawing, and each pill.
    const watch = <T extends L.Layer>(name: string, layer: T, pill = false) => {
      (layer as unknown as { _updatePath(): void })._updatePath = () => drawn.push(name);
      if (pill) (layer as unknown as ClusterBadge).drawLatePill = () => drawn.push(`${name}'s pill`);
      renderer._initPath(layer);
      return layer;
    };
    watch('marker', L.circleMarker([40, -96]));
    watch('badge A', new ClusterBadge([40, -96], 61, 1, 6), true);
    watch('badge B', new ClusterBadge([40.2, -95.8], 65, 2, 11), true);
    renderer._ctx = { save() {}, restore() {}, beginPath() {}, rect() {}, clip() {} };
    renderer._redrawBounds = null;
    renderer._draw();
    expect(drawn).toEqual(['marker', 'badge A', 'badge B', "badge A's pill", "badge B's pill"]);
  });

  it('holds back redraws of changed layers while deferred, draws them once when let go, and never holds back a full redraw', async () => {
    const renderer = spriteCanvas() as Internals & {
      _redrawBounds: L.Bounds | null;
      _redraw(): void;
      _clear(): void;
      _draw(): void;
    };
    const draws: string[] = [];
    renderer._clear = () => {};
    renderer._draw = () => draws.push(renderer._redrawBounds ? 'changed' : 'full');
    // Added to a map: a renderer off the map asks for no frame.
    (renderer as unknown as { _map: unknown })._map = {};
    const changed = () => (renderer._redrawBounds = L.bounds([0, 0], [10, 10]));

    deferRedraws(renderer, true);
    // The frames that follow added markers: nothing drawn.
    changed();
    renderer._redraw();
    changed();
    renderer._redraw();
    expect(draws).toEqual([]);
    // The view moved and the canvas was cleared: drawn whole at once, held back or not.
    renderer._redrawBounds = null;
    renderer._redraw();
    expect(draws).toEqual(['full']);
    // More markers while still deferred: drawn in the frame after it is let go.
    changed();
    renderer._redraw();
    deferRedraws(renderer, false);
    expect(draws).toEqual(['full']);
    await vi.waitFor(() => expect(draws).toEqual(['full', 'changed']));

    // Not deferred, it draws what changed as Leaflet does.
    changed();
    renderer._redraw();
    expect(draws).toEqual(['full', 'changed', 'changed']);
  });

  it('leaves other renderers drawing as they go', () => {
    const svg = L.svg();
    expect(() => deferRedraws(svg, true)).not.toThrow();
    expect((svg as unknown as { _deferred?: boolean })._deferred).toBeUndefined();
    expect(() => deferRedraws(undefined, false)).not.toThrow();
  });

  it('stamps a marker from the sprite of its look now: a colour changed since its last redraw shows', () => {
    // jsdom draws nothing: each sprite is a canvas whose fake context notes the fill it was given.
    const fills = new Map<unknown, string>();
    const context = (canvas: HTMLCanvasElement) =>
      ({
        scale() {},
        beginPath() {},
        arc() {},
        fill() {},
        stroke() {},
        set fillStyle(colour: string) {
          if (!fills.has(canvas)) fills.set(canvas, colour);
        },
      }) as unknown as CanvasRenderingContext2D;
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(function (
      this: HTMLCanvasElement,
    ) {
      return context(this);
    });
    const stamped: string[] = [];
    const renderer = spriteCanvas() as Internals & {
      _ctx: unknown;
      _drawing: boolean;
      _updateCircle(layer: L.Layer): void;
    };
    renderer._ctx = { drawImage: (image: unknown) => stamped.push(fills.get(image) ?? '?') };
    renderer._drawing = true;
    const marker = L.circleMarker([40, -96], { radius: 6, fillColor: '#16a34a', fillOpacity: 1, weight: 2 });
    Object.assign(marker, { _point: L.point(10, 10), _radius: 6, _renderer: renderer, _empty: () => false });
    try {
      renderer._updateCircle(marker);
      renderer._updateCircle(marker);
      // Gone stale: the next redraw stamps it amber.
      marker.options.fillColor = '#d97706';
      renderer._updateCircle(marker);
      marker.options.fillColor = '#16a34a';
      renderer._updateCircle(marker);
      expect(stamped).toEqual(['#16a34a', '#16a34a', '#d97706', '#16a34a']);
    } finally {
      vi.restoreAllMocks();
    }
  });
});
