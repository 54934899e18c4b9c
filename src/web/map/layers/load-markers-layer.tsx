import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useMap } from 'react-leaflet';
import { perfMarkAfterPaint } from '../../lib/perf-marks';
import { replacedPlaces } from '../../lib/replaced-places';
import { useSameList } from '../../lib/same-list';
import type { ClusterAnswer } from '../core/cluster-engine';
import { badgeLabel, badgeText, ClusterBadge } from '../core/cluster-badge';
import { CLUSTER_STRIDE } from '../core/cluster-engine';
import { clusterIndex, type ClusterIndex } from '../core/cluster-index';
import { centreRadius } from '../core/sprite-canvas';

/** One thing to mark on the map: a load's latest position, say. */
export interface MarkerPoint {
  key: string;
  lat: number;
  lon: number;
  /** Meters (68% radius); null = unknown, no circle. */
  accuracy: number | null;
  color: string;
  /** The colour of a dot in the marker's middle (a load's trip phase); null or absent: no dot. */
  centre?: string | null;
  label: string;
  /** It needs attention (a stale or silent load): a cluster's badge says how many of its points are. */
  late?: boolean;
}

export interface LoadMarkersLayerProps {
  points: readonly MarkerPoint[];
  selectedKey: string | null;
  onSelect?: (key: string) => void;
  /** Below this zoom, nearby points are clustered with counts. */
  clusterBelowZoom?: number;
  /** From this zoom on, every point shows its accuracy circle (the selected one always does). */
  circlesFromZoom?: number;
}

interface Drawn {
  point: MarkerPoint;
  marker: L.CircleMarker | undefined;
  circle: L.Circle | undefined;
  /** Whether the marker, the circle, is on the map (asking Leaflet for 10,000 of them showed). */
  markerOn: boolean;
  circleOn: boolean;
}

/** One change a redraw makes: a point's marker or circle put on the map or taken off. */
interface Change {
  d: Drawn;
  part: 'marker' | 'circle';
  on: boolean;
}

/** The view a redraw draws: its zoom, and its bounds with a margin. */
interface View {
  zoom: number;
  south: number;
  west: number;
  north: number;
  east: number;
}

/** Milliseconds of one frame that adding and removing markers may take. */
const SLICE_MS = 6;

const SELECTED = '#1d4ed8';
/** The selected marker's radius (others: 7), and its middle dot's with it. */
const SELECTED_RADIUS = 9;
/** How far the selected marker reaches from its middle: its white halo's outer edge (12 + 1 px). */
const SELECTED_REACH = SELECTED_RADIUS + 4;

/**
 * The pane of the selected load's marker: above the canvas with the markers and the cluster badges
 * (Leaflet's overlay pane, 400) and its marker pane (600), under tooltips (650). On the canvas with
 * the others, it was hidden under the badge of the cluster it belongs to at low zoom, where a
 * dispatcher who picked a row looks for it.
 */
const SELECTION_PANE = 'haulview-selected';

/**
 * The pane of the counts of the badges the selected marker covers, written again above it (and under
 * tooltips): the selected load is out of its cluster (see `ClusterIndex.query`), but its marker can
 * still sit on a neighbouring badge, and drawn over the count it made "93" read "9●".
 */
const BADGE_LABEL_PANE = 'haulview-selected-badges';

const samePlace = (a: MarkerPoint, b: MarkerPoint) =>
  a.key === b.key && a.lat === b.lat && a.lon === b.lon && !a.late === !b.late;

/** The points as the cluster index takes them: lon, lat, lon, lat, …, and their late flags. */
function indexedOf(points: readonly MarkerPoint[]): { coords: Float64Array; late: Uint8Array } {
  const coords = new Float64Array(points.length * 2);
  const late = new Uint8Array(points.length);
  points.forEach((p, i) => {
    coords[2 * i] = p.lon;
    coords[2 * i + 1] = p.lat;
    late[i] = p.late ? 1 : 0;
  });
  return { coords, late };
}

/**
 * The points that moved or turned late (or back) from one list to the next, when every point kept its
 * place (a refresh, a staleness threshold crossed): their places, lon, lat, lon, lat, … and late
 * flags; undefined when the list changed (a load came, went or moved in the list), which the index
 * must load whole.
 */
export function movesOf(
  before: readonly MarkerPoint[],
  after: readonly MarkerPoint[],
): { places: Uint32Array; coords: Float64Array; late: Uint8Array } | undefined {
  const places = replacedPlaces(before, after, (p) => p.key)?.filter((i) => {
    const [p, q] = [after[i] as MarkerPoint, before[i] as MarkerPoint];
    return p.lat !== q.lat || p.lon !== q.lon || !p.late !== !q.late;
  });
  if (!places) return undefined;
  const coords = new Float64Array(places.length * 2);
  const late = new Uint8Array(places.length);
  places.forEach((place, k) => {
    const p = after[place] as MarkerPoint;
    coords[2 * k] = p.lon;
    coords[2 * k + 1] = p.lat;
    late[k] = p.late ? 1 : 0;
  });
  return { places: Uint32Array.from(places), coords, late };
}

/**
 * A marker's options carry its load's key (one handler on the group serves every marker) and the
 * colour of its middle dot, which the sprite canvas draws.
 */
interface MarkerOptions extends L.CircleMarkerOptions {
  loadKey: string;
  centreColor?: string | undefined;
}

function makeMarker(point: MarkerPoint): L.CircleMarker {
  const options: MarkerOptions = {
    radius: 7,
    weight: 2,
    color: '#ffffff',
    fillColor: point.color,
    fillOpacity: 1,
    loadKey: point.key,
    centreColor: point.centre ?? undefined,
  };
  return L.circleMarker([point.lat, point.lon], options);
}

const keyOf = (layer: unknown): string | undefined =>
  layer instanceof L.CircleMarker ? (layer.options as Partial<MarkerOptions>).loadKey : undefined;

function makeCircle(point: MarkerPoint): L.Circle {
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
function followMarker(marker: L.CircleMarker, point: MarkerPoint): void {
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
function followCircle(circle: L.Circle, point: MarkerPoint): void {
  const at = circle.getLatLng();
  if (
    at.lat !== point.lat ||
    at.lng !== point.lon ||
    circle.getRadius() !== point.accuracy ||
    circle.options.color !== point.color
  )
    styleCircle(circle, point);
}

type Groups = { markers: L.LayerGroup; circles: L.LayerGroup };

/**
 * Puts a point's marker or circle on the map, or takes it off; each is made when first shown, and
 * one made earlier follows its point as it is put on (off the map, it was left where it was).
 */
function setShown({ d, part, on }: Change, g: Groups, onMap: Set<string>): void {
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
function noteOnMap(d: Drawn, onMap: Set<string>): void {
  if (d.markerOn || d.circleOn) onMap.add(d.point.key);
  else onMap.delete(d.point.key);
}

/**
 * Markers on the map's shared canvas renderer (no DOM element per point), accuracy circles at true
 * scale, and clusters with counts at low zoom (supercluster, in a worker: `data-clusters-in`; their
 * badges on the canvas too, `ClusterBadge`, each with a red count of its late points). Only what is
 * in view (with a margin) is on the map; the selected load always is. The container's `data-points`,
 * `data-markers`, `data-circles`, `data-clusters`, `data-clustered` (the loads the badges count) and
 * `data-clustered-late` (the late ones among them) say what is held and drawn, and
 * `data-badges` where each badge is (once `data-drawing` is `done`: many markers are added over a
 * few frames). The selected load is out of the clusters, drawn alone above them (`data-clustered`
 * does not count it); `data-badges-relabelled` says how many badges its marker covers, whose counts
 * are written again above it. Updated imperatively by key and by value, outside React's render, so
 * a refresh that moves one load redraws one marker.
 */
export function LoadMarkersLayer({
  points,
  selectedKey,
  onSelect,
  clusterBelowZoom = 6,
  circlesFromZoom = 8,
}: LoadMarkersLayerProps) {
  const map = useMap();
  const drawn = useRef(new Map<string, Drawn>());
  /** The keys of the points whose marker or circle is on the map. */
  const onMap = useRef(new Set<string>());
  /** Whether every point has its marker, and its circle if it has an accuracy (see the idle work). */
  const allMade = useRef(false);
  /** The points `drawn` holds, as the last list had them. */
  const shownPoints = useRef<readonly MarkerPoint[]>([]);
  const groups = useRef<{ markers: L.LayerGroup; circles: L.LayerGroup; clusters: L.FeatureGroup } | null>(
    null,
  );
  const select = useRef(onSelect);
  /** The selected load's marker, drawn again above everything (see SELECTION_PANE). */
  const selection = useRef<L.CircleMarker | null>(null);
  /** The selected marker's middle dot (its load's trip phase), over it in the same pane. */
  const selectionDot = useRef<L.CircleMarker | null>(null);
  /**
   * A white edge around the selected marker's ring, as every marker has one: its blue ring is the
   * badges' blue, and over a badge the marker ran into the disc.
   */
  const selectionHalo = useRef<L.CircleMarker | null>(null);
  /** The counts of the badges under the selected marker, written again above it (see BADGE_LABEL_PANE). */
  const badgeLabels = useRef<L.LayerGroup | null>(null);
  /** Which badges those are (place, count, late count), to leave the labels alone while it holds. */
  const labelledBadges = useRef('');
  /** The selected load's place in the list the cluster index holds (-1: none), found once per list and key. */
  const selectedPlace = useRef<{ list: readonly MarkerPoint[] | null; key: string | null; place: number }>({
    list: null,
    key: null,
    place: -1,
  });
  const redraw = useRef<() => void>(() => {});
  // Set by the effects below, drawn once by the last: a refresh changes the points and the index
  // together, and drew everything twice.
  const dirty = useRef(false);
  // The frame that applies the rest of the last redraw, if it has not finished.
  const pending = useRef(0);
  useEffect(() => {
    select.current = onSelect;
  }, [onSelect]);

  const clusterMarkers = useRef(new Map<string, ClusterBadge>());
  /** Badges made since the layer was (a pan or a refresh reuses the ones it has). */
  const badgesMade = useRef(0);
  const clusterBelowZoomNow = useRef(clusterBelowZoom);
  useEffect(() => {
    clusterBelowZoomNow.current = clusterBelowZoom;
  }, [clusterBelowZoom]);
  // The index reads keys, positions and late flags only: a load whose colour changed without turning
  // late or back (fresh to unknown, stale to silent) keeps it.
  const placed = useSameList(points as MarkerPoint[], samePlace);
  const clusters = useRef<ClusterIndex | null>(null);
  /** The points the index holds: its answers name points by their place in this list. */
  const indexed = useRef<readonly MarkerPoint[] | null>(null);
  /** Redraws asked for: an answer of the cluster index for one that is no longer the last is dropped. */
  const redraws = useRef(0);
  useEffect(() => {
    const index = clusterIndex({ radius: 50, maxZoom: clusterBelowZoom });
    clusters.current = index;
    indexed.current = null;
    return () => {
      index.dispose();
      clusters.current = null;
    };
  }, [clusterBelowZoom]);
  useEffect(() => {
    const index = clusters.current;
    if (!index || indexed.current === placed) return;
    const moved = indexed.current && movesOf(indexed.current, placed);
    if (!moved) {
      const { coords, late } = indexedOf(placed);
      index.load(coords, late);
    } else if (moved.places.length > 0) index.move(moved.places, moved.coords, moved.late);
    indexed.current = placed;
    dirty.current = true;
  }, [placed, clusterBelowZoom]);

  useEffect(() => {
    const g = {
      markers: L.featureGroup().addTo(map),
      circles: L.layerGroup().addTo(map),
      clusters: L.featureGroup().addTo(map),
    };
    groups.current = g;
    const pane = map.getPane(SELECTION_PANE) ?? map.createPane(SELECTION_PANE);
    pane.style.zIndex = '620';
    pane.style.pointerEvents = 'none';
    const labelPane = map.getPane(BADGE_LABEL_PANE) ?? map.createPane(BADGE_LABEL_PANE);
    labelPane.style.zIndex = '630';
    labelPane.style.pointerEvents = 'none';
    badgeLabels.current = L.layerGroup().addTo(map);
    // The selected marker and its dot: an SVG renderer of their own in that pane.
    const renderer = L.svg({ pane: SELECTION_PANE });
    selection.current = L.circleMarker([0, 0], {
      pane: SELECTION_PANE,
      renderer,
      radius: SELECTED_RADIUS,
      weight: 4,
      color: SELECTED,
      fillOpacity: 1,
      interactive: false,
      className: 'haulview-selected-marker',
    });
    selectionHalo.current = L.circleMarker([0, 0], {
      pane: SELECTION_PANE,
      renderer,
      // Just outside the ring (radius 9, 4 px wide: 7 to 11 px), to SELECTED_REACH.
      radius: SELECTED_RADIUS + 3,
      weight: 2,
      color: '#ffffff',
      fill: false,
      interactive: false,
      className: 'haulview-selected-halo',
    });
    selectionDot.current = L.circleMarker([0, 0], {
      pane: SELECTION_PANE,
      renderer,
      // As the sprite canvas draws a marker's dot, at the selected marker's radius.
      radius: centreRadius(SELECTED_RADIUS),
      stroke: false,
      fillOpacity: 1,
      interactive: false,
      className: 'haulview-selected-dot',
    });
    // One tooltip and one click handler for every marker (a tooltip bound to each of 10,000 markers
    // was 10,000 more objects for the browser to keep and collect); the label is the point's now.
    const tooltip = L.tooltip({ direction: 'top', offset: [0, -8] });
    g.markers.on('click', (e) => {
      const key = keyOf(e.propagatedFrom);
      if (key) select.current?.(key);
    });
    g.markers.on('mouseover', (e) => {
      const d = drawn.current.get(keyOf(e.propagatedFrom) ?? '');
      if (!d) return;
      map.openTooltip(tooltip.setLatLng([d.point.lat, d.point.lon]).setContent(d.point.label));
    });
    g.markers.on('mouseout', () => map.closeTooltip(tooltip));
    // A badge says how many loads it counts; a click zooms in to where its cluster falls apart, or
    // one level past the clusters.
    g.clusters.on('mouseover', (e) => {
      const badge = e.propagatedFrom as ClusterBadge;
      map.openTooltip(tooltip.setLatLng(badge.getLatLng()).setContent(badgeText(badge.count, badge.late)));
    });
    g.clusters.on('mouseout', () => map.closeTooltip(tooltip));
    // No "N loads" left behind where the view moved from (the pointer did not move, so no mouseout).
    const closeTooltip = () => map.closeTooltip(tooltip);
    map.on('movestart zoomstart', closeTooltip);
    g.clusters.on('click', (e) => {
      closeTooltip();
      const badge = e.propagatedFrom as ClusterBadge;
      const last = clusterBelowZoomNow.current + 1;
      const fly = (apart: number) =>
        map.flyTo(badge.getLatLng(), Math.min(Number.isFinite(apart) ? apart : last, last));
      const apart = clusters.current?.expansionZoom(badge.options.clusterId) ?? Number.NaN;
      if (typeof apart === 'number') fly(apart);
      else void apart.then(fly);
    });
    const current = drawn.current;
    const badges = clusterMarkers.current;
    // In the next frame: the frame that ends a zoom already has Leaflet's own work (every layer
    // projected and the canvas drawn again), and a zoom ends with both events, one redraw for both.
    let viewFrame = 0;
    const onView = () => {
      map.getContainer().dataset.drawing = 'pending';
      cancelAnimationFrame(viewFrame);
      viewFrame = requestAnimationFrame(() => {
        viewFrame = 0;
        redraw.current();
      });
    };
    map.on('zoomend moveend', onView);
    const frames = pending;
    const shown = shownPoints;
    const on = onMap.current;
    return () => {
      cancelAnimationFrame(viewFrame);
      cancelAnimationFrame(frames.current);
      map.off('zoomend moveend', onView);
      map.off('movestart zoomstart', closeTooltip);
      map.closeTooltip(tooltip);
      g.markers.remove();
      g.circles.remove();
      g.clusters.remove();
      current.clear();
      on.clear();
      shown.current = [];
      badges.clear();
      groups.current = null;
      selection.current?.remove();
      selection.current = null;
      selectionDot.current?.remove();
      selectionDot.current = null;
      selectionHalo.current?.remove();
      selectionHalo.current = null;
      badgeLabels.current?.remove();
      badgeLabels.current = null;
      labelledBadges.current = '';
    };
  }, [map]);

  // Keep one marker (and circle) per point, updated by value.
  useEffect(() => {
    const g = groups.current;
    if (!g) return;
    const before = shownPoints.current;
    shownPoints.current = points;
    const follow = (point: MarkerPoint) => {
      const old = drawn.current.get(point.key);
      if (old && old.point === point) return;
      // Markers and circles are made when first shown (a load in a cluster is not, a circle only
      // zoomed in or selected) or when the browser is idle: made up front for 10,000 loads, they
      // were most of the first draw. Those on the map follow their point now; the others as they
      // are put on it (setShown): a refresh moves a thousand loads, mostly in clusters or out of
      // view, and moving their markers was Leaflet's work and events for nothing seen.
      const marker = old?.marker;
      if (marker && old?.markerOn) followMarker(marker, point);
      let circle = old?.circle;
      let circleOn = old?.circleOn ?? false;
      if (circle && point.accuracy !== null) {
        if (circleOn) followCircle(circle, point);
      } else if (circle) {
        // Out of its group, not only off the map: a group keeps what it was given until then.
        g.circles.removeLayer(circle);
        circle = undefined;
        circleOn = false;
      }
      const d: Drawn = { point, marker, circle, markerOn: old?.markerOn ?? false, circleOn };
      drawn.current.set(point.key, d);
      noteOnMap(d, onMap.current);
      if (!marker || (!circle && point.accuracy !== null)) allMade.current = false;
    };
    // A refresh mostly moves some loads and keeps every key in its place: only the points that are
    // not the very same object are looked at, and nothing can have gone.
    const changed = replacedPlaces(before, points, (p) => p.key);
    if (changed) {
      for (const i of changed) follow(points[i] as MarkerPoint);
    } else {
      const seen = new Set<string>();
      for (const point of points) {
        seen.add(point.key);
        follow(point);
      }
      for (const [key, d] of drawn.current) {
        if (seen.has(key)) continue;
        if (d.marker) g.markers.removeLayer(d.marker);
        if (d.circle) g.circles.removeLayer(d.circle);
        drawn.current.delete(key);
        onMap.current.delete(key);
      }
    }
    dirty.current = true;
  }, [points]);

  // The markers and circles not shown yet are made while the browser is idle, a slice at a time, so
  // that zooming in later finds them made.
  useEffect(() => {
    // Once all are made, a refresh that made no point without them does not look at 10,000 again.
    if (typeof window.requestIdleCallback !== 'function' || allMade.current) return;
    const unmade: Drawn[] = [];
    for (const d of drawn.current.values())
      if (!d.marker || (!d.circle && d.point.accuracy !== null)) unmade.push(d);
    let next = 0;
    let handle = 0;
    const work = (deadline: IdleDeadline) => {
      while (next < unmade.length) {
        if ((next & 15) === 0 && deadline.timeRemaining() <= 1) {
          handle = window.requestIdleCallback(work);
          return;
        }
        const d = unmade[next++] as Drawn;
        d.marker ??= makeMarker(d.point);
        if (!d.circle && d.point.accuracy !== null) d.circle = makeCircle(d.point);
      }
      allMade.current = true;
    };
    if (unmade.length === 0) allMade.current = true;
    else handle = window.requestIdleCallback(work);
    return () => window.cancelIdleCallback(handle);
  }, [points]);

  // What shows at this zoom and place: clusters or markers, circles or not, the selection on top.
  useEffect(() => {
    redraw.current = () => {
      const g = groups.current;
      if (!g) return;
      const zoom = map.getZoom();
      const clustering = zoom < clusterBelowZoom && drawn.current.size > 1;
      // What is drawn is what is in view, and a fifth of it around: Leaflet's canvas projects and
      // redraws every layer it holds at each zoom, so 10,000 markers and circles out of sight made
      // each zoom's last frame long. A pan adds what comes into view at its end.
      const b = map.getBounds().pad(0.2);
      const view: View = {
        zoom,
        south: b.getSouth(),
        west: b.getWest(),
        north: b.getNorth(),
        east: b.getEast(),
      };
      map.getContainer().dataset.drawing = 'pending';
      const turn = ++redraws.current;
      const index = clusters.current;
      const list = indexed.current;
      if (!clustering || !index || !list) {
        show(g, view, null);
        return;
      }
      // The selected load is taken out of the clusters: its badge counts the others, and it is drawn
      // alone. The index finds the cluster that held it; it is not built again.
      const answer = index.query(
        [view.west, view.south, view.east, view.north],
        Math.floor(zoom),
        placeIn(list),
      );
      if (!(answer instanceof Promise)) show(g, view, { answer, list });
      else
        void answer.then((a) => {
          // A later redraw (a pan, a refresh) asked again: its answer decides.
          if (turn === redraws.current && groups.current === g) show(g, view, { answer: a, list });
        });
    };

    /** The selected load's place in the list the index holds, or -1. */
    function placeIn(list: readonly MarkerPoint[]): number {
      const known = selectedPlace.current;
      if (known.list === list && known.key === selectedKey) return known.place;
      const place = selectedKey === null ? -1 : list.findIndex((p) => p.key === selectedKey);
      selectedPlace.current = { list, key: selectedKey, place };
      return place;
    }

    /** The rest of a redraw, with the view's clusters when it clusters. */
    function show(
      g: NonNullable<typeof groups.current>,
      { zoom, south, west, north, east }: View,
      found: { answer: ClusterAnswer; list: readonly MarkerPoint[] } | null,
    ): void {
      const clustering = found !== null;
      let visible: Set<string> | null = null;
      // The badges still there after a pan stay, so a pan does not make them again.
      const badges = clusterMarkers.current;
      const kept = new Set<string>();
      const inView = (p: MarkerPoint) => p.lat >= south && p.lat <= north && p.lon >= west && p.lon <= east;
      if (found) {
        visible = new Set();
        for (const i of found.answer.points) {
          const point = found.list[i];
          if (point) visible.add(point.key);
        }
        const wanted: { key: string; lat: number; lon: number; id: number; count: number; late: number }[] =
          [];
        const c = found.answer.clusters;
        for (let k = 0; k + CLUSTER_STRIDE - 1 < c.length; k += CLUSTER_STRIDE) {
          const lon = c[k] as number;
          const lat = c[k + 1] as number;
          const count = c[k + 2] as number;
          const id = c[k + 3] as number;
          const late = c[k + 4] as number;
          // A cluster's place is the mean of its loads': the same pixel (where Leaflet puts its
          // badge) and count is the same badge, even after a refresh rebuilt the index (which
          // renumbers the clusters) and moved its mean by less than a pixel (a refresh that moves
          // a tenth of the loads moves almost every mean a little): it is left as it is, not
          // moved by a fraction of a pixel and laid out again. The pixel is the world's at this
          // zoom, not the layer's: layer pixels count from the view Leaflet last reset to, and
          // after a jump another cluster of the same size could take the old one's badge where it was.
          const at = map.project([lat, lon], zoom).round();
          const key = `${zoom}:${at.x},${at.y},${count},${late}`;
          const known = badges.get(key);
          if (known) {
            known.options.clusterId = id;
            kept.add(key);
          } else wanted.push({ key, lat, lon, id, count, late });
        }
        // New clusters take over the badges of clusters gone (a refresh moves every cluster's mean a
        // little): moved and relabelled rather than made again.
        const spare = [...badges].filter(([key]) => !kept.has(key));
        for (const w of wanted) {
          const reused = spare.pop();
          let badge: ClusterBadge;
          if (reused) {
            badges.delete(reused[0]);
            badge = reused[1];
            badge.setLatLng([w.lat, w.lon]).setCount(w.count, w.late);
          } else {
            badge = new ClusterBadge([w.lat, w.lon], w.count, w.id, w.late).addTo(g.clusters);
            badgesMade.current++;
          }
          badge.options.clusterId = w.id;
          badges.set(w.key, badge);
          kept.add(w.key);
        }
      }
      for (const [key, badge] of badges) {
        if (kept.has(key)) continue;
        // Out of the group too: taken off the map only, it stayed in the group for good.
        g.clusters.removeLayer(badge);
        badges.delete(key);
      }
      let markers = 0;
      let circles = 0;
      // What changes is listed here and applied by `apply`: removals first, then additions.
      const removals: Change[] = [];
      const additions: Change[] = [];
      const want = (d: Drawn, part: Change['part'], on: boolean) => {
        if (on !== (part === 'marker' ? d.markerOn : d.circleOn))
          (on ? additions : removals).push({ d, part, on });
      };
      const decide = (d: Drawn, key: string) => {
        const selected = key === selectedKey;
        const show = selected || (visible === null ? inView(d.point) : visible.has(key));
        const showCircle =
          d.point.accuracy !== null && (selected || (!clustering && zoom >= circlesFromZoom && show));
        if (show) markers++;
        if (showCircle) circles++;
        if (selected) {
          // The selected load at once, on top, ringed, with its circle.
          setShown({ d, part: 'marker', on: true }, g, onMap.current);
          setShown({ d, part: 'circle', on: showCircle }, g, onMap.current);
          d.marker?.bringToFront();
        } else {
          want(d, 'marker', show);
          want(d, 'circle', showCircle);
        }
        const ring = selected ? SELECTED : '#ffffff';
        if (d.marker && d.marker.options.color !== ring) {
          d.marker.setStyle(selected ? { color: ring, weight: 4 } : { color: ring, weight: 2 });
          d.marker.setRadius(selected ? SELECTED_RADIUS : 7);
        }
      };
      if (visible === null) {
        // forEach, not for…of over entries: an entry array for each of 10,000 points, at every redraw.
        drawn.current.forEach(decide);
      } else {
        // Clustered, what shows is the answer's lone points and the selection: only those and the
        // points on the map now (to take them off) are looked at, not the 10,000 in the clusters.
        const looked = new Set<string>();
        const look = (key: string) => {
          const d = drawn.current.get(key);
          if (!d || looked.has(key)) return;
          looked.add(key);
          decide(d, key);
        };
        // A copy: deciding on the selected load puts it on the map at once.
        [...onMap.current].forEach(look);
        visible.forEach(look);
        if (selectedKey !== null) look(selectedKey);
      }
      const container = map.getContainer();
      container.dataset.points = String(drawn.current.size);
      container.dataset.markers = String(markers);
      container.dataset.circles = String(circles);
      container.dataset.clusters = String(badges.size);
      // The badges are drawn on the canvas: how many loads they count (and how many of those are
      // late), and where each is drawn (container pixels, count, late count), for whoever checks the
      // map without seeing it.
      let clustered = 0;
      let clusteredLate = 0;
      const drawnBadges: string[] = [];
      const chosen = selectedKey === null ? undefined : drawn.current.get(selectedKey);
      const chosenAt = chosen && map.latLngToContainerPoint([chosen.point.lat, chosen.point.lon]);
      // The badges the selected marker (on top, ring included) reaches into: their counts are
      // written again above it.
      const covered: ClusterBadge[] = [];
      for (const badge of badges.values()) {
        clustered += badge.count;
        clusteredLate += badge.late;
        const at = map.latLngToContainerPoint(badge.getLatLng()).round();
        drawnBadges.push(`${at.x},${at.y},${badge.count},${badge.late}`);
        const under =
          chosenAt !== undefined && badge.covers(at.x, at.y, chosenAt.x, chosenAt.y, SELECTED_REACH);
        badge.setLabelAbove(under);
        if (under) covered.push(badge);
      }
      // Made again only when the covered badges changed, not at every redraw of a pan.
      const labels = badgeLabels.current;
      const labelled = covered
        .map((b) => `${b.getLatLng().lat},${b.getLatLng().lng},${b.count},${b.late}`)
        .join(' ');
      if (labels && labelled !== labelledBadges.current) {
        labelledBadges.current = labelled;
        labels.clearLayers();
        for (const badge of covered)
          L.marker(badge.getLatLng(), {
            icon: badgeLabel(badge.count, badge.late),
            pane: BADGE_LABEL_PANE,
            interactive: false,
            keyboard: false,
          }).addTo(labels);
      }
      container.dataset.badgesRelabelled = String(covered.length);
      container.dataset.clustered = String(clustered);
      container.dataset.clusteredLate = String(clusteredLate);
      container.dataset.badges = drawnBadges.join(' ');
      container.dataset.badgesMade = String(badgesMade.current);
      container.dataset.clustersIn = clusters.current?.where() ?? 'page';
      const ring = selection.current;
      const halo = selectionHalo.current;
      if (ring && halo && chosen) {
        ring.setLatLng([chosen.point.lat, chosen.point.lon]).setStyle({ fillColor: chosen.point.color });
        halo.setLatLng([chosen.point.lat, chosen.point.lon]);
        if (!map.hasLayer(ring)) ring.addTo(map);
        if (!map.hasLayer(halo)) halo.addTo(map);
      } else {
        ring?.remove();
        halo?.remove();
      }
      const dot = selectionDot.current;
      if (dot && chosen?.point.centre) {
        dot.setLatLng([chosen.point.lat, chosen.point.lon]).setStyle({ fillColor: chosen.point.centre });
        if (!map.hasLayer(dot)) dot.addTo(map);
      } else dot?.remove();
      const changes = removals.concat(additions);
      let next = 0;
      // Zooming in from the clusters adds thousands of markers, and Leaflet's work per layer made the
      // frame that ends the zoom long: they are added a slice per frame instead, each slice in
      // SLICE_MS, so the markers in view appear over a few frames.
      const apply = () => {
        pending.current = 0;
        const until = performance.now() + SLICE_MS;
        for (; next < changes.length; next++) {
          if ((next & 63) === 0 && performance.now() > until) {
            pending.current = requestAnimationFrame(apply);
            return;
          }
          const change = changes[next] as Change;
          // A point replaced or gone since (a refresh): the redraw that followed it decides.
          if (drawn.current.get(change.d.point.key) === change.d) setShown(change, g, onMap.current);
        }
        container.dataset.drawing = 'done';
        perfMarkAfterPaint('markers-drawn', { points: drawn.current.size, markers, circles });
      };
      cancelAnimationFrame(pending.current);
      apply();
    }
    dirty.current = true;
  }, [map, selectedKey, clusterBelowZoom, circlesFromZoom]);

  // Last of the effects of each commit: one redraw for whatever the others changed.
  useEffect(() => {
    if (!dirty.current) return;
    dirty.current = false;
    redraw.current();
  });

  return null;
}
