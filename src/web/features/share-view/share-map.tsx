import { Fragment, useEffect } from 'react';
import { Circle, CircleMarker, Tooltip, useMap } from 'react-leaflet';
import type { SharedLoad } from '@/contract/share-api';
import { MapShell } from '../../map/core/map-shell';

/** Moves the view to the loads and their stops once, when they first come. */
function FitOnce({ points }: { points: [number, number][] }) {
  const map = useMap();
  const key = points.length > 0;
  useEffect(() => {
    if (!key) return;
    if (points.length === 1) map.setView(points[0]!, 9);
    else map.fitBounds(points, { padding: [24, 24], maxZoom: 10 });
    // Only the first answer moves the view: a customer who zoomed keeps their view on each poll.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, map]);
  return null;
}

/** The shared loads' latest positions with their accuracy circles, and their stops. */
export function ShareMap({
  loads,
  tileUrl,
  tileAttribution,
}: {
  loads: SharedLoad[];
  tileUrl: string | null;
  tileAttribution: string;
}) {
  const points: [number, number][] = [];
  for (const load of loads) {
    if (load.position) points.push([load.position.lat, load.position.lon]);
    for (const stop of load.stops ?? [])
      if (stop.lat !== undefined && stop.lon !== undefined) points.push([stop.lat, stop.lon]);
  }
  return (
    <MapShell tileUrl={tileUrl} tileAttribution={tileAttribution}>
      <FitOnce points={points} />
      {loads.map((load) =>
        (load.stops ?? []).map((stop) =>
          stop.lat === undefined || stop.lon === undefined ? null : (
            <CircleMarker
              key={`${load.label}-stop-${stop.order}`}
              center={[stop.lat, stop.lon]}
              radius={6}
              pathOptions={{ color: '#334155', weight: 2, fillColor: '#fff', fillOpacity: 1 }}
            >
              <Tooltip>{stop.type === 'pickup' ? 'Pickup' : 'Delivery'}</Tooltip>
            </CircleMarker>
          ),
        ),
      )}
      {loads.map((load) =>
        load.position ? (
          <Fragment key={load.label}>
            {load.position.accuracy !== null && (
              <Circle
                center={[load.position.lat, load.position.lon]}
                radius={load.position.accuracy}
                pathOptions={{ color: '#2563eb', weight: 1, fillOpacity: 0.12 }}
              />
            )}
            <CircleMarker
              center={[load.position.lat, load.position.lon]}
              radius={8}
              pathOptions={{ color: '#fff', weight: 2, fillColor: '#2563eb', fillOpacity: 1 }}
            >
              <Tooltip permanent direction="top">
                {load.label}
              </Tooltip>
            </CircleMarker>
          </Fragment>
        ) : null,
      )}
    </MapShell>
  );
}
