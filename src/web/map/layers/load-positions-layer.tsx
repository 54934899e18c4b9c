import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useMap } from 'react-leaflet';
import type { Load } from '@/domain/model';
import { staleness, type Staleness } from '@/domain/staleness';
import { statusColors } from '../../../../tailwind.config';

export interface LoadPositionsLayerProps {
  loads: readonly Load[];
  now: number;
  onSelect?: (load: Load) => void;
}

interface Drawn {
  load: Load;
  level: Staleness;
  marker: L.CircleMarker;
  circle: L.Circle | undefined;
}

const label = (load: Load) => load.loadNumber ?? load.externalId ?? load.id;

/**
 * Each load's latest location as a marker coloured by staleness, and its accuracy circle (68%
 * likelihood radius, true scale). Drawn on the map's shared canvas renderer; updated by diffing on
 * load identity, so a refresh that changes one load touches one marker.
 */
export function LoadPositionsLayer({ loads, now, onSelect }: LoadPositionsLayerProps) {
  const map = useMap();
  const drawn = useRef(new Map<string, Drawn>());
  const group = useRef<L.LayerGroup | null>(null);
  const select = useRef(onSelect);
  useEffect(() => {
    select.current = onSelect;
  }, [onSelect]);

  useEffect(() => {
    const g = L.layerGroup().addTo(map);
    group.current = g;
    const current = drawn.current;
    return () => {
      g.remove();
      current.clear();
      group.current = null;
    };
  }, [map]);

  useEffect(() => {
    const g = group.current;
    if (!g) return;
    const seen = new Set<string>();
    for (const load of loads) {
      const at = load.latestLocation;
      if (!at) continue;
      seen.add(load.id);
      const level = staleness(at.instant, now);
      const old = drawn.current.get(load.id);
      if (old && old.load === load && old.level === level) continue;
      const color = statusColors[level];
      const latLng: L.LatLngExpression = [at.lat, at.lon];
      const marker =
        old?.marker ?? L.circleMarker(latLng, { radius: 7, weight: 2, color: '#ffffff', fillOpacity: 1 });
      marker.setLatLng(latLng).setStyle({ fillColor: color });
      marker
        .unbindTooltip()
        .bindTooltip(`${label(load)} · ${load.latestStatus?.name ?? 'no status'} · ${level}`);
      marker.off('click').on('click', () => select.current?.(load));
      if (!old) marker.addTo(g);
      let circle = old?.circle;
      if (at.accuracy !== null) {
        circle ??= L.circle(latLng, { radius: at.accuracy, weight: 1, interactive: false }).addTo(g);
        circle
          .setLatLng(latLng)
          .setRadius(at.accuracy)
          .setStyle({ color, fillColor: color, fillOpacity: 0.12 });
        circle.bringToBack();
      } else if (circle) {
        circle.remove();
        circle = undefined;
      }
      drawn.current.set(load.id, { load, level, marker, circle });
    }
    for (const [id, d] of drawn.current) {
      if (seen.has(id)) continue;
      d.marker.remove();
      d.circle?.remove();
      drawn.current.delete(id);
    }
    // What is on the map, read back from Leaflet, for tests and tooling.
    const container = map.getContainer();
    let markers = 0;
    let circles = 0;
    for (const d of drawn.current.values()) {
      if (map.hasLayer(d.marker)) markers++;
      if (d.circle && map.hasLayer(d.circle)) circles++;
    }
    container.dataset.markers = String(markers);
    container.dataset.circles = String(circles);
  }, [loads, now, map]);

  return null;
}
