/**
 * Peer: a plain react-leaflet page, one `<CircleMarker>` and one `<Circle>` per load, as the
 * react-leaflet docs show vector layers; the map on Leaflet's canvas renderer (`preferCanvas`), the
 * faster of its two for thousands of paths. A refresh puts the moved loads into the state, and React
 * and react-leaflet update what changed.
 */
import { Fragment, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Circle, CircleMarker, MapContainer } from 'react-leaflet';
import { markDrawn, runPeer, type PeerLoad } from './peer-page';

function Fleet({ loads }: { loads: PeerLoad[] }) {
  useEffect(() => markDrawn(loads.length), [loads]);
  return loads.map((l) => (
    <Fragment key={l.id}>
      <CircleMarker center={[l.lat, l.lon]} radius={5} />
      {l.accuracy !== null && <Circle center={[l.lat, l.lon]} radius={l.accuracy} />}
    </Fragment>
  ));
}

function App({ first, onMove }: { first: PeerLoad[]; onMove: (take: (moved: PeerLoad[]) => void) => void }) {
  const [loads, setLoads] = useState(first);
  useEffect(
    () =>
      onMove((moved) => {
        const byId = new Map(moved.map((l) => [l.id, l]));
        setLoads((old) => old.map((l) => byId.get(l.id) ?? l));
      }),
    [onMove],
  );
  const lats = first.map((l) => l.lat);
  const lons = first.map((l) => l.lon);
  return (
    <MapContainer
      bounds={[
        [Math.min(...lats), Math.min(...lons)],
        [Math.max(...lats), Math.max(...lons)],
      ]}
      preferCanvas
      maxZoom={19}
      boundsOptions={{ padding: [40, 40], maxZoom: 14 }}
      style={{ height: '100%' }}
    >
      <Fleet loads={loads} />
    </MapContainer>
  );
}

let take: (moved: PeerLoad[]) => void = () => {};
const onMove = (t: (moved: PeerLoad[]) => void) => {
  take = t;
};
void runPeer({
  draw: (loads) =>
    createRoot(document.getElementById('map') as HTMLElement).render(<App first={loads} onMove={onMove} />),
  move: (moved) => take(moved),
});
