import L from 'leaflet';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { statusColors } from '../../../../tailwind.config';
import { ClusterBadge } from '../core/cluster-badge';
import { spriteCanvas } from '../core/sprite-canvas';
import { PLACE_SHAPES, PlaceMarker } from './place-marker';

/** A canvas context that writes down what is drawn: jsdom has no canvas. */
function recordingContext() {
  const drawn: string[] = [];
  const ctx = {
    fillStyle: '',
    strokeStyle: '',
    lineWidth: 1,
    save: () => {},
    restore: () => {},
    translate: () => {},
    scale: () => {},
    fill: (p: { d: string }) => drawn.push(`fill ${ctx.fillStyle} ${p.d}`),
    stroke: (p: { d: string }) => drawn.push(`stroke ${ctx.strokeStyle} ${p.d}`),
  };
  return { ctx, drawn };
}

describe('PlaceMarker', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('draws a document as a page and a comment as a speech bubble, white outlined in their colour, not as a disc', () => {
    vi.stubGlobal(
      'Path2D',
      class {
        constructor(readonly d: string) {}
      },
    );
    const drawnAs = (marker: PlaceMarker) => {
      const { ctx, drawn } = recordingContext();
      const internals = marker as unknown as {
        _renderer: { _ctx: unknown; _drawing: boolean };
        _point: L.Point;
        _empty(): boolean;
        _updatePath(): void;
      };
      internals._renderer = { _ctx: ctx, _drawing: true };
      internals._point = L.point(100, 100);
      internals._empty = () => false;
      internals._updatePath();
      return drawn;
    };
    expect(drawnAs(new PlaceMarker([41, -90], 'comment'))).toEqual([
      `fill #ffffff ${PLACE_SHAPES.comment.body}`,
      `stroke ${statusColors.comment} ${PLACE_SHAPES.comment.body}`,
      `stroke ${statusColors.comment} ${PLACE_SHAPES.comment.marks}`,
    ]);
    expect(drawnAs(new PlaceMarker([41, -90], 'document'))).toEqual([
      `fill #ffffff ${PLACE_SHAPES.document.body}`,
      `stroke ${statusColors.document} ${PLACE_SHAPES.document.body}`,
      `stroke ${statusColors.document} ${PLACE_SHAPES.document.marks}`,
    ]);
  });

  it('is drawn over the loads’ markers and under the cluster badges, whenever each was added', () => {
    const renderer = spriteCanvas() as L.Canvas & {
      _drawFirst: { layer: L.Layer; next: unknown } | null;
      _initPath(layer: L.Layer): void;
      _removePath(layer: L.Layer): void;
    };
    const names = new Map<L.Layer, string>();
    const add = (name: string, layer: L.Layer) => {
      names.set(layer, name);
      renderer._initPath(layer);
      return layer;
    };
    const order = () => {
      const out: string[] = [];
      for (let o = renderer._drawFirst; o; o = o.next as typeof o) out.push(names.get(o.layer) ?? '?');
      return out;
    };
    add('load a', L.circleMarker([40, -96]));
    add('badge', new ClusterBadge([40, -96], 5, 1));
    const page = add('page', new PlaceMarker([40, -96], 'document'));
    // The loads' markers of a view come a slice per frame, after the trail was drawn.
    add('load b', L.circleMarker([40, -96]));
    add('bubble', new PlaceMarker([40, -96], 'comment'));
    add('load c', L.circleMarker([40, -96]));
    expect(order()).toEqual(['load a', 'load b', 'load c', 'page', 'bubble', 'badge']);
    // The first place gone, the next one takes its part.
    renderer._removePath(page);
    add('load d', L.circleMarker([40, -96]));
    expect(order()).toEqual(['load a', 'load b', 'load c', 'load d', 'bubble', 'badge']);
  });
});
