import { render } from '@testing-library/react';
import L from 'leaflet';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import type { Comment } from '@/domain/model';
import { emptyLoad, testDocument, testTime } from '@/testing/loads';
import { withMapSize } from '@/testing/map-size';
import { renderOnMap } from '@/testing/on-map';
import { statusColors } from '../../../../tailwind.config';
import {
  BreadcrumbLayer,
  placesOf,
  type BreadcrumbLayerProps,
  type CrumbPing,
  type CrumbPlace,
} from './breadcrumb-layer';
import { PlaceMarker, PlaceSwatch, PLACE_SHAPES } from './place-marker';

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
    const { container, map, layers, rerender, unmount } = renderOnMap(<BreadcrumbLayer {...props} />, {
      center: [41.05, -89.95],
      zoom,
    });
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
      update: (p: BreadcrumbLayerProps) => rerender(<BreadcrumbLayer {...p} />),
      unmount,
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

describe('BreadcrumbLayer, direction and places', () => {
  withMapSize();

  const ZOOM = 8;
  const crumb = (n: number, lat: number, lon: number): CrumbPing => ({
    key: `p:${n}`,
    lat,
    lon,
    accuracy: 20,
    instant: n * 60_000,
  });
  // East for two degrees, then north for two: at zoom 8 each leg is well over the 120 px between
  // arrowheads, so each gets one.
  const trail = [
    crumb(0, 41, -90),
    crumb(1, 41, -89),
    crumb(2, 41, -88),
    crumb(3, 42, -88),
    crumb(4, 43, -88),
  ];

  function onMap(props: BreadcrumbLayerProps) {
    const { map, layers, rerender, unmount } = renderOnMap(<BreadcrumbLayer {...props} />, {
      center: [42, -89],
      zoom: ZOOM,
    });
    return {
      /**
       * Each arrowhead as the leg of the trail it sits on ("from→to", by the pings' keys) and the
       * compass heading its tip points to, in the map's pixels (y grows southward).
       */
      arrows: () =>
        layers()
          .filter((l): l is L.Polygon => l instanceof L.Polygon)
          .map((polygon) => {
            const corners = (polygon.getLatLngs() as L.LatLng[][])[0]!.map((ll) => map().project(ll, ZOOM));
            const middle = corners.reduce((a, b) => a.add(b)).divideBy(corners.length);
            // The tip is the corner farthest from the middle (the base's two are nearer).
            const tip = corners.reduce((a, b) => (a.distanceTo(middle) >= b.distanceTo(middle) ? a : b));
            const [dx, dy] = [tip.x - middle.x, tip.y - middle.y];
            const heading =
              Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'east' : 'west') : dy > 0 ? 'south' : 'north';
            // The leg whose midpoint is nearest.
            const pings = props.pings;
            const legs = pings.slice(1).map((b, i) => {
              const a = pings[i]!;
              const mid = map()
                .project([a.lat, a.lon], ZOOM)
                .add(map().project([b.lat, b.lon], ZOOM))
                .divideBy(2);
              return { name: `${a.key}→${b.key}`, away: mid.distanceTo(middle) };
            });
            const leg = legs.reduce((a, b) => (a.away <= b.away ? a : b));
            expect(leg.away).toBeLessThan(10);
            return `${leg.name} ${heading}`;
          })
          .sort(),
      /** The round markers with a tooltip (the first ping's, the documents' and comments'). */
      markers: () =>
        layers()
          .filter(
            (l): l is L.CircleMarker =>
              l instanceof L.CircleMarker && !(l instanceof L.Circle) && !(l instanceof PlaceMarker),
          )
          .map((m) => ({
            at: [m.getLatLng().lat, m.getLatLng().lng],
            label: m.getTooltip()?.getContent(),
            fill: m.options.fillColor,
          })),
      /** The documents' and comments' markers: where, what their tooltip says, and what they are. */
      places: () =>
        layers()
          .filter((l): l is PlaceMarker => l instanceof PlaceMarker)
          .map((m) => ({
            at: [m.getLatLng().lat, m.getLatLng().lng],
            label: m.getTooltip()?.getContent(),
            kind: m.kind,
          })),
      update: (p: BreadcrumbLayerProps) => {
        props = p;
        rerender(<BreadcrumbLayer {...p} />);
      },
      unmount,
    };
  }

  it('points its arrowheads from each ping to the next, so reversing the pings turns them around', () => {
    const layer = onMap({ pings: trail, places: [], lowConfidenceMeters: 500 });
    expect(layer.arrows()).toEqual(['p:0→p:1 east', 'p:1→p:2 east', 'p:2→p:3 north', 'p:3→p:4 north']);
    // The same trail travelled the other way (oldest first is p:4 now): every arrowhead turns around.
    layer.update({ pings: [...trail].reverse(), places: [], lowConfidenceMeters: 500 });
    expect(layer.arrows()).toEqual(['p:1→p:0 west', 'p:2→p:1 west', 'p:3→p:2 south', 'p:4→p:3 south']);
    // And the start marker moves to the other end.
    expect(layer.markers()).toEqual([{ at: [43, -88], label: 'First ping', fill: '#fff' }]);
    layer.unmount();
  });

  it('puts a marker where each document and comment with a location was sent from, none for the rest', () => {
    const comment = (key: string, text: string, position: Comment['position']): Comment => ({
      key,
      instant: 0,
      time: testTime(),
      text,
      by: 'driver',
      position,
      place: undefined,
      driver: undefined,
    });
    const load = emptyLoad('700100', 'external-id', {
      documents: [
        testDocument('https://docs.example.com/bol.jpg', 0, {
          type: 'BOL',
          position: { lat: 41.25, lon: -89.5, accuracy: 15 },
        }),
        testDocument('https://docs.example.com/pod.pdf', 0, { type: 'POD' }),
      ],
      comments: [
        comment('c:1', 'Dock 4, waiting', { lat: 42.5, lon: -88.25, accuracy: null }),
        comment('c:2', 'No location', undefined),
      ],
    });
    const places = placesOf(load);
    expect(places.map((p) => [p.kind, p.lat, p.lon])).toEqual([
      ['document', 41.25, -89.5],
      ['comment', 42.5, -88.25],
    ]);
    const layer = onMap({ pings: trail, places, lowConfidenceMeters: 500 });
    // Round markers are the loads' look (and the first ping's): the places are not drawn so.
    expect(layer.markers()).toEqual([{ at: [41, -90], label: 'First ping', fill: '#fff' }]);
    expect(layer.places()).toEqual([
      { at: [41.25, -89.5], label: 'BOL uploaded here', kind: 'document' },
      { at: [42.5, -88.25], label: 'Comment: Dock 4, waiting', kind: 'comment' },
    ]);
    layer.unmount();
    expect(placesOf(null)).toEqual([]);
  });

  it('draws the places under the load’s own marker (where its last ping is) above it, side by side', () => {
    const last = trail[trail.length - 1]!;
    const places: CrumbPlace[] = [
      { key: 'd:pod', lat: last.lat, lon: last.lon, kind: 'document', label: 'POD uploaded here' },
      // A few metres away: still under the marker.
      { key: 'd:photo', lat: last.lat + 0.0002, lon: last.lon, kind: 'document', label: 'Photo' },
      { key: 'c:far', lat: 41.25, lon: -89.5, kind: 'comment', label: 'Comment: far away' },
    ];
    const { map, layers, unmount } = renderOnMap(
      <BreadcrumbLayer pings={trail} places={places} lowConfidenceMeters={500} />,
      { center: [42, -89], zoom: ZOOM },
    );
    const offsets = () =>
      layers()
        .filter((l): l is PlaceMarker => l instanceof PlaceMarker)
        .map((m) => [m.getTooltip()?.getContent(), m.offset.x, m.offset.y]);
    expect(offsets()).toEqual([
      ['POD uploaded here', -10, -26],
      ['Photo', 10, -26],
      ['Comment: far away', 0, 0],
    ]);
    expect(map().getContainer().dataset.placesNudged).toBe('2');
    // Zoomed out far enough, the far comment comes under the marker too, and joins them.
    act(() => void map().setZoom(3, { animate: false }));
    expect(offsets().map(([, x, y]) => [x, y])).toEqual([
      [-20, -26],
      [0, -26],
      [20, -26],
    ]);
    unmount();
  });

  it('shows in the legend the very shapes the map draws for documents and comments', () => {
    const legend = render(
      <ul>
        <PlaceSwatch kind="document" />
        <PlaceSwatch kind="comment" />
      </ul>,
    );
    const swatches = [...legend.container.querySelectorAll('svg')].map((svg) =>
      [...svg.querySelectorAll('path')].map((p) => [
        p.getAttribute('d'),
        p.getAttribute('fill'),
        p.getAttribute('stroke'),
      ]),
    );
    expect(swatches).toEqual([
      [
        [PLACE_SHAPES.document.body, '#ffffff', statusColors.document],
        [PLACE_SHAPES.document.marks, 'none', statusColors.document],
      ],
      [
        [PLACE_SHAPES.comment.body, '#ffffff', statusColors.comment],
        [PLACE_SHAPES.comment.marks, 'none', statusColors.comment],
      ],
    ]);
    legend.unmount();
  });
});
