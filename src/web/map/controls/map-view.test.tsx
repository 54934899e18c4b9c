import { render } from '@testing-library/react';
import type L from 'leaflet';
import { act } from 'react';
import { MapContainer, useMap } from 'react-leaflet';
import { describe, expect, it } from 'vitest';
import { PanToSelection, type LatLon } from './map-view';
import { withMapSize } from '@/testing/map-size';

describe('PanToSelection', () => {
  withMapSize();

  function renderMap(selectedKey: string | null, place: LatLon | null) {
    let leaflet: L.Map | undefined;
    function Grab() {
      leaflet = useMap();
      return null;
    }
    const view = (key: string | null, at: LatLon | null) => (
      <MapContainer center={[41, -90]} zoom={6}>
        <Grab />
        <PanToSelection selectedKey={key} place={at} />
      </MapContainer>
    );
    const r = render(view(selectedKey, place));
    const center = () => leaflet!.getCenter();
    const select = async (key: string | null, at: LatLon | null) => {
      await act(async () => {
        r.rerender(view(key, at));
        // Leaflet's pan is animated: let it end.
        await new Promise((done) => setTimeout(done, 400));
      });
    };
    return { center, zoom: () => leaflet!.getZoom(), select, unmount: r.unmount };
  }

  it('pans to a load picked out of view, keeping the zoom, and not for one in view', async () => {
    const map = renderMap(null, null);
    await map.select('e:1', { lat: 44, lon: -110 });
    expect(map.center().lng).toBeCloseTo(-110, 1);
    expect(map.center().lat).toBeCloseTo(44, 1);
    expect(map.zoom()).toBe(6);
    // Near the middle of the view now: picking it leaves the map where it is.
    await map.select('e:2', { lat: 44.2, lon: -110.3 });
    expect(map.center().lng).toBeCloseTo(-110, 1);
    map.unmount();
  });

  it('keeps the view the page opened with, whatever load the URL selected', async () => {
    const map = renderMap('e:1', { lat: 44, lon: -110 });
    await map.select('e:1', { lat: 44, lon: -110 });
    expect(map.center().lng).toBeCloseTo(-90, 1);
    map.unmount();
  });
});
