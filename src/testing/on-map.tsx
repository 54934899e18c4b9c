import { render } from '@testing-library/react';
import type L from 'leaflet';
import type { ReactNode } from 'react';
import { MapContainer, useMap } from 'react-leaflet';

/**
 * Renders map layers on a Leaflet map in jsdom (drawn as SVG: jsdom has no canvas), with Leaflet's
 * map in hand: `rerender` gives the map other layers (or the same with other props).
 */
export function renderOnMap(
  layers: ReactNode,
  { center = [41, -90], zoom = 9 }: { center?: [number, number]; zoom?: number } = {},
) {
  let leaflet: L.Map | undefined;
  function Grab() {
    leaflet = useMap();
    return null;
  }
  const container = document.createElement('div');
  document.body.append(container);
  const view = (children: ReactNode) => (
    <MapContainer center={center} zoom={zoom} preferCanvas={false}>
      <Grab />
      {children}
    </MapContainer>
  );
  const r = render(view(layers), { container });
  const map = (): L.Map => {
    if (!leaflet) throw new Error('the map is not mounted');
    return leaflet;
  };
  return {
    container,
    map,
    /** Every layer on the map, in Leaflet's order. */
    layers: (): L.Layer[] => {
      const all: L.Layer[] = [];
      map().eachLayer((layer) => void all.push(layer));
      return all;
    },
    rerender: (next: ReactNode) => r.rerender(view(next)),
    unmount: r.unmount,
  };
}
