import L from 'leaflet';
import { ClusterBadge } from './cluster-badge';

/** What a solid marker looks like: the same options always make the same sprite. */
interface MarkerLook {
  radius: number;
  fillColor: string;
  color: string;
  weight: number;
  opacity: number;
  /** A dot in the middle (a load's trip phase), or none. */
  centre: string | undefined;
}

/** A marker drawn once, off screen; `size` is its side in CSS pixels, its centre at size / 2. */
interface Sprite {
  image: CanvasImageSource;
  size: number;
}

/**
 * A surface to draw a sprite on, and what the map's canvas stamps from it once drawn: an ImageBitmap
 * where the browser has OffscreenCanvas. Stamped from a canvas, Chromium takes a snapshot of that
 * canvas at every `drawImage`, one per marker in each redraw; a bitmap is a still image.
 */
function spriteSurface(side: number): {
  ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
  image: () => CanvasImageSource;
} {
  if (typeof OffscreenCanvas === 'function') {
    const surface = new OffscreenCanvas(side, side);
    const ctx = surface.getContext('2d');
    if (ctx) return { ctx, image: () => surface.transferToImageBitmap() };
  }
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = side;
  return { ctx: canvas.getContext('2d'), image: () => canvas };
}

/** Side of a marker's sprite in CSS pixels: the circle, half its outline, a pixel for the edge. */
const spriteSize = (look: Pick<MarkerLook, 'radius' | 'weight'>) =>
  2 * (look.radius + Math.ceil(look.weight / 2) + 1);

const sprites = new Map<string, Sprite>();

/** The middle dot's radius: big enough to tell its colour, small enough to leave the ring's. */
export const centreRadius = (radius: number) => Math.max(2, Math.round(radius * 0.45));

function spriteOf(look: MarkerLook, ratio: number): Sprite | null {
  const key = `${look.radius}|${look.fillColor}|${look.color}|${look.weight}|${look.opacity}|${look.centre}|${ratio}`;
  let sprite = sprites.get(key);
  if (!sprite) {
    const size = spriteSize(look);
    const surface = spriteSurface(size * ratio);
    const { ctx } = surface;
    if (!ctx) return null;
    ctx.scale(ratio, ratio);
    ctx.beginPath();
    ctx.arc(size / 2, size / 2, look.radius, 0, Math.PI * 2);
    ctx.fillStyle = look.fillColor;
    ctx.fill();
    if (look.weight > 0) {
      ctx.globalAlpha = look.opacity;
      ctx.lineWidth = look.weight;
      ctx.strokeStyle = look.color;
      ctx.stroke();
    }
    if (look.centre) {
      ctx.globalAlpha = 1;
      ctx.beginPath();
      ctx.arc(size / 2, size / 2, centreRadius(look.radius), 0, Math.PI * 2);
      ctx.fillStyle = look.centre;
      ctx.fill();
    }
    sprites.set(key, (sprite = { image: surface.image(), size }));
  }
  return sprite;
}

type Drawable = L.CircleMarker & {
  _point: L.Point;
  _radius: number;
  _empty(): boolean;
  /** The sprite it was last stamped from, and the look and pixel ratio it was made for. */
  _sprite?: { look: MarkerLook; ratio: number; sprite: Sprite };
};

/** A layer's place in the canvas's drawing order (Leaflet's list, first drawn first). */
interface Order {
  layer: L.Layer;
  prev: Order | null;
  next: Order | null;
}
type CanvasInternals = L.Canvas & {
  _ctx: CanvasRenderingContext2D;
  _drawing: boolean;
  _drawFirst: Order | null;
  _drawLast: Order | null;
  _redrawBounds: L.Bounds | null;
  /**
   * The first layer of each upper tier in the drawing order (see `tierOf`): a layer goes in before
   * the first one of a tier above its own.
   */
  _firstOfTier?: [Order | null, Order | null, Order | null];
  _redrawRequest: number | null;
  /** Redraws of changed layers are held back (`deferRedraws`), and one is owed when let go. */
  _deferred?: boolean;
  _redrawOwed?: boolean;
  _redraw(): void;
  _updateCircle(layer: Drawable): void;
  _initPath(layer: L.Layer & { _order?: Order }): void;
  _removePath(layer: L.Layer & { _order?: Order }): void;
};

const base = L.Canvas.prototype as unknown as CanvasInternals;

/**
 * Which layers a layer is drawn over: the loads' markers, circles and lines (0); the selected load's
 * places, over the markers (1: a load at the pickup hid the page of its bill of lading); the cluster
 * badges over everything (2).
 */
const tierOf = (layer: L.Layer): 0 | 1 | 2 =>
  layer instanceof ClusterBadge
    ? 2
    : (layer as { options?: { aboveMarkers?: boolean } }).options?.aboveMarkers
      ? 1
      : 0;

/**
 * The map's one canvas renderer, with solid circle markers stamped from sprites. Chromium records a
 * canvas's drawing and rasterizes it when the frame is committed: markers traced as arcs cost there
 * several times what the same markers stamped as images do, in every frame that redraws them
 * (software rendering). Accuracy circles, lines and see-through shapes are drawn as Leaflet draws
 * them; clicks and tooltips still hit the markers' own geometry.
 */
const SpriteCanvas = L.Canvas.extend({
  /**
   * Cluster badges are drawn last, over the markers and circles: Leaflet draws layers in the order
   * they were added, and a marker added after a badge (the markers of a view come a slice per frame)
   * would cover its count and take its clicks. A layer goes in at the end of its tier (`tierOf`):
   * before the first layer of any tier above it.
   */
  _initPath(this: CanvasInternals, layer: L.Layer & { _order?: Order }) {
    base._initPath.call(this, layer);
    const order = layer._order as Order;
    const firsts = (this._firstOfTier ??= [null, null, null]);
    const tier = tierOf(layer);
    let before: Order | null = null;
    for (let t = tier + 1; t < firsts.length && !before; t++) before = firsts[t] ?? null;
    if (tier > 0 && !firsts[tier]) firsts[tier] = order;
    if (!before) return;
    // Out of the end of the list (it was just put there)…
    this._drawLast = order.prev;
    if (order.prev) order.prev.next = null;
    // …and in before the first layer of a tier above.
    order.prev = before.prev;
    order.next = before;
    if (before.prev) before.prev.next = order;
    else this._drawFirst = order;
    before.prev = order;
  },

  _removePath(this: CanvasInternals, layer: L.Layer & { _order?: Order }) {
    const firsts = this._firstOfTier;
    const tier = tierOf(layer);
    if (firsts && layer._order && layer._order === firsts[tier]) {
      let next = layer._order.next;
      while (next && tierOf(next.layer) !== tier) next = next.next;
      firsts[tier] = next;
    }
    base._removePath.call(this, layer);
  },

  /**
   * A redraw of the changed layers' bounds waits while redraws are deferred: markers added a slice
   * per frame would have the whole view drawn again (and rasterized at commit) in every one of those
   * frames, where one redraw after the last slice shows the same. A full redraw (the canvas moved and
   * was cleared, at the end of a pan or zoom) is never held back: that would leave the canvas blank.
   */
  _redraw(this: CanvasInternals) {
    if (this._deferred && this._redrawBounds) {
      this._redrawRequest = null;
      this._redrawOwed = true;
      return;
    }
    base._redraw.call(this);
    this._redrawOwed = false;
  },

  /** Badges leave their late counts' pills to this canvas's second pass (see `_draw`). */
  pillsLast: true,

  /**
   * Leaflet's own `_draw` (the layers in their order, within the bounds being redrawn), then a second
   * pass that draws the late counts' pills of the badges it drew: badges crowd at fleet zoom, a pill
   * reaches past its disc's top right, and a neighbour drawn later covered it ("6" of "61" hidden).
   */
  _draw(this: CanvasInternals) {
    const ctx = this._ctx;
    const bounds = this._redrawBounds;
    ctx.save();
    if (bounds?.min) {
      const size = bounds.getSize();
      ctx.beginPath();
      ctx.rect(bounds.min.x, bounds.min.y, size.x, size.y);
      ctx.clip();
    }
    this._drawing = true;
    const pills: ClusterBadge[] = [];
    for (let order = this._drawFirst; order; order = order.next) {
      const layer = order.layer as L.Layer & { _pxBounds?: L.Bounds; _updatePath(): void };
      if (bounds && !layer._pxBounds?.intersects(bounds)) continue;
      layer._updatePath();
      if (layer instanceof ClusterBadge) pills.push(layer);
    }
    for (const badge of pills) badge.drawLatePill();
    this._drawing = false;
    ctx.restore();
  },

  _updateCircle(this: CanvasInternals, layer: Drawable) {
    const o = layer.options;
    const solid =
      !(layer instanceof L.Circle) && o.fill !== false && (o.fillOpacity ?? 0.2) === 1 && o.stroke !== false;
    if (!solid || !this._drawing || layer._empty()) return base._updateCircle.call(this, layer);
    const ratio = L.Browser.retina ? 2 : 1;
    const radius = Math.max(Math.round(layer._radius), 1);
    const fillColor = o.fillColor ?? o.color ?? '#3388ff';
    const color = o.color ?? '#3388ff';
    const weight = o.weight ?? 3;
    const opacity = o.opacity ?? 1;
    const centre = (o as { centreColor?: string }).centreColor;
    // Each marker is stamped at every redraw: its sprite is kept on it, and looked up by its key
    // only when its look changed (a key string per marker per redraw was work and garbage).
    const kept = layer._sprite;
    let sprite =
      kept &&
      kept.ratio === ratio &&
      kept.look.radius === radius &&
      kept.look.fillColor === fillColor &&
      kept.look.color === color &&
      kept.look.weight === weight &&
      kept.look.opacity === opacity &&
      kept.look.centre === centre
        ? kept.sprite
        : null;
    if (!sprite) {
      const look: MarkerLook = { radius, fillColor, color, weight, opacity, centre };
      sprite = spriteOf(look, ratio);
      if (!sprite) return base._updateCircle.call(this, layer);
      layer._sprite = { look, ratio, sprite };
    }
    const half = sprite.size / 2;
    this._ctx.globalAlpha = 1;
    this._ctx.drawImage(
      sprite.image,
      Math.round(layer._point.x) - half,
      Math.round(layer._point.y) - half,
      sprite.size,
      sprite.size,
    );
  },
}) as unknown as new (options?: L.RendererOptions) => L.Canvas;

/**
 * Holds back (true) or lets go (false) the redraws a renderer owes for layers added, removed or
 * restyled; letting go draws what was held back in the next frame. Renderers other than the sprite
 * canvas (jsdom's SVG in tests) draw as they go.
 */
export function deferRedraws(renderer: L.Renderer | undefined, on: boolean): void {
  if (!(renderer instanceof SpriteCanvas)) return;
  const r = renderer as unknown as CanvasInternals;
  r._deferred = on;
  if (!on && r._redrawOwed && r._redrawBounds)
    r._redrawRequest ??= L.Util.requestAnimFrame(r._redraw, r) as number;
}

export function spriteCanvas(options?: L.RendererOptions): L.Canvas {
  return new SpriteCanvas(options);
}
