import L from 'leaflet';
import { useEffect } from 'react';
import { useMap } from 'react-leaflet';

export interface FlyTarget {
  lat: number;
  lon: number;
  accuracy: number | null;
}

/** Moves the view to a point (a ping, a comment's place) and shows its accuracy circle there. */
export function FlyTo({ target }: { target: FlyTarget | null }) {
  const map = useMap();
  useEffect(() => {
    if (!target) return;
    const at: L.LatLngTuple = [target.lat, target.lon];
    const marker = L.circleMarker(at, {
      radius: 7,
      color: '#fff',
      weight: 3,
      fillColor: '#b45309',
      fillOpacity: 1,
    }).addTo(map);
    const circle =
      target.accuracy !== null
        ? L.circle(at, {
            radius: target.accuracy,
            color: '#b45309',
            weight: 2,
            fillOpacity: 0.1,
            interactive: false,
          }).addTo(map)
        : undefined;
    // Where the flight ended, for the e2e suite (as the markers layer reports what it drew).
    const container = map.getContainer();
    const arrived = () => (container.dataset.flownTo = `${target.lat},${target.lon}`);
    delete container.dataset.flownTo;
    map.once('moveend', arrived);
    if (circle) map.flyToBounds(circle.getBounds(), { maxZoom: 16, padding: [40, 40] });
    else map.flyTo(at, Math.max(map.getZoom(), 14));
    return () => {
      map.off('moveend', arrived);
      marker.remove();
      circle?.remove();
    };
  }, [map, target]);
  return null;
}
