import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useSameList } from '../../lib/same-list';
import { badgeText, ClusterBadge } from '../core/cluster-badge';
import { CLUSTER_STRIDE } from '../core/cluster-engine';
import { clusterIndex, type ClusterIndex } from '../core/cluster-index';
import { drawnBadgeText } from '../core/map-test-attributes';
import type {
  BadgesDrawn,
  ClusterFound,
  ClustersPart,
  MarkerEngine,
  MarkerView,
} from '../core/marker-engine';
import { indexedOf, movesOf, samePlace, type MarkerPoint } from '../core/marker-point';
import { SELECTED_REACH } from './selected-marker-layer';

export interface ClusterBadgesLayerProps {
  engine: MarkerEngine;
  points: readonly MarkerPoint[];
  selectedKey: string | null;
  /** Below this zoom, nearby points are clustered with counts. */
  clusterBelowZoom: number;
  /** A badge's late count was clicked: the keys of the loads it counts. */
  onShowLate?: ((keys: string[]) => void) | undefined;
}

/** The deepest a click on a badge zooms, for loads that share a yard. */
export const CLUSTER_FIT_MAX_ZOOM = 16;
/** Room kept around the loads a click zooms to, in CSS pixels on each side. */
const FIT_PADDING = 40;

/**
 * The zoom that shows a cluster's loads: the deepest at which all of them fit in view with room
 * around them (at that zoom they are more than a cluster apart, so the cluster falls apart), one
 * level in at least, and no deeper than a yard needs.
 */
export function zoomToShow(fitZoom: number, currentZoom: number): number {
  return Math.min(CLUSTER_FIT_MAX_ZOOM, Math.max(fitZoom, currentZoom + 1));
}

/**
 * Clusters with counts at low zoom (supercluster, in a worker where the browser has them), their
 * badges on the map's canvas too (`ClusterBadge`, each with a red count of its late points). The
 * selected point is left out of the clusters: its badge counts the others. A click on a badge zooms
 * to show its loads; a click on its late count also hands the keys of its late loads to
 * `onShowLate` (the page lists them) and zooms to those.
 */
export function ClusterBadgesLayer({
  engine,
  points,
  selectedKey,
  clusterBelowZoom,
  onShowLate,
}: ClusterBadgesLayerProps) {
  const { map } = engine;
  const showLate = useRef(onShowLate);
  useEffect(() => {
    showLate.current = onShowLate;
  }, [onShowLate]);
  const badges = useRef(new Map<string, ClusterBadge>());
  /** Badges made since the layer was (a pan or a refresh reuses the ones it has). */
  const badgesMade = useRef(0);
  const belowZoomNow = useRef(clusterBelowZoom);
  const selectedNow = useRef(selectedKey);
  useEffect(() => {
    belowZoomNow.current = clusterBelowZoom;
    selectedNow.current = selectedKey;
    engine.changed();
  }, [engine, clusterBelowZoom, selectedKey]);
  // The index reads keys, positions and late flags only: a load whose colour changed without turning
  // late or back (fresh to unknown, stale to silent) keeps it.
  const placed = useSameList(points as MarkerPoint[], samePlace);
  const clusters = useRef<ClusterIndex | null>(null);
  /** The points the index holds: its answers name points by their place in this list. */
  const indexed = useRef<readonly MarkerPoint[] | null>(null);
  /** The selected load's place in the list the index holds (-1: none), found once per list and key. */
  const selectedPlace = useRef<{ list: readonly MarkerPoint[] | null; key: string | null; place: number }>({
    list: null,
    key: null,
    place: -1,
  });
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
    engine.changed();
  }, [engine, placed, clusterBelowZoom]);

  useEffect(() => {
    const group = L.featureGroup().addTo(map);
    const { tooltip } = engine;
    group.on('mouseover', (e) => {
      const badge = e.propagatedFrom as ClusterBadge;
      map.openTooltip(tooltip.setLatLng(badge.getLatLng()).setContent(badgeText(badge.count, badge.late)));
    });
    group.on('mouseout', () => engine.closeTooltip());
    group.on('click', (e: L.LeafletMouseEvent) => {
      engine.closeTooltip();
      const badge = e.propagatedFrom as ClusterBadge;
      const index = clusters.current;
      const list = indexed.current;
      if (!index || !list) return;
      const at = map.latLngToContainerPoint(badge.getLatLng());
      const onPill = badge.onLatePill(e.containerPoint.x - at.x, e.containerPoint.y - at.y);
      const selected = selectedNow.current;
      const show = (places: Uint32Array) => {
        // The loads the badge counts: the selected one is drawn alone, out of it.
        let loads = Array.from(places, (p) => list[p]).filter(
          (p): p is MarkerPoint => p !== undefined && p.key !== selected,
        );
        if (onPill) {
          loads = loads.filter((p) => p.late);
          showLate.current?.(loads.map((p) => p.key));
        }
        if (loads.length > 0) {
          const bounds = L.latLngBounds(loads.map((p): L.LatLngTuple => [p.lat, p.lon]));
          const fits = map.getBoundsZoom(bounds, false, L.point(2 * FIT_PADDING, 2 * FIT_PADDING));
          map.flyTo(bounds.getCenter(), zoomToShow(fits, map.getZoom()));
          return;
        }
        // An index built again since the badge was drawn knows it no more: where it falls apart.
        const fly = (apart: number) =>
          map.flyTo(badge.getLatLng(), Number.isFinite(apart) ? apart : map.getZoom() + 1);
        const apart = index.expansionZoom(badge.options.clusterId);
        if (typeof apart === 'number') fly(apart);
        else void apart.then(fly);
      };
      const places = index.leaves(badge.options.clusterId);
      if (places instanceof Promise) void places.then(show);
      else show(places);
    });
    const shown = badges.current;

    /** The selected load's place in the list the index holds, or -1. */
    const placeIn = (list: readonly MarkerPoint[]): number => {
      const known = selectedPlace.current;
      const key = selectedNow.current;
      if (known.list === list && known.key === key) return known.place;
      const place = key === null ? -1 : list.findIndex((p) => p.key === key);
      selectedPlace.current = { list, key, place };
      return place;
    };

    const part: ClustersPart = {
      clustersAt: (zoom) => zoom < belowZoomNow.current,
      query: (view) => {
        const index = clusters.current;
        const list = indexed.current;
        if (!index || !list) return null;
        const bbox: [number, number, number, number] = [view.west, view.south, view.east, view.north];
        return { answer: index.query(bbox, Math.floor(view.zoom), placeIn(list)), list };
      },
      place,
      cover,
      where: () => clusters.current?.where() ?? 'page',
    };
    const unplug = engine.plug('clusters', part);
    return () => {
      unplug();
      group.remove();
      shown.clear();
    };

    /** Shows the found clusters' badges, reusing those it has; returns the keys of the lone points. */
    function place({ zoom }: MarkerView, found: ClusterFound | null): Set<string> | null {
      let visible: Set<string> | null = null;
      // The badges still there after a pan stay, so a pan does not make them again.
      const kept = new Set<string>();
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
          // renumbers the clusters) and moved its mean by less than a pixel: it is left as it is,
          // not moved by a fraction of a pixel and laid out again. The pixel is the world's at this
          // zoom, not the layer's: layer pixels count from the view Leaflet last reset to, and
          // after a jump another cluster of the same size could take the old one's badge where it was.
          const at = map.project([lat, lon], zoom).round();
          const key = `${zoom}:${at.x},${at.y},${count},${late}`;
          const known = shown.get(key);
          if (known) {
            known.options.clusterId = id;
            kept.add(key);
          } else wanted.push({ key, lat, lon, id, count, late });
        }
        // New clusters take over the badges of clusters gone (a refresh moves every cluster's mean a
        // little): moved and relabelled rather than made again.
        const spare = [...shown].filter(([key]) => !kept.has(key));
        for (const w of wanted) {
          const reused = spare.pop();
          let badge: ClusterBadge;
          if (reused) {
            shown.delete(reused[0]);
            badge = reused[1];
            badge.setLatLng([w.lat, w.lon]).setCount(w.count, w.late);
          } else {
            badge = new ClusterBadge([w.lat, w.lon], w.count, w.id, w.late).addTo(group);
            badgesMade.current++;
          }
          badge.options.clusterId = w.id;
          shown.set(w.key, badge);
          kept.add(w.key);
        }
      }
      for (const [key, badge] of shown) {
        if (kept.has(key)) continue;
        // Out of the group too: taken off the map only, it stayed in the group for good.
        group.removeLayer(badge);
        shown.delete(key);
      }
      return visible;
    }

    /**
     * What the badges count (and how many of those are late) and where each is drawn, for whoever
     * checks the map without seeing it; the badges the selected marker (ring included) reaches into
     * have their counts written above it.
     */
    function cover(at: L.Point | undefined): BadgesDrawn {
      let clustered = 0;
      let clusteredLate = 0;
      const places: string[] = [];
      const covered: ClusterBadge[] = [];
      for (const badge of shown.values()) {
        clustered += badge.count;
        clusteredLate += badge.late;
        const drawnAt = map.latLngToContainerPoint(badge.getLatLng()).round();
        places.push(drawnBadgeText(drawnAt.x, drawnAt.y, badge.count, badge.late));
        const under = at !== undefined && badge.covers(drawnAt.x, drawnAt.y, at.x, at.y, SELECTED_REACH);
        badge.setLabelAbove(under);
        if (under) covered.push(badge);
      }
      return {
        shown: shown.size,
        clustered,
        clusteredLate,
        places: places.join(' '),
        made: badgesMade.current,
        covered,
      };
    }
  }, [map, engine]);

  return null;
}
