import L from 'leaflet';
import { MARKER_RADIUS_PX } from '../core/accuracy-circle';
import type { MarkerPoint } from '../core/marker-point';

/** A point the point markers layer holds, with its marker and circle once made. */
export interface Drawn {
  point: MarkerPoint;
  marker: L.CircleMarker | undefined;
  circle: L.Circle | undefined;
  /** Whether the marker, the circle, is on the map (cheaper to keep than to ask Leaflet for each). */
  markerOn: boolean;
  circleOn: boolean;
}

/** One change a redraw makes: a point's marker or circle put on the map or taken off. */
export interface Change {
  d: Drawn;
  part: 'marker' | 'circle';
  on: boolean;
}

export type Groups = { markers: L.LayerGroup; circles: L.LayerGroup };

/**
 * A marker's options carry its load's key (one handler on the group serves every marker) and the
 * colour of its middle dot, which the sprite canvas draws.
 */
interface MarkerOptions extends L.CircleMarkerOptions {
  loadKey: string;
  centreColor?: string | undefined;
}

/** A marker's ring when its load's next stop is neither late nor at risk. */
export const PLAIN_RING = '#ffffff';

export function makeMarker(point: MarkerPoint): L.CircleMarker {
  const options: MarkerOptions = {
    radius: MARKER_RADIUS_PX,
    weight: 2,
    color: point.ring ?? PLAIN_RING,
    fillColor: point.color,
    fillOpacity: 1,
    loadKey: point.key,
    centreColor: point.centre ?? undefined,
  };
  return L.circleMarker([point.lat, point.lon], options);
}

export const keyOf = (layer: unknown): string | undefined =>
  layer instanceof L.CircleMarker ? (layer.options as Partial<MarkerOptions>).loadKey : undefined;

export function makeCircle(point: MarkerPoint): L.Circle {
  const circle = L.circle([point.lat, point.lon], { weight: 1, interactive: false });
  styleCircle(circle, point);
  return circle;
}

function styleCircle(circle: L.Circle, point: MarkerPoint): void {
  circle
    .setLatLng([point.lat, point.lon])
    .setRadius(point.accuracy ?? 0)
    .setStyle({ color: point.color, fillColor: point.color, fillOpacity: 0.1 });
}

/** A marker made earlier takes its point's place and colour. */
export function followMarker(marker: L.CircleMarker, point: MarkerPoint): void {
  const at = marker.getLatLng();
  if (at.lat !== point.lat || at.lng !== point.lon) marker.setLatLng([point.lat, point.lon]);
  const centreColor = point.centre ?? undefined;
  if (
    marker.options.fillColor !== point.color ||
    (marker.options as MarkerOptions).centreColor !== centreColor
  )
    marker.setStyle({ fillColor: point.color, centreColor } as L.PathOptions);
}

/** A circle made earlier takes its point's place, radius and colour. */
export function followCircle(circle: L.Circle, point: MarkerPoint): void {
  const at = circle.getLatLng();
  if (
    at.lat !== point.lat ||
    at.lng !== point.lon ||
    circle.getRadius() !== point.accuracy ||
    circle.options.color !== point.color
  )
    styleCircle(circle, point);
}

/**
 * Puts a point's marker or circle on the map, or takes it off; each is made when first shown, and
 * one made earlier follows its point as it is put on (off the map, it was left where it was).
 */
export function setShown({ d, part, on }: Change, g: Groups, onMap: Set<string>): void {
  if (part === 'marker') {
    if (on && !d.markerOn) {
      if (d.marker) followMarker(d.marker, d.point);
      g.markers.addLayer((d.marker ??= makeMarker(d.point)));
    } else if (!on && d.markerOn && d.marker) g.markers.removeLayer(d.marker);
    d.markerOn = on;
  } else {
    if (on && !d.circleOn) {
      if (d.circle) followCircle(d.circle, d.point);
      g.circles.addLayer((d.circle ??= makeCircle(d.point)));
    } else if (!on && d.circleOn && d.circle) g.circles.removeLayer(d.circle);
    d.circleOn = on;
  }
  noteOnMap(d, onMap);
}

/** Keeps the keys of the points with their marker or circle on the map (a redraw looks at those). */
export function noteOnMap(d: Drawn, onMap: Set<string>): void {
  if (d.markerOn || d.circleOn) onMap.add(d.point.key);
  else onMap.delete(d.point.key);
}
