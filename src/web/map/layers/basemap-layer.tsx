import L from 'leaflet';
import { useEffect } from 'react';
import { useMap } from 'react-leaflet';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/**
 * The panes of the offline basemap, under the tiles (200) so real tiles cover it when they load:
 * land, then state lines above it, so finer land drawn later never hides the lines.
 */
const LAND_PANE = 'haulview-basemap';
const LINE_PANE = 'haulview-basemap-lines';

const LAND = { color: '#b9b4a5', weight: 0.6, fillColor: '#f4f1ea', fillOpacity: 1 };
const STATE_LINES = { color: '#a8a292', weight: 0.7, dashArray: '3 3', fill: false };

/** From this zoom on, coastlines and borders are drawn from the finer 1:50m countries. */
export const FINE_COUNTRIES_ZOOM = 5;

type Countries = Topology<{ countries: GeometryCollection }>;

/**
 * Country shapes (world-atlas) and US state lines (us-atlas), drawn on canvas. The data is loaded
 * lazily, so it is not part of the first screen's JavaScript: the coarse 1:110m countries (38 kB
 * gzipped) first, the 1:50m ones (230 kB) only once someone zooms in far enough to see the difference.
 */
export function BasemapLayer() {
  const map = useMap();
  useEffect(() => {
    for (const [name, z] of [
      [LAND_PANE, '150'],
      [LINE_PANE, '151'],
    ] as const) {
      if (map.getPane(name)) continue;
      const pane = map.createPane(name);
      pane.style.zIndex = z;
      pane.style.pointerEvents = 'none';
    }
    const landRenderer = L.canvas({ pane: LAND_PANE, padding: 0.5 });
    const lineRenderer = L.canvas({ pane: LINE_PANE, padding: 0.5 });
    const group = L.layerGroup().addTo(map);
    // Passed on to each polygon and line the GeoJSON layer makes (not GeoJSON options of its own).
    const onLand = { pane: LAND_PANE, renderer: landRenderer, interactive: false };
    const onLines = { pane: LINE_PANE, renderer: lineRenderer, interactive: false };
    const land = L.layerGroup().addTo(group);
    let cancelled = false;
    // Asked for / on the map: the coarse land stays until the fine land is drawn.
    let fine = false;
    let fineDrawn = false;
    const drawLand = (topo: Countries) => {
      land.clearLayers();
      L.geoJSON(feature(topo, topo.objects.countries), { ...onLand, style: LAND }).addTo(land);
    };
    const loadFine = () => {
      if (fine || map.getZoom() < FINE_COUNTRIES_ZOOM) return;
      fine = true;
      void import('world-atlas/countries-50m.json').then((world) => {
        if (cancelled) return;
        drawLand(world.default as unknown as Countries);
        fineDrawn = true;
        map.getContainer().dataset.basemapDetail = 'fine';
      });
    };
    void Promise.all([import('world-atlas/countries-110m.json'), import('us-atlas/states-10m.json')]).then(
      ([world, us]) => {
        if (cancelled) return;
        if (!fineDrawn) drawLand(world.default as unknown as Countries);
        const usTopo = us.default as unknown as Topology<{ states: GeometryCollection }>;
        L.geoJSON(
          mesh(usTopo, usTopo.objects.states, (a, b) => a !== b),
          { ...onLines, style: STATE_LINES },
        ).addTo(group);
        map.getContainer().dataset.basemap = 'ready';
        loadFine();
      },
    );
    map.on('zoomend', loadFine);
    return () => {
      cancelled = true;
      map.off('zoomend', loadFine);
      group.remove();
    };
  }, [map]);
  return null;
}
