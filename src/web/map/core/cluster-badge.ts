import L from 'leaflet';
import { formatCount } from '../../lib/format';
import { statusColors } from '../../../../tailwind.config';

/** A badge's side in CSS pixels, by how many loads it counts (its white ring included). */
export const badgeSize = (count: number) => (count < 10 ? 30 : count < 100 ? 36 : count < 1000 ? 42 : 50);

const RING = 3;
/** Room around the ring for its shadow, in CSS pixels. */
const SHADOW = 4;
const FILL = 'rgb(29 78 216 / 0.85)';

/** A badge's disc drawn once, off screen, per size and pixel ratio; `side` in CSS pixels, shadow room included. */
interface Disc {
  image: HTMLCanvasElement;
  side: number;
}

const LABEL_FONT = '600 13px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const LATE_FONT = '700 11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
/** The late count's pill: the silent loads' red, white text. */
const LATE_FILL = statusColors.silent;
const LATE_HEIGHT = 16;
/** The late count's pill sits with its middle this far in from the disc's top right. */
const PILL_INSET = 4;
/** Where the pill's middle is, from the disc's middle, for a disc of this size (y grows down). */
const pillOffset = (size: number): [dx: number, dy: number] => [
  size / 2 - PILL_INSET,
  -(size / 2 - PILL_INSET),
];

/** What a badge's tooltip says: its loads, and how many of them are late. */
export const badgeText = (count: number, late: number) =>
  `${formatCount(count)} loads${late > 0 ? `, ${formatCount(late)} need attention` : ''}`;

/**
 * The discs, one per badge size (four) and pixel ratio: the count is written over the disc on the
 * map's canvas. A sprite per count (its own canvas, shadow blurred, text set) is too slow to make
 * for a first view of many loads, which brings many counts at once, and again at each zoom that
 * brings new counts; writing the counts on the map's canvas is cheap.
 */
const discs = new Map<string, Disc>();

function discOf(size: number, ratio: number): Disc | null {
  const key = `${size}|${ratio}`;
  let disc = discs.get(key);
  if (disc) return disc;
  // Room for the shadow below and around the ring.
  const side = size + 2 * SHADOW;
  const image = document.createElement('canvas');
  image.width = image.height = side * ratio;
  const ctx = image.getContext('2d');
  if (!ctx) return null;
  ctx.scale(ratio, ratio);
  const c = side / 2;
  ctx.beginPath();
  ctx.arc(c, c, size / 2 - RING / 2, 0, Math.PI * 2);
  ctx.shadowColor = 'rgb(0 0 0 / 0.3)';
  ctx.shadowBlur = 3;
  ctx.shadowOffsetY = 1;
  ctx.fillStyle = FILL;
  ctx.fill();
  ctx.shadowColor = 'transparent';
  ctx.lineWidth = RING;
  ctx.strokeStyle = 'rgb(255 255 255 / 0.9)';
  ctx.stroke();
  discs.set(key, (disc = { image, side }));
  return disc;
}

type Internals = L.CircleMarker & {
  _point: L.Point;
  _renderer: L.Renderer & { _ctx?: CanvasRenderingContext2D; _drawing?: boolean };
  _empty(): boolean;
};

export interface ClusterBadgeOptions extends L.CircleMarkerOptions {
  /** How many loads it counts. */
  count: number;
  /** How many of them need attention (silent, excursion, stale: domain/attention.ts). */
  late: number;
  /** The cluster's id in the index that made it (a rebuilt index renumbers). */
  clusterId: number;
  /**
   * Its counts are written elsewhere, above the selected marker that covers the badge (`badgeLabel`):
   * the canvas draws its disc only, so the count is not written twice a pixel apart.
   */
  labelAbove?: boolean;
}

const circlePath = (L.CircleMarker.prototype as unknown as { _updatePath(this: L.CircleMarker): void })
  ._updatePath;

/**
 * A cluster's badge, drawn on the map's canvas with the markers: a blue disc with a white ring and
 * its count. As DOM elements (one per cluster, placed by a transform), each badge would be a paint
 * chunk of its own, which Chromium sorts into layers again in every frame that changes the page's
 * structure (a board row in, a button toggled), and a badge moved or relabelled is such a change
 * itself. Clicks and hovers hit its disc, as a marker's; on a renderer without a canvas (tests in
 * jsdom) it is a plain circle.
 */
export class ClusterBadge extends L.CircleMarker {
  declare options: ClusterBadgeOptions;

  constructor(at: L.LatLngExpression, count: number, clusterId: number, late = 0) {
    const options: ClusterBadgeOptions = {
      radius: badgeSize(count) / 2,
      count,
      late,
      clusterId,
      className: 'haulview-cluster',
      stroke: true,
      weight: RING,
      color: '#ffffff',
      fillColor: FILL,
      fillOpacity: 1,
      bubblingMouseEvents: true,
    };
    super(at, options);
  }

  get count(): number {
    return this.options.count;
  }

  get late(): number {
    return this.options.late;
  }

  /** Counts another number of loads (and of late ones): its size and labels follow. */
  setCount(count: number, late: number): this {
    if (count === this.options.count && late === this.options.late) return this;
    this.options.count = count;
    this.options.late = late;
    // setRadius redraws; a count of the same size redraws itself.
    if (badgeSize(count) / 2 !== this.getRadius()) return this.setRadius(badgeSize(count) / 2);
    return this.redraw();
  }

  /** Its counts are written above the selected marker (true) or on its disc (false). */
  setLabelAbove(above: boolean): this {
    if (Boolean(this.options.labelAbove) === above) return this;
    this.options.labelAbove = above;
    return this.redraw();
  }

  /** Whether a marker `reach` CSS pixels round at (x, y) covers any of its disc or its late count, drawn at (bx, by). */
  covers(bx: number, by: number, x: number, y: number, reach: number): boolean {
    const size = badgeSize(this.options.count);
    if (Math.hypot(x - bx, y - by) < size / 2 + reach) return true;
    return this.pillAt(x - bx, y - by, reach);
  }

  /**
   * Whether a point (dx, dy) from its middle, in CSS pixels, is on its late count's pill (within
   * `reach` of it); never when no load is late or its counts are written above the selected marker.
   */
  onLatePill(dx: number, dy: number, reach = 0): boolean {
    return !this.options.labelAbove && this.pillAt(dx, dy, reach);
  }

  /** Whether (dx, dy) from its middle is within `reach` of where its pill is drawn, wherever its counts are written. */
  private pillAt(dx: number, dy: number, reach: number): boolean {
    if (this.options.late <= 0) return false;
    // The pill, as wide as its digits: about 7 px each at 11 px, 4 px on each side.
    const half = (formatCount(this.options.late).length * 7 + 8) / 2;
    const [px, py] = pillOffset(badgeSize(this.options.count));
    return Math.abs(dx - px) < half + reach && Math.abs(dy - py) < LATE_HEIGHT / 2 + reach;
  }

  /** Clicks and hovers hit the late count's pill too, where it reaches past the disc. */
  _containsPoint(this: ClusterBadge & Internals, p: L.Point): boolean {
    const tolerance = this._clickTolerance();
    if (p.distanceTo(this._point) <= this.getRadius() + tolerance) return true;
    return this.onLatePill(p.x - this._point.x, p.y - this._point.y, tolerance);
  }

  /** A click or hover hits the disc, ring included: the renderer's tolerance only, not half the ring again. */
  _clickTolerance(this: ClusterBadge & Internals): number {
    return (this._renderer.options as { tolerance?: number }).tolerance ?? 0;
  }

  /**
   * Where a redraw clears and draws it: the sprite, its shadow included, not only the disc; and the
   * late count's pill, which reaches past the disc's top right (up to five digits wide).
   */
  _updateBounds(this: ClusterBadge & Internals & { _pxBounds: L.Bounds }): void {
    const r = badgeSize(this.options.count) / 2 + SHADOW + 1;
    const reach = this.options.late > 0 ? r + 24 : r;
    this._pxBounds = L.bounds(this._point.subtract([r, reach]), this._point.add([reach, r]));
  }

  _updatePath(this: ClusterBadge & Internals): void {
    const renderer = this._renderer;
    const ctx = renderer._ctx;
    const size = badgeSize(this.options.count);
    const disc = ctx && renderer._drawing && !this._empty() ? discOf(size, L.Browser.retina ? 2 : 1) : null;
    if (!ctx || !disc) {
      circlePath.call(this);
      return;
    }
    const x = Math.round(this._point.x);
    const y = Math.round(this._point.y);
    const half = disc.side / 2;
    ctx.globalAlpha = 1;
    ctx.drawImage(disc.image, x - half, y - half, disc.side, disc.side);
    if (this.options.labelAbove) return;
    ctx.fillStyle = '#ffffff';
    ctx.font = LABEL_FONT;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    // Written as the tooltip and the board write counts ("7,039"), narrowed to fit inside the ring:
    // five digits at 13 px are wider than the largest disc.
    ctx.fillText(formatCount(this.options.count), x, y + 0.5, size - 2 * RING - 4);
    // The map's sprite canvas draws the pills after every badge (`drawLatePill`), so that a crowding
    // neighbour's disc never covers one; another renderer has it drawn here.
    if (!(renderer as { pillsLast?: boolean }).pillsLast) this.drawLatePill();
  }

  /** The late count's pill at the disc's top right (none when no load is late, or its counts are written above). */
  drawLatePill(): void {
    const self = this as unknown as ClusterBadge & Internals;
    const ctx = self._renderer._ctx;
    if (!ctx || this.options.late <= 0 || this.options.labelAbove || self._empty()) return;
    const size = badgeSize(this.options.count);
    const x = Math.round(self._point.x);
    const y = Math.round(self._point.y);
    const [dx, dy] = pillOffset(size);
    drawLate(ctx, formatCount(this.options.late), x + dx, y + dy);
  }
}

/** The count's halo above the selected marker: the badge's own blue, so it reads as the badge's. */
const HALO = '0 0 2px rgb(29 78 216), 0 0 2px rgb(29 78 216), 0 0 3px rgb(29 78 216), 0 0 4px rgb(30 58 138)';

/**
 * A badge's count (and its late count's pill) as a DOM label, to write above the selected load's
 * marker where that marker covers the badge (see the layer's BADGE_LABEL_PANE): the white count with
 * a halo of the badge's blue, readable over the marker, the marker still seen between its letters.
 * One or two at a time, never one per badge.
 */
export function badgeLabel(count: number, late: number): L.DivIcon {
  const size = badgeSize(count);
  const label = document.createElement('div');
  const text = document.createElement('span');
  Object.assign(text.style, {
    position: 'absolute',
    inset: '0',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    color: '#ffffff',
    font: LABEL_FONT,
    textShadow: HALO,
  });
  text.textContent = formatCount(count);
  label.append(text);
  if (late > 0) {
    // Where the canvas draws it: its middle at the disc's top right, 4 px in.
    const pill = document.createElement('span');
    Object.assign(pill.style, {
      position: 'absolute',
      left: `${size / 2 + pillOffset(size)[0]}px`,
      top: `${size / 2 + pillOffset(size)[1]}px`,
      transform: 'translate(-50%, -50%)',
      boxSizing: 'border-box',
      minWidth: `${LATE_HEIGHT}px`,
      height: `${LATE_HEIGHT}px`,
      padding: '0 4px',
      borderRadius: `${LATE_HEIGHT / 2}px`,
      border: '1.5px solid #ffffff',
      background: LATE_FILL,
      color: '#ffffff',
      font: LATE_FONT,
      lineHeight: `${LATE_HEIGHT - 3}px`,
      textAlign: 'center',
    });
    pill.textContent = formatCount(late);
    label.append(pill);
  }
  return L.divIcon({
    className: 'haulview-cluster-label',
    html: label,
    iconSize: [size, size],
    iconAnchor: [size / 2, size / 2],
  });
}

/**
 * How many of a cluster's loads are late, on a red pill whose middle is at (x, y): the badge's top
 * right. Without it, every badge at fleet zoom is the same blue, and late loads cannot be seen until
 * one zooms in.
 */
function drawLate(ctx: CanvasRenderingContext2D, text: string, x: number, y: number): void {
  ctx.font = LATE_FONT;
  const width = Math.max(LATE_HEIGHT, Math.ceil(ctx.measureText(text).width) + 8);
  const left = Math.round(x - width / 2);
  const top = Math.round(y - LATE_HEIGHT / 2);
  ctx.beginPath();
  ctx.roundRect(left, top, width, LATE_HEIGHT, LATE_HEIGHT / 2);
  ctx.fillStyle = LATE_FILL;
  ctx.fill();
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = '#ffffff';
  ctx.stroke();
  ctx.fillStyle = '#ffffff';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, left + width / 2, top + LATE_HEIGHT / 2 + 0.5);
}
