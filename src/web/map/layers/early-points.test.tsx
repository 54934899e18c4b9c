import { act } from '@testing-library/react';
import L from 'leaflet';
import { describe, expect, it, vi } from 'vitest';
import type { Load } from '@/domain/model';
import { DEFAULT_THRESHOLDS, loadStaleness } from '@/domain/staleness';
import { emptyLoad, testLatestLocation } from '@/testing/loads';
import { withMapSize } from '@/testing/map-size';
import { renderOnMap } from '@/testing/on-map';
import { earlyPointsOf, type LookRules } from '../../lib/load-look';
import { markerState } from '../core/map-test-attributes';
import type { MarkerPoint } from '../core/marker-point';
import { earlyPoints, pointOf } from './load-point';
import { LoadMarkersLayer } from './load-markers-layer';

describe('the map drawn from the points that come before the loads', () => {
  withMapSize();

  const NOW = 10 * 3_600_000;
  const RULES: LookRules = { thresholds: DEFAULT_THRESHOLDS, excursionTolerance: 5, at: NOW };
  const delivered = { key: 's', instant: NOW, time: testLatestLocation(NOW).time, name: 'Delivered' };
  // Fresh, stale and silent loads, a delivered one, one without a position.
  const loads: Load[] = [0, 45, 150, 5, -1].map((minutes, i) =>
    emptyLoad(`L${i}`, 'external-id', {
      latestLocation:
        minutes < 0
          ? undefined
          : testLatestLocation(NOW - minutes * 60_000, {
              lat: 41 + i / 500,
              lon: -90 + i / 500,
              accuracy: i === 0 ? null : 300 * i,
            }),
      latestStatus: i === 3 ? delivered : undefined,
    }),
  );
  const fromLoads = loads
    .map((l) => pointOf(l, loadStaleness(l, NOW, RULES.thresholds), RULES.excursionTolerance))
    .filter((p): p is MarkerPoint => p !== undefined);

  function drawnMap(points: readonly MarkerPoint[], onDrawn?: () => void) {
    const layer = (pts: readonly MarkerPoint[]) => (
      <LoadMarkersLayer points={pts} selectedKey={null} onDrawn={onDrawn} />
    );
    const r = renderOnMap(layer(points), { center: [41.004, -89.996], zoom: 15 });
    /** What the map drew: its counts, and each marker's and circle's shape and colours. */
    const drawn = async () => {
      await act(async () => new Promise((done) => setTimeout(done, 50)));
      const map = r.container.querySelector<HTMLElement>('.leaflet-container')!;
      // Each marker and circle on the map: where, how large, its colours (the dot's too).
      const paths: string[] = [];
      for (const drawn of r.layers()) {
        if (!(drawn instanceof L.CircleMarker)) continue;
        const { color, fillColor, centreColor } = drawn.options as L.CircleMarkerOptions & {
          centreColor?: string;
        };
        const kind = drawn instanceof L.Circle ? 'circle' : 'marker';
        const { lat, lng } = drawn.getLatLng();
        paths.push(`${kind} ${lat},${lng} ${drawn.getRadius()} ${color} ${fillColor} ${centreColor}`);
      }
      return { state: markerState(map), paths: paths.sort() };
    };
    return { drawn, update: (pts: readonly MarkerPoint[]) => r.rerender(layer(pts)) };
  }

  it('draws the early points as the loads’ own, and stays so when the loads come', async () => {
    const alone = await drawnMap(fromLoads).drawn();
    expect(alone.state.points).toBe(4);
    // Each look shows: the fresh, stale and silent colours and the finished grey, and the circles.
    const markers = alone.paths.filter((p) => p.startsWith('marker'));
    expect(new Set(markers.map((p) => p.split(' ').at(-2))).size).toBe(4);
    expect(alone.paths.filter((p) => p.startsWith('circle'))).toHaveLength(3);

    const onDrawn = vi.fn();
    const map = drawnMap(earlyPoints(earlyPointsOf('board:external-id:1', loads, NOW, RULES)), onDrawn);
    expect(await map.drawn()).toEqual(alone);
    // Said once drawn: the page brings the loads then.
    expect(onDrawn).toHaveBeenCalled();
    map.update(fromLoads);
    expect(await map.drawn()).toEqual(alone);
  });
});
