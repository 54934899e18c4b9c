/**
 * Peer: Leaflet.markercluster, one marker and one accuracy circle per load in one cluster group,
 * configured as its README recommends for many markers (`chunkedLoading`). A moved load's marker and
 * circle are moved with `setLatLng`, which the group follows (its `move` handler re-files the layer).
 */
import L from 'leaflet';
// The plugin's UMD build extends the global `L` that Leaflet's build sets: imported after it.
import 'leaflet.markercluster';
import 'leaflet.markercluster/dist/MarkerCluster.css';
import 'leaflet.markercluster/dist/MarkerCluster.Default.css';
import { markDrawn, runPeer, type PeerLoad } from './peer-page';

L.Icon.Default.imagePath = '/images/';
// No tile layer sets one, and the group needs the map's deepest zoom: a tile layer's usual 19.
const map = L.map('map', { maxZoom: 19 });
const group = L.markerClusterGroup({
  chunkedLoading: true,
  chunkProgress: (processed, total) => {
    if (processed === total) markDrawn(total);
  },
});
const layers = new Map<string, { marker: L.Marker; circle: L.Circle | null }>();

void runPeer({
  draw: (loads) => {
    // As Haulview fits its loads (src/web/map/controls/map-view.tsx).
    map.fitBounds(L.latLngBounds(loads.map((l) => [l.lat, l.lon])), { padding: [40, 40], maxZoom: 14 });
    map.addLayer(group);
    const all: L.Layer[] = [];
    for (const l of loads) {
      const marker = L.marker([l.lat, l.lon]);
      const circle = l.accuracy === null ? null : L.circle([l.lat, l.lon], { radius: l.accuracy });
      layers.set(l.id, { marker, circle });
      all.push(marker);
      if (circle) all.push(circle);
    }
    group.addLayers(all);
  },
  move: (moved: PeerLoad[]) => {
    for (const l of moved) {
      const kept = layers.get(l.id);
      kept?.marker.setLatLng([l.lat, l.lon]);
      kept?.circle?.setLatLng([l.lat, l.lon]);
    }
    markDrawn(moved.length);
  },
});
