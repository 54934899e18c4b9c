import L from 'leaflet';
import { statusColors } from '../../../../tailwind.config';

/** Where along a trail something was sent from: a document, or a comment. */
export type PlaceKind = 'document' | 'comment';

const PLACE_COLORS = { document: statusColors.document, comment: statusColors.comment } as const;

/** The side of a place's marker, in CSS pixels. */
const PLACE_SIZE = 18;

/**
 * The places' shapes in a 16 × 16 box: a page with a folded corner and lines of text for a document,
 * a speech bubble with three dots for a comment. As discs filled with their colour, a comment's
 * teal read as one more load (the loads' markers are discs filled with the colour of their last
 * ping's age, fresh a green beside that teal).
 */
export const PLACE_SHAPES = {
  document: {
    body: 'M3.5 1.5h6l3.5 3.5v9.5h-9.5z',
    marks: 'M9.5 1.5v3.5h3.5M5.75 8h5M5.75 10.25h5M5.75 12.5h3.25',
  },
  comment: {
    body: 'M3 2h10a2 2 0 0 1 2 2v5.5a2 2 0 0 1-2 2H8.5L5 14.5v-3H3a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2z',
    marks: 'M5 6.75h.01M8 6.75h.01M11 6.75h.01',
  },
} as const;

/** How a place is drawn: its body white with its colour's outline, its marks in its colour. */
export function placeStyle(kind: PlaceKind) {
  const color = PLACE_COLORS[kind];
  return {
    color,
    body: { fill: '#ffffff', stroke: color, strokeWidth: 1.75 },
    marks: { fill: 'none', stroke: color, strokeWidth: kind === 'comment' ? 2.25 : 1.25 },
  };
}

/** The legend's swatch of a kind of place: the very shapes its markers have on the map. */
export function PlaceSwatch({ kind, size = 14 }: { kind: PlaceKind; size?: number }) {
  const { body, marks } = placeStyle(kind);
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 16 16"
      aria-hidden="true"
      className="shrink-0"
      strokeLinecap="round"
      strokeLinejoin="round"
      data-place={kind}
    >
      <path d={PLACE_SHAPES[kind].body} {...body} />
      <path d={PLACE_SHAPES[kind].marks} {...marks} />
    </svg>
  );
}

/** The shapes as canvas paths, made once. */
let paths: Record<PlaceKind, { body: Path2D; marks: Path2D }> | null = null;
const pathsOf = (kind: PlaceKind) =>
  (paths ??= {
    document: {
      body: new Path2D(PLACE_SHAPES.document.body),
      marks: new Path2D(PLACE_SHAPES.document.marks),
    },
    comment: { body: new Path2D(PLACE_SHAPES.comment.body), marks: new Path2D(PLACE_SHAPES.comment.marks) },
  })[kind];

type Internals = L.CircleMarker & {
  _point: L.Point;
  _radius: number;
  _pxBounds: L.Bounds;
  _clickTolerance(): number;
  _renderer: L.Renderer & { _ctx?: CanvasRenderingContext2D; _drawing?: boolean };
  _empty(): boolean;
};

const circleProto = L.CircleMarker.prototype as unknown as {
  _updatePath(this: L.CircleMarker): void;
  _updateBounds(this: L.CircleMarker): void;
};
const circlePath = circleProto._updatePath;

export interface PlaceMarkerOptions extends L.CircleMarkerOptions {
  kind: PlaceKind;
  /** Drawn over the loads' markers (still under the badges): see the sprite canvas's `tierOf`. */
  aboveMarkers: true;
}

/**
 * A document's or a comment's place on the selected load's trail, drawn on the map's canvas as a
 * page or a speech bubble (`PLACE_SHAPES`), over the loads' markers (a load where a document was
 * sent would hide it) and under the cluster badges (see sprite-canvas.ts), so it never hides a
 * badge's count. Pointer and tooltip hit its round outline; on a renderer without a canvas (tests in
 * jsdom) it is drawn as a plain circle in its colours.
 */
export class PlaceMarker extends L.CircleMarker {
  declare options: PlaceMarkerOptions;

  constructor(at: L.LatLngExpression, kind: PlaceKind) {
    const { color } = placeStyle(kind);
    const options: PlaceMarkerOptions = {
      kind,
      aboveMarkers: true,
      radius: PLACE_SIZE / 2,
      weight: 2,
      color,
      fillColor: '#ffffff',
      fillOpacity: 1,
      className: `haulview-place haulview-place-${kind}`,
    };
    super(at, options);
  }

  /** Where it is drawn, in pixels from its place: moved out from under the load's own marker. */
  private nudge = L.point(0, 0);

  get kind(): PlaceKind {
    return this.options.kind;
  }

  /** How far from its place it is drawn, in pixels (see `setNudge`). */
  get offset(): L.Point {
    return this.nudge;
  }

  /**
   * Draws it this many pixels away from its place, with a thin line back to the place (0, 0: on it).
   * A document sent where the load is now (a proof of delivery) would sit under the load's marker,
   * which is drawn above everything on the canvas, and could not be seen or hovered.
   */
  setNudge(dx: number, dy: number): this {
    if (this.nudge.x === dx && this.nudge.y === dy) return this;
    this.nudge = L.point(dx, dy);
    return this.redraw();
  }

  /** Where it is drawn, in the renderer's pixels. */
  private drawnAt(this: PlaceMarker & Internals): L.Point {
    return this._point.add(this.nudge);
  }

  _updateBounds(this: PlaceMarker & Internals): void {
    circleProto._updateBounds.call(this);
    const r = this._radius + this._clickTolerance();
    const at = this.drawnAt();
    this._pxBounds = this._pxBounds.extend(at.subtract([r, r])).extend(at.add([r, r]));
  }

  _containsPoint(this: PlaceMarker & Internals, p: L.Point): boolean {
    return p.distanceTo(this.drawnAt()) <= this._radius + this._clickTolerance();
  }

  _updatePath(this: PlaceMarker & Internals): void {
    const renderer = this._renderer;
    const ctx = renderer._ctx;
    if (!ctx || !renderer._drawing || this._empty() || typeof Path2D === 'undefined') {
      circlePath.call(this);
      return;
    }
    const { body, marks } = placeStyle(this.options.kind);
    const shape = pathsOf(this.options.kind);
    const at = this.drawnAt();
    if (this.nudge.x !== 0 || this.nudge.y !== 0) {
      // A thin line back to where it was sent from.
      ctx.globalAlpha = 1;
      ctx.strokeStyle = body.stroke;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.moveTo(Math.round(this._point.x), Math.round(this._point.y));
      ctx.lineTo(Math.round(at.x), Math.round(at.y));
      ctx.stroke();
    }
    ctx.save();
    ctx.translate(Math.round(at.x) - PLACE_SIZE / 2, Math.round(at.y) - PLACE_SIZE / 2);
    ctx.scale(PLACE_SIZE / 16, PLACE_SIZE / 16);
    ctx.globalAlpha = 1;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.fillStyle = body.fill;
    ctx.fill(shape.body);
    ctx.strokeStyle = body.stroke;
    ctx.lineWidth = body.strokeWidth;
    ctx.stroke(shape.body);
    ctx.strokeStyle = marks.stroke;
    ctx.lineWidth = marks.strokeWidth;
    ctx.stroke(shape.marks);
    ctx.restore();
  }
}
