import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useMap } from 'react-leaflet';
import type { MarkerPoint } from '../core/marker-point';
import { centreRadius } from '../core/sprite-canvas';

/** The selected marker's ring: the badges' blue. */
export const SELECTED = '#1d4ed8';
/** The selected marker's radius (others: 7), and its middle dot's with it. */
export const SELECTED_RADIUS = 9;
/** How far the selected marker reaches from its middle: its white halo's outer edge (12 + 1 px). */
export const SELECTED_REACH = SELECTED_RADIUS + 4;

/**
 * The pane of the selected load's marker: above the canvas with the markers and the cluster badges
 * (Leaflet's overlay pane, 400) and its marker pane (600), under tooltips (650). On the canvas with
 * the others, it would hide under the badge of the cluster it belongs to at low zoom, where a
 * dispatcher who picked a row looks for it.
 */
const SELECTION_PANE = 'haulview-selected';

interface Parts {
  ring: L.CircleMarker;
  /**
   * A white edge around the ring, as every marker has one: its blue ring is the badges' blue, and
   * over a badge the marker ran into the disc.
   */
  halo: L.CircleMarker;
  /** Its middle dot (its load's trip phase). */
  dot: L.CircleMarker;
}

/**
 * The selected load's marker drawn again above everything, with its own SVG renderer in its own
 * pane: a blue ring, a white halo and the phase dot; nothing while no point is selected.
 */
export function SelectedMarkerLayer({ point }: { point: MarkerPoint | undefined }) {
  const map = useMap();
  const parts = useRef<Parts | null>(null);

  useEffect(() => {
    const pane = map.getPane(SELECTION_PANE) ?? map.createPane(SELECTION_PANE);
    pane.style.zIndex = '620';
    pane.style.pointerEvents = 'none';
    const renderer = L.svg({ pane: SELECTION_PANE });
    const drawn: Parts = {
      ring: L.circleMarker([0, 0], {
        pane: SELECTION_PANE,
        renderer,
        radius: SELECTED_RADIUS,
        weight: 4,
        color: SELECTED,
        fillOpacity: 1,
        interactive: false,
        className: 'haulview-selected-marker',
      }),
      halo: L.circleMarker([0, 0], {
        pane: SELECTION_PANE,
        renderer,
        // Just outside the ring (radius 9, 4 px wide: 7 to 11 px), to SELECTED_REACH.
        radius: SELECTED_RADIUS + 3,
        weight: 2,
        color: '#ffffff',
        fill: false,
        interactive: false,
        className: 'haulview-selected-halo',
      }),
      dot: L.circleMarker([0, 0], {
        pane: SELECTION_PANE,
        renderer,
        // As the sprite canvas draws a marker's dot, at the selected marker's radius.
        radius: centreRadius(SELECTED_RADIUS),
        stroke: false,
        fillOpacity: 1,
        interactive: false,
        className: 'haulview-selected-dot',
      }),
    };
    parts.current = drawn;
    return () => {
      drawn.ring.remove();
      drawn.halo.remove();
      drawn.dot.remove();
      parts.current = null;
    };
  }, [map]);

  useEffect(() => {
    const drawn = parts.current;
    if (!drawn) return;
    const { ring, halo, dot } = drawn;
    if (point) {
      ring.setLatLng([point.lat, point.lon]).setStyle({ fillColor: point.color });
      halo.setLatLng([point.lat, point.lon]);
      if (!map.hasLayer(ring)) ring.addTo(map);
      if (!map.hasLayer(halo)) halo.addTo(map);
    } else {
      ring.remove();
      halo.remove();
    }
    if (point?.centre) {
      dot.setLatLng([point.lat, point.lon]).setStyle({ fillColor: point.centre });
      if (!map.hasLayer(dot)) dot.addTo(map);
    } else dot.remove();
  }, [map, point]);

  return null;
}
