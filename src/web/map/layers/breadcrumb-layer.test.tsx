import { render } from '@testing-library/react';
import L from 'leaflet';
import { act } from 'react';
import { MapContainer, useMap } from 'react-leaflet';
import { describe, expect, it } from 'vitest';
import { withMapSize } from '@/testing/map-size';
import { BreadcrumbLayer, type BreadcrumbLayerProps, type CrumbPing } from './breadcrumb-layer';

describe('BreadcrumbLayer, ping quality', () => {
  withMapSize();

  const ping = (n: number, accuracy: number | null): CrumbPing => ({
    key: `p:${n}`,
    lat: 41 + n * 0.02,
    lon: -90 + n * 0.02,
    accuracy,
    instant: n * 60_000,
  });

  /** The layer alone on a map over the trail, with Leaflet's map in hand. */
  function onMap(props: BreadcrumbLayerProps, zoom = 9) {
    let leaflet: L.Map | undefined;
    function Grab() {
      leaflet = useMap();
      return null;
    }
    const container = document.createElement('div');
    document.body.append(container);
    const view = (p: BreadcrumbLayerProps) => (
      <MapContainer center={[41.05, -89.95]} zoom={zoom} preferCanvas={false}>
        <Grab />
        <BreadcrumbLayer {...p} />
      </MapContainer>
    );
    const r = render(view(props), { container });
    const map = () => leaflet as L.Map;
    const layers = () => {
      const all: L.Layer[] = [];
      map().eachLayer((layer) => void all.push(layer));
      return all;
    };
    return {
      map,
      data: () => container.querySelector<HTMLElement>('.leaflet-container')!.dataset,
      /** The trail's lines (not the arrowheads, which are polygons): their pings, and whether dashed. */
      stretches: () =>
        layers()
          .filter((l): l is L.Polyline => l instanceof L.Polyline && !(l instanceof L.Polygon))
          .map((l) => ({
            at: (l.getLatLngs() as L.LatLng[]).map((ll) => `${ll.lat.toFixed(2)},${ll.lng.toFixed(2)}`),
            dashed: Boolean(l.options.dashArray),
          })),
      /** The accuracy circles on the map (true scale: L.Circle, not the first ping's marker). */
      circles: () =>
        layers()
          .filter((l): l is L.Circle => l instanceof L.Circle)
          .map((c) => [c.getLatLng().lat, c.getLatLng().lng, c.getRadius()]),
      zoomTo: (z: number) =>
        act(async () => {
          map().setView([41.05, -89.95], z, { animate: false });
          await new Promise((done) => setTimeout(done, 20));
        }),
      update: (p: BreadcrumbLayerProps) => r.rerender(view(p)),
      unmount: () => r.unmount(),
    };
  }

  const at = (...ns: number[]) =>
    ns.map((n) => `${(41 + n * 0.02).toFixed(2)},${(-90 + n * 0.02).toFixed(2)}`);

  // Sure, sure, unsure (900 m), exactly at the threshold (sure), sure, unknown accuracy (unsure).
  const pings = [ping(0, 20), ping(1, 30), ping(2, 900), ping(3, 500), ping(4, 50), ping(5, null)];

  it('draws the stretches touching a ping less sure than the threshold dashed, and the rest solid', () => {
    const layer = onMap({ pings, places: [], lowConfidenceMeters: 500 });
    expect(layer.stretches()).toEqual([
      { at: at(0, 1), dashed: false },
      { at: at(1, 2, 3), dashed: true },
      { at: at(3, 4), dashed: false },
      { at: at(4, 5), dashed: true },
    ]);
    expect(layer.data().breadcrumb).toBe('6');
    layer.unmount();
  });

  it('takes the threshold from its prop: a looser one trusts the 900 m ping', () => {
    const layer = onMap({ pings, places: [], lowConfidenceMeters: 500 });
    layer.update({ pings, places: [], lowConfidenceMeters: 1000 });
    expect(layer.stretches()).toEqual([
      { at: at(0, 1, 2, 3, 4), dashed: false },
      { at: at(4, 5), dashed: true },
    ]);
    // A stricter one distrusts every ping but the first: every stretch touches an unsure one.
    layer.update({ pings, places: [], lowConfidenceMeters: 25 });
    expect(layer.stretches()).toEqual([{ at: at(0, 1, 2, 3, 4, 5), dashed: true }]);
    layer.unmount();
  });

  it('shows each ping’s own accuracy circle zoomed in past the threshold zoom, and none zoomed out', async () => {
    const layer = onMap({ pings, places: [], lowConfidenceMeters: 500 }, 9);
    expect(layer.data().pingCircles).toBe('0');
    expect(layer.circles()).toEqual([]);

    await layer.zoomTo(11);
    // One per ping with a known accuracy, where the ping is, at its accuracy in meters.
    expect(layer.data().pingCircles).toBe('5');
    expect(layer.circles()).toEqual(
      pings.filter((p) => p.accuracy !== null).map((p) => [p.lat, p.lon, p.accuracy]),
    );

    await layer.zoomTo(10);
    expect(layer.data().pingCircles).toBe('0');
    expect(layer.circles()).toEqual([]);
    layer.unmount();
  });

  it('shows the circles from the zoom its prop names', async () => {
    const layer = onMap({ pings, places: [], lowConfidenceMeters: 500, pingCirclesFromZoom: 8 }, 8);
    expect(layer.data().pingCircles).toBe('5');
    await layer.zoomTo(7);
    expect(layer.data().pingCircles).toBe('0');
    expect(layer.circles()).toEqual([]);
    layer.unmount();
  });
});
