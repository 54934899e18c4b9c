import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useMap } from 'react-leaflet';
import type { Load } from '@/domain/model';

/** Fits the view to the loads once, when they first arrive; after that the dispatcher steers. */
export function FitToLoads({ loads }: { loads: readonly Load[] }) {
  const map = useMap();
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    const points = loads.flatMap((l) =>
      l.latestLocation ? [L.latLng(l.latestLocation.lat, l.latestLocation.lon)] : [],
    );
    if (points.length === 0) return;
    done.current = true;
    map.fitBounds(L.latLngBounds(points), { padding: [40, 40], maxZoom: 10 });
  }, [loads, map]);
  return null;
}
