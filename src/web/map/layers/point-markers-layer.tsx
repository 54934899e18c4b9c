import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { replacedPlaces } from '../../lib/replaced-places';
import { MARKER_RADIUS_PX, showsCircle } from '../core/accuracy-circle';
import { FrameSlices } from '../core/frame-slices';
import { deferRedraws } from '../core/sprite-canvas';
import type { MarkerEngine, MarkerView } from '../core/marker-engine';
import type { MarkerPoint } from '../core/marker-point';
import {
  type Change,
  type Drawn,
  followCircle,
  followMarker,
  keyOf,
  makeCircle,
  makeMarker,
  noteOnMap,
  PLAIN_RING,
  setShown,
} from './drawn-point';
import { SELECTED, SELECTED_RADIUS } from './selected-marker-layer';

export interface PointMarkersLayerProps {
  engine: MarkerEngine;
  points: readonly MarkerPoint[];
  selectedKey: string | null;
  onSelect?: ((key: string) => void) | undefined;
}

/**
 * A marker per point on the map's shared canvas renderer (no DOM element per point) and its accuracy
 * circle at true scale where it reaches past the marker (`showsCircle`); only what is in view (with a margin), or the lone points between clusters,
 * is on the map, and the selected point always is, ringed. Updated imperatively by key and by value,
 * outside React's render, so a refresh that moves one load redraws one marker.
 */
export function PointMarkersLayer({ engine, points, selectedKey, onSelect }: PointMarkersLayerProps) {
  const { map } = engine;
  const drawn = useRef(new Map<string, Drawn>());
  /** The keys of the points whose marker or circle is on the map. */
  const onMap = useRef(new Set<string>());
  /** Whether every point has its marker, and its circle if it has an accuracy (see the idle work). */
  const allMade = useRef(false);
  /** The points `drawn` holds, as the last list had them. */
  const shownPoints = useRef<readonly MarkerPoint[]>([]);
  const groups = useRef<{ markers: L.FeatureGroup; circles: L.LayerGroup } | null>(null);
  const select = useRef(onSelect);
  const selectedNow = useRef(selectedKey);
  useEffect(() => {
    select.current = onSelect;
  }, [onSelect]);
  useEffect(() => {
    selectedNow.current = selectedKey;
    engine.changed();
  }, [engine, selectedKey]);

  useEffect(() => {
    const g = { markers: L.featureGroup().addTo(map), circles: L.layerGroup().addTo(map) };
    groups.current = g;
    const { tooltip } = engine;
    // One click handler for every marker; the tooltip's label is the point's now.
    g.markers.on('click', (e) => {
      const key = keyOf(e.propagatedFrom);
      if (key) select.current?.(key);
    });
    g.markers.on('mouseover', (e) => {
      const d = drawn.current.get(keyOf(e.propagatedFrom) ?? '');
      if (!d) return;
      map.openTooltip(tooltip.setLatLng([d.point.lat, d.point.lon]).setContent(d.point.label));
    });
    g.markers.on('mouseout', () => engine.closeTooltip());
    // Markers added over several frames are drawn once, after the last slice.
    const slices = new FrameSlices((on) => deferRedraws(map.options.renderer, on));
    const current = drawn.current;
    const on = onMap.current;
    const unplug = engine.plug('points', {
      size: () => current.size,
      selected: () => (selectedNow.current === null ? undefined : current.get(selectedNow.current)?.point),
      plan,
    });
    return () => {
      slices.cancel();
      unplug();
      g.markers.remove();
      g.circles.remove();
      current.clear();
      on.clear();
      shownPoints.current = [];
      groups.current = null;
    };

    /** Which markers and circles show in this view; the selected one's at once, the rest sliced. */
    function plan({ zoom, south, west, north, east }: MarkerView, visible: ReadonlySet<string> | null) {
      const selectedKey = selectedNow.current;
      const inView = (p: MarkerPoint) => p.lat >= south && p.lat <= north && p.lon >= west && p.lon <= east;
      let markers = 0;
      let circles = 0;
      // Removals first, then additions.
      const removals: Change[] = [];
      const additions: Change[] = [];
      const want = (d: Drawn, part: Change['part'], on: boolean) => {
        if (on !== (part === 'marker' ? d.markerOn : d.circleOn))
          (on ? additions : removals).push({ d, part, on });
      };
      const decide = (d: Drawn, key: string) => {
        const selected = key === selectedKey;
        const show = selected || (visible === null ? inView(d.point) : visible.has(key));
        // Where it reaches past the marker (a lone load between clusters too), and always when selected.
        const showCircle = (selected || show) && showsCircle(d.point.accuracy, d.point.lat, zoom, selected);
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
        const ring = selected ? SELECTED : (d.point.ring ?? PLAIN_RING);
        if (d.marker && d.marker.options.color !== ring) {
          d.marker.setStyle(selected ? { color: ring, weight: 4 } : { color: ring, weight: 2 });
          d.marker.setRadius(selected ? SELECTED_RADIUS : MARKER_RADIUS_PX);
        }
      };
      if (visible === null) {
        // forEach, not for…of over entries: no entry array for each of the points at every redraw.
        drawn.current.forEach(decide);
      } else {
        // Clustered, what shows is the lone points and the selection: only those and the points on
        // the map now (to take them off) are looked at, not the many in the clusters.
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
      const changes = removals.concat(additions);
      const applyOne = (change: Change) => {
        // A point replaced or gone since (a refresh): the redraw that followed it decides.
        if (drawn.current.get(change.d.point.key) === change.d) setShown(change, g, onMap.current);
      };
      return { markers, circles, apply: (done: () => void) => slices.run(changes, applyOne, done) };
    }
  }, [map, engine]);

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
      // zoomed in or selected) or when the browser is idle, not up front. Those on the map follow
      // their point now; the others as they are put on it (setShown): a refresh moves many loads
      // in clusters or out of view, and moving their markers would be work for nothing seen.
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
    engine.changed();
  }, [engine, points]);

  // The markers and circles not shown yet are made while the browser is idle, a slice at a time, so
  // that zooming in later finds them made.
  useEffect(() => {
    // Once all are made, a refresh that made no point without them does not look at them all again.
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

  return null;
}
