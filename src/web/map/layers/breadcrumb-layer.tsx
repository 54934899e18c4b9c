import L from 'leaflet';
import { useEffect } from 'react';
import { useMap } from 'react-leaflet';
import type { Load } from '@/domain/model';
import { statusColors } from '../../../../tailwind.config';
import { PlaceMarker, type PlaceKind } from './place-marker';

export interface CrumbPing {
  key: string;
  lat: number;
  lon: number;
  accuracy: number | null;
  instant: number;
}

export interface CrumbPlace {
  key: string;
  lat: number;
  lon: number;
  kind: PlaceKind;
  label: string;
}

export interface BreadcrumbLayerProps {
  /** Oldest first. */
  pings: readonly CrumbPing[];
  places: readonly CrumbPlace[];
  /** A stretch touching a ping less sure than this (meters, or unknown) is drawn dashed. */
  lowConfidenceMeters: number;
  /** From this zoom on, each ping shows its own accuracy circle. */
  pingCirclesFromZoom?: number;
}

/** Where a load's documents and comments were sent from, for markers on its trail. */
export function placesOf(load: Load | null): CrumbPlace[] {
  if (!load) return [];
  return [
    ...load.documents.flatMap((d) =>
      d.position
        ? [
            {
              key: d.key,
              lat: d.position.lat,
              lon: d.position.lon,
              kind: 'document' as const,
              label: `${d.type ?? 'Document'} uploaded here`,
            },
          ]
        : [],
    ),
    ...load.comments.flatMap((c) =>
      c.position
        ? [
            {
              key: c.key,
              lat: c.position.lat,
              lon: c.position.lon,
              kind: 'comment' as const,
              label: `Comment: ${c.text ?? ''}`,
            },
          ]
        : [],
    ),
  ];
}

const LINE = statusColors.selected;

/** A place this near the last ping (in pixels) is under the load's marker (its reach is 13 px). */
const UNDER_LOAD_PX = 22;
/** Such places are drawn this far above it, this far apart. */
const NUDGE_UP_PX = 26;
const NUDGE_STEP_PX = 20;

const sure = (p: CrumbPing, limit: number) => p.accuracy !== null && p.accuracy <= limit;

/**
 * The selected load's trail: pings in time order as a line, solid where both ends are sure and dashed
 * where either is not (so a dispatcher sees which part to trust), arrowheads for the direction of
 * travel, each ping's own circle when zoomed in, and markers where documents and comments were sent
 * (a page, a speech bubble: `PlaceMarker`; `PlaceSwatch` shows them in a legend).
 */
export function BreadcrumbLayer({
  pings,
  places,
  lowConfidenceMeters,
  pingCirclesFromZoom = 11,
}: BreadcrumbLayerProps) {
  const map = useMap();
  useEffect(() => {
    const group = L.layerGroup().addTo(map);
    const arrows = L.layerGroup().addTo(map);
    const circles = L.layerGroup();
    // Consecutive pings of the same confidence form one polyline: few layers, even for 20,000 pings.
    let run: L.LatLngTuple[] = [];
    let runSure: boolean | null = null;
    const flush = () => {
      if (run.length > 1) {
        L.polyline(run, {
          color: LINE,
          weight: 3,
          opacity: runSure ? 0.85 : 0.6,
          dashArray: runSure ? undefined : '6 6',
          interactive: false,
        }).addTo(group);
      }
    };
    for (let i = 1; i < pings.length; i++) {
      const a = pings[i - 1] as CrumbPing;
      const b = pings[i] as CrumbPing;
      const segmentSure = sure(a, lowConfidenceMeters) && sure(b, lowConfidenceMeters);
      if (segmentSure !== runSure) {
        flush();
        run = [[a.lat, a.lon]];
        runSure = segmentSure;
      }
      run.push([b.lat, b.lon]);
    }
    flush();
    // Made the first time the map is zoomed in far enough: a long track's circles, which nobody sees
    // yet, would weigh on the detail's first draw.
    let circlesMade = false;
    const makeCircles = () => {
      circlesMade = true;
      for (const p of pings) {
        if (p.accuracy !== null) {
          L.circle([p.lat, p.lon], {
            radius: p.accuracy,
            weight: 1,
            color: LINE,
            fillOpacity: 0.05,
            interactive: false,
          }).addTo(circles);
        }
      }
    };
    const first = pings[0];
    if (first) {
      L.circleMarker([first.lat, first.lon], {
        radius: 5,
        color: LINE,
        weight: 2,
        fillColor: '#fff',
        fillOpacity: 1,
      })
        .bindTooltip('First ping')
        .addTo(group);
    }
    // On the canvas with the loads' markers, as a page or a speech bubble (not a disc like a load's).
    const placeMarkers = places.map((place) =>
      new PlaceMarker([place.lat, place.lon], place.kind).bindTooltip(place.label).addTo(group),
    );
    // Places under the load's own marker (drawn above the canvas, where the last ping is: a proof of
    // delivery sent where the load stands now) are drawn above it, side by side, each with a line
    // back to its place; worked out again at each zoom.
    const last = pings[pings.length - 1];
    const nudgePlaces = () => {
      const at = last ? map.latLngToLayerPoint([last.lat, last.lon]) : null;
      const under = placeMarkers.filter(
        (m) => at !== null && map.latLngToLayerPoint(m.getLatLng()).distanceTo(at) < UNDER_LOAD_PX,
      );
      for (const m of placeMarkers) if (!under.includes(m)) m.setNudge(0, 0);
      under.forEach((m, k) => m.setNudge((k - (under.length - 1) / 2) * NUDGE_STEP_PX, -NUDGE_UP_PX));
      map.getContainer().dataset.placesNudged = String(under.length);
    };
    nudgePlaces();

    // Arrowheads every ~120 px along the trail, recomputed when the zoom changes.
    const drawArrows = () => {
      arrows.clearLayers();
      const zoom = map.getZoom();
      if (zoom >= pingCirclesFromZoom) {
        if (!circlesMade) makeCircles();
        circles.addTo(map);
      } else circles.remove();
      let carried = 0;
      for (let i = 1; i < pings.length; i++) {
        const a = map.project([pings[i - 1]!.lat, pings[i - 1]!.lon], zoom);
        const b = map.project([pings[i]!.lat, pings[i]!.lon], zoom);
        const length = a.distanceTo(b);
        carried += length;
        if (carried < 120 || length < 1) continue;
        carried = 0;
        const mid = a.add(b).divideBy(2);
        const dir = b.subtract(a).divideBy(length);
        const back = mid.subtract(dir.multiplyBy(7));
        const side = L.point(-dir.y, dir.x).multiplyBy(5);
        L.polygon(
          [mid.add(dir.multiplyBy(5)), back.add(side), back.subtract(side)].map((p) =>
            map.unproject(p, zoom),
          ),
          { color: LINE, weight: 1, fillColor: LINE, fillOpacity: 1, interactive: false },
        ).addTo(arrows);
      }
      map.getContainer().dataset.breadcrumb = String(pings.length);
      map.getContainer().dataset.pingCircles = String(map.hasLayer(circles) ? circles.getLayers().length : 0);
    };
    drawArrows();
    map.on('zoomend', drawArrows);
    map.on('zoomend', nudgePlaces);
    return () => {
      map.off('zoomend', drawArrows);
      map.off('zoomend', nudgePlaces);
      delete map.getContainer().dataset.placesNudged;
      group.remove();
      arrows.remove();
      circles.remove();
      delete map.getContainer().dataset.breadcrumb;
      delete map.getContainer().dataset.pingCircles;
    };
  }, [map, pings, places, lowConfidenceMeters, pingCirclesFromZoom]);
  return null;
}
