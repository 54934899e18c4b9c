import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useMap } from 'react-leaflet';
import type { TimeSource } from '../../lib/time-store';
import { writeMarkerState } from '../core/map-test-attributes';

/** One load's pings for a replay, oldest first, as parallel arrays (accuracy NaN: unknown). */
export interface ReplayTrail {
  key: string;
  color: string;
  times: ArrayLike<number>;
  lats: ArrayLike<number>;
  lons: ArrayLike<number>;
}

/** Where one load is at the replay's time; absent before its first ping. */
export interface ReplayHead {
  /** Pings at or before the time: the trail's prefix. */
  pings: number;
  lat: number;
  lon: number;
  accuracy: number | null;
}

export interface ReplayTrailsLayerProps {
  trails: readonly ReplayTrail[];
  /** Per trail (same order), where its load is at a time; undefined before its first ping. */
  headsAt: (time: number) => readonly (ReplayHead | undefined)[];
  /** The replay's time: the layer follows it outside React's render. */
  time: TimeSource;
}

/**
 * Pings per finished piece of a trail. Leaflet projects and simplifies a polyline's every point on
 * each change, so a trail of 20,000 pings is cut into pieces made once: per frame only the piece
 * being drawn changes, a few hundred points.
 */
const PIECE = 256;

/** Web Mercator's ground metres per map pixel at a latitude and zoom, for the accuracy circle's radius. */
const metresPerPixel = (lat: number, zoom: number) =>
  (40_075_016.686 * Math.cos((lat * Math.PI) / 180)) / (256 * 2 ** zoom);

/** The pane of the moving parts, above the finished trails. */
const HEADS_PANE = 'haulview-replay-heads';

interface Drawn {
  pieces: L.Polyline[];
  latLngs: L.LatLng[];
  /** Pieces on the map: the first `shown`. */
  shown: number;
  head: L.Polyline;
  marker: L.CircleMarker;
  circle: L.Circle;
  onMap: boolean;
  /**
   * What the head was last drawn with, in the map's whole pixels: at a continent's zoom a head moves
   * a few hundredths of a pixel a frame, and a frame that would draw the same pixels changes no
   * element, so the browser has nothing to lay out, paint or commit.
   */
  last: { full: number; x: number; y: number; zoom: number; radius: number | null } | undefined;
}

interface Renderers {
  /** The finished pieces, in SVG: a piece that comes or goes is one path element added or removed. */
  pieces: L.Renderer;
  /** The drawing pieces, markers and circles: a few SVG elements changed every frame. */
  heads: L.Renderer;
}

function make(trail: ReplayTrail, renderers: Renderers): Drawn {
  const n = trail.times.length;
  const latLngs = new Array<L.LatLng>(n);
  for (let i = 0; i < n; i++) latLngs[i] = L.latLng(trail.lats[i] as number, trail.lons[i] as number);
  const style = { color: trail.color, weight: 3, opacity: 0.85, interactive: false };
  const pieces: L.Polyline[] = [];
  // Piece k holds pings k·PIECE to (k+1)·PIECE, its last one shared with the next piece.
  for (let from = 0; from + 1 < n; from += PIECE)
    pieces.push(
      L.polyline(latLngs.slice(from, Math.min(n, from + PIECE + 1)), {
        ...style,
        renderer: renderers.pieces,
      }),
    );
  const heads = { renderer: renderers.heads, pane: HEADS_PANE };
  return {
    pieces,
    latLngs,
    shown: 0,
    head: L.polyline([], { ...style, ...heads }),
    marker: L.circleMarker([0, 0], {
      ...heads,
      radius: 7,
      color: '#fff',
      weight: 2,
      fillColor: trail.color,
      fillOpacity: 1,
      interactive: false,
    }),
    circle: L.circle([0, 0], {
      ...heads,
      radius: 1,
      color: trail.color,
      weight: 1,
      fillOpacity: 0.12,
      interactive: false,
    }),
    onMap: false,
    last: undefined,
  };
}

/**
 * Each replayed load's trail up to the replay's time, its position between pings and its accuracy
 * circle (68% radius). Layers are made once per trail; each change of the time moves them (setLatLng, setRadius,
 * the drawing piece's setLatLngs) and adds or removes whole pieces as the time passes them.
 */
export function ReplayTrailsLayer({ trails, headsAt, time }: ReplayTrailsLayerProps) {
  const map = useMap();
  const drawn = useRef<Drawn[]>([]);

  useEffect(() => {
    // Renderers of their own: on the map's shared canvas, each frame's moving heads made it redraw
    // every trail and the basemap under the area they span.
    if (!map.getPane(HEADS_PANE)) {
      const pane = map.createPane(HEADS_PANE);
      pane.style.zIndex = '450';
    }
    // Both in SVG: Chromium copies a visible canvas the map's size to the compositor at every commit
    // of the page, drawn on or not; an SVG element is painted again only where it changed.
    const renderers = { pieces: L.svg(), heads: L.svg({ pane: HEADS_PANE, padding: 0 }) };
    const made = trails.map((t) => make(t, renderers));
    drawn.current = made;
    return () => {
      for (const d of made) {
        for (const p of d.pieces) p.remove();
        d.head.remove();
        d.marker.remove();
        d.circle.remove();
      }
      map.removeLayer(renderers.pieces);
      map.removeLayer(renderers.heads);
      drawn.current = [];
    };
  }, [map, trails]);

  useEffect(() => {
    const draw = (time: number) => {
      const heads = headsAt(time);
      const positions: string[] = [];
      drawn.current.forEach((d, i) => {
        const head = heads[i];
        const trail = trails[i] as ReplayTrail;
        if (!head) {
          if (d.onMap) {
            for (let k = 0; k < d.shown; k++) d.pieces[k]?.remove();
            d.shown = 0;
            d.head.remove();
            d.marker.remove();
            d.circle.remove();
            d.onMap = false;
            d.last = undefined;
          }
          return;
        }
        positions.push(
          `${trail.key}:${head.lat.toFixed(5)},${head.lon.toFixed(5)},${head.accuracy === null ? '' : Math.round(head.accuracy)}`,
        );
        const last = d.last;
        // Pieces wholly behind the last ping passed are on the map; the one it is in is the head's.
        const full = Math.min(d.pieces.length, Math.floor((head.pings - 1) / PIECE));
        const zoom = map.getZoom();
        const at = map.latLngToLayerPoint([head.lat, head.lon]);
        // Whole pixels, as Leaflet draws them (its layer points and circle radii are rounded): a
        // frame that would draw the same pixels changes nothing.
        const radius =
          head.accuracy === null ? null : Math.round(head.accuracy / metresPerPixel(head.lat, zoom));
        if (
          last &&
          last.full === full &&
          last.zoom === zoom &&
          last.x === at.x &&
          last.y === at.y &&
          last.radius === radius
        )
          return;
        if (!d.onMap) {
          d.head.addTo(map);
          d.circle.addTo(map);
          d.marker.addTo(map);
          d.onMap = true;
        }
        for (let k = d.shown; k < full; k++) d.pieces[k]?.addTo(map);
        for (let k = full; k < d.shown; k++) d.pieces[k]?.remove();
        d.shown = full;
        const points = d.latLngs.slice(full * PIECE, head.pings);
        points.push(L.latLng(head.lat, head.lon));
        d.head.setLatLngs(points);
        d.marker.setLatLng([head.lat, head.lon]);
        d.circle.setLatLng([head.lat, head.lon]);
        if (head.accuracy === null) d.circle.setStyle({ opacity: 0, fillOpacity: 0 });
        else {
          if (last?.radius === null || last === undefined)
            d.circle.setStyle({ opacity: 1, fillOpacity: 0.12 });
          d.circle.setRadius(head.accuracy);
        }
        d.last = { full, x: at.x, y: at.y, zoom, radius };
      });
      writeMarkerState(map.getContainer(), {
        replayTime: Math.round(time),
        replayPositions: positions.join(' '),
      });
    };
    const now = time.get();
    if (now !== undefined) draw(now);
    return time.subscribe(draw);
  }, [map, trails, headsAt, time]);

  return null;
}
