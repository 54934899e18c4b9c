import L from 'leaflet';
import { useEffect } from 'react';
import { useMap } from 'react-leaflet';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/** The pane of the offline basemap: under the tiles (200), so real tiles cover it when they load. */
const PANE = 'haulview-basemap';

const LAND = { color: '#b9b4a5', weight: 0.6, fillColor: '#f4f1ea', fillOpacity: 1 };
const STATE_LINES = { color: '#a8a292', weight: 0.7, dashArray: '3 3', fill: false };

/**
 * Country shapes (world-atlas) and US state lines (us-atlas), drawn on canvas. The data is loaded
 * lazily, so it is not part of the first screen's JavaScript.
 */
export function BasemapLayer() {
  const map = useMap();
  useEffect(() => {
    if (!map.getPane(PANE)) {
      const pane = map.createPane(PANE);
      pane.style.zIndex = '150';
      pane.style.pointerEvents = 'none';
    }
    const renderer = L.canvas({ pane: PANE, padding: 0.5 });
    const group = L.layerGroup().addTo(map);
    let cancelled = false;
    void Promise.all([import('world-atlas/countries-50m.json'), import('us-atlas/states-10m.json')]).then(
      ([world, us]) => {
        if (cancelled) return;
        const worldTopo = world.default as unknown as Topology<{ countries: GeometryCollection }>;
        const usTopo = us.default as unknown as Topology<{ states: GeometryCollection }>;
        const common = { pane: PANE, renderer, interactive: false };
        L.geoJSON(feature(worldTopo, worldTopo.objects.countries), { ...common, style: LAND }).addTo(group);
        L.geoJSON(
          mesh(usTopo, usTopo.objects.states, (a, b) => a !== b),
          { ...common, style: STATE_LINES },
        ).addTo(group);
        map.getContainer().dataset.basemap = 'ready';
      },
    );
    return () => {
      cancelled = true;
      group.remove();
    };
  }, [map]);
  return null;
}
