import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type L from 'leaflet';
import { act } from 'react';
import { MapContainer, useMap } from 'react-leaflet';
import { describe, expect, it } from 'vitest';
import { Link, Router } from 'wouter';
import { FitButtons, MapView, PanToSelection, type LatLon } from './map-view';
import { writeBeforeNavigating } from '../../lib/url-state';
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

describe('MapView and FitButtons', () => {
  withMapSize();

  // Far apart, the extremes not first nor last, and one place twice.
  const places: LatLon[] = [
    { lat: 33, lon: -90 },
    { lat: 39, lon: -104 },
    { lat: 61.2, lon: -149.9 },
    { lat: 33, lon: -90 },
    { lat: 18.4, lon: -66.1 },
    { lat: 41.9, lon: -87.6 },
  ];
  const holdsAll = (map: L.Map) => places.every((p) => map.getBounds().contains([p.lat, p.lon]));

  it('fits every place in view when the points first arrive, and again on "Fit all"', async () => {
    let leaflet: L.Map | undefined;
    function Grab() {
      leaflet = useMap();
      return null;
    }
    const r = render(
      <MapContainer center={[0, 0]} zoom={12}>
        <Grab />
        <MapView fitTo={places} urlParam={null} />
        <FitButtons all={places} selected={[]} />
      </MapContainer>,
    );
    expect(holdsAll(leaflet!)).toBe(true);
    // Not everything at the lowest zoom: the box is the places', a little padded.
    expect(leaflet!.getZoom()).toBeGreaterThan(0);
    expect(leaflet!.getCenter().lat).toBeGreaterThan(18.4);
    expect(leaflet!.getCenter().lat).toBeLessThan(61.2);
    expect(leaflet!.getCenter().lng).toBeGreaterThan(-149.9);
    expect(leaflet!.getCenter().lng).toBeLessThan(-66.1);

    act(() => leaflet!.setView([10, 10], 12, { animate: false }));
    expect(holdsAll(leaflet!)).toBe(false);
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Fit all' })));
    await waitFor(() => expect(holdsAll(leaflet!)).toBe(true));
    r.unmount();
  });
});

describe('MapView in the URL', () => {
  withMapSize();

  it('leaves the view on screen in the entry Back returns to, when a link is followed at once', () => {
    window.history.replaceState(null, '', '/?map=40,-96,4');
    let leaflet: L.Map | undefined;
    function Grab() {
      leaflet = useMap();
      return null;
    }
    const entries: string[] = [];
    const push = window.history.pushState.bind(window.history);
    const replace = window.history.replaceState.bind(window.history);
    window.history.pushState = (state, unused, url) => {
      entries.push(`push ${String(url)}`);
      push(state, unused, url);
    };
    window.history.replaceState = (state, unused, url) => {
      entries.push(`replace ${String(url)}`);
      replace(state, unused, url);
    };
    try {
      const r = render(
        <Router aroundNav={writeBeforeNavigating}>
          <MapContainer center={[40, -96]} zoom={4}>
            <Grab />
            <MapView fitTo={[]} />
          </MapContainer>
          <Link href="/loads/e/1">Load 1</Link>
        </Router>,
      );
      // Zoomed in on Chicago, then the load's link clicked before the view was written.
      act(() => leaflet!.setView([41.88, -87.63], 9, { animate: false }));
      act(() => fireEvent.click(screen.getByRole('link', { name: 'Load 1' })));
      expect(entries).toEqual(['replace /?map=41.8800,-87.6300,9', 'push /loads/e/1']);
      expect(window.location.pathname).toBe('/loads/e/1');
      r.unmount();
    } finally {
      window.history.pushState = push;
      window.history.replaceState = replace;
    }
  });
});
