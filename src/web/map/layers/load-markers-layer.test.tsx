import { fireEvent } from '@testing-library/react';
import L from 'leaflet';
import { act } from 'react';
import Supercluster from 'supercluster';
import { describe, expect, it, vi } from 'vitest';
import { badgeSize, ClusterBadge } from '../core/cluster-badge';
import { markerState } from '../core/map-test-attributes';
import type { MarkerPoint } from '../core/marker-point';
import { LoadMarkersLayer } from './load-markers-layer';
import { withMapSize } from '@/testing/map-size';
import { renderOnMap } from '@/testing/on-map';

describe('LoadMarkersLayer, as the points change', () => {
  withMapSize();

  const point = (key: string, lat: number, lon: number): MarkerPoint => ({
    key,
    lat,
    lon,
    accuracy: 50,
    color: '#16a34a',
    label: key,
  });

  function renderLayer(points: MarkerPoint[], onSelect?: (key: string) => void, zoom = 9) {
    const view = (pts: MarkerPoint[], selectedKey: string | null = null) => (
      <LoadMarkersLayer points={pts} selectedKey={selectedKey} onSelect={onSelect} />
    );
    const r = renderOnMap(view(points), { zoom });
    const { container } = r;
    const map = () => container.querySelector<HTMLElement>('.leaflet-container')!;
    /** Each drawn marker's path, by its load (the tooltip's text). */
    const paths = () =>
      [...map().querySelectorAll('path.leaflet-interactive')].map((p) => p.getAttribute('d'));
    const elements = () => [...map().querySelectorAll<SVGPathElement>('path.leaflet-interactive')];
    return {
      map,
      leaflet: r.map,
      paths,
      elements,
      update: (pts: MarkerPoint[], selectedKey: string | null = null) => r.rerender(view(pts, selectedKey)),
      unmount: r.unmount,
    };
  }

  it('moves the marker of a load that moved, keeps the others, and drops a load no longer there', () => {
    const a = point('e:1', 41, -90);
    const b = point('e:2', 41.05, -90.05);
    const c = point('e:3', 40.95, -89.95);
    const layer = renderLayer([a, b, c]);
    expect(markerState(layer.map()).points).toBe(3);
    expect(markerState(layer.map()).markers).toBe(3);
    const before = layer.paths();
    expect(before).toHaveLength(3);

    // A refresh: the same loads in the same places, one of them moved.
    layer.update([a, point('e:2', 41.1, -90.1), c]);
    const after = layer.paths();
    expect(after).toHaveLength(3);
    expect(after.filter((d, i) => d !== before[i])).toHaveLength(1);
    expect(after[0]).toBe(before[0]);
    expect(after[2]).toBe(before[2]);

    // A load dropped and the rest in other places: the full comparison by key.
    layer.update([c, a]);
    expect(markerState(layer.map()).points).toBe(2);
    expect(markerState(layer.map()).markers).toBe(2);
    expect(layer.paths()).toHaveLength(2);
    layer.unmount();
  });

  it('a marker off the map is moved and recoloured as it comes back on, not while it is off', async () => {
    const a = point('e:1', 41, -90);
    const b = point('e:2', 41.05, -90.05);
    const view = (pts: MarkerPoint[]) => <LoadMarkersLayer points={pts} selectedKey={null} />;
    const r = renderOnMap(view([a, b]));
    const { container } = r;
    const leaflet = r.map();
    const fills = () =>
      [...container.querySelectorAll('path.leaflet-interactive')].map((p) => [
        p.getAttribute('d'),
        p.getAttribute('fill'),
      ]);
    const shown = fills();
    expect(shown).toHaveLength(2);
    // Far away: both markers are taken off the map. A refresh moves one load and turns it stale.
    const redrawn = () => new Promise((resolve) => requestAnimationFrame(resolve));
    leaflet.setView([10, 10], 9, { animate: false });
    await redrawn();
    expect(markerState(container.querySelector('.leaflet-container')!).markers).toBe(0);
    r.rerender(view([a, { ...b, lat: 41.1, lon: -90.1, color: '#d97706' }]));
    // Back: the moved load's marker is where it is now, in its new colour; the other is as it was.
    leaflet.setView([41, -90], 9, { animate: false });
    await redrawn();
    const back = fills();
    expect(back[0]).toEqual(shown[0]);
    expect(back[1]?.[0]).not.toBe(shown[1]?.[0]);
    expect(back[1]?.[1]).toBe('#d97706');
    r.unmount();
  });

  it('draws a load’s accuracy circle where it reaches past its marker, and the selected load’s always', async () => {
    // ±50 m is a fraction of a pixel at zoom 9; ±5 km is about twenty pixels.
    const sure = point('e:1', 41, -90);
    const unsure = { ...point('e:2', 41.3, -90.3), accuracy: 5000 };
    const layer = renderLayer([sure, unsure]);
    const redrawn = () => new Promise((resolve) => requestAnimationFrame(resolve));
    expect(markerState(layer.map())).toMatchObject({ markers: 2, circles: 1 });
    layer.update([sure, unsure], 'e:1');
    expect(markerState(layer.map())).toMatchObject({ markers: 2, circles: 2 });
    layer.update([sure, unsure], null);
    expect(markerState(layer.map()).circles).toBe(1);
    // Zoomed in to the street, ±50 m is wider than the marker: drawn, unselected.
    layer.leaflet().setView([41, -90], 16, { animate: false });
    await act(redrawn);
    expect(markerState(layer.map())).toMatchObject({ markers: 1, circles: 1 });
    layer.unmount();
  });

  it('makes the markers not shown yet while the browser is idle, and asks again only for points without them', () => {
    const asked: IdleRequestCallback[] = [];
    // jsdom has no idle callbacks: these run when the test says so.
    vi.stubGlobal('requestIdleCallback', (work: IdleRequestCallback) => asked.push(work));
    vi.stubGlobal('cancelIdleCallback', () => {});
    const made = vi.spyOn(L, 'circleMarker');
    const circles = vi.spyOn(L, 'circle');
    const deadline = { didTimeout: false, timeRemaining: () => 50 } as IdleDeadline;
    try {
      // Zoom 4: the three loads are one cluster, no marker is shown, none made for them yet.
      const a = point('e:1', 41, -90);
      const b = point('e:2', 41.05, -90.05);
      // One load without an accuracy: no circle for it.
      const c = { ...point('e:3', 40.95, -89.95), accuracy: null };
      const { update, unmount } = onMap([a, b, c]);
      expect(asked).toHaveLength(1);
      const before = made.mock.calls.length;
      const circlesBefore = circles.mock.calls.length;
      asked[0]!(deadline);
      expect(made.mock.calls.length - before).toBe(3);
      expect(circles.mock.calls.length - circlesBefore).toBe(2);
      // A refresh moves a load: every point has its marker, nothing to ask for.
      update([a, point('e:2', 41.06, -90.06), c]);
      expect(asked).toHaveLength(1);
      // The load without an accuracy gets one: its circle is to be made.
      update([a, point('e:2', 41.06, -90.06), point('e:3', 40.95, -89.95)]);
      expect(asked).toHaveLength(2);
      const circlesThen = circles.mock.calls.length;
      asked[1]!(deadline);
      expect(circles.mock.calls.length - circlesThen).toBe(1);
      // A load comes: the browser is asked again, for it alone.
      update([a, point('e:2', 41.06, -90.06), point('e:3', 40.95, -89.95), point('e:4', 41.02, -90.02)]);
      expect(asked).toHaveLength(3);
      const then = made.mock.calls.length;
      asked[2]!(deadline);
      expect(made.mock.calls.length - then).toBe(1);
      unmount();
    } finally {
      vi.unstubAllGlobals();
      made.mockRestore();
      circles.mockRestore();
    }
  });

  it('names the load under the pointer in one tooltip, with its label as it is now, and selects it on click', () => {
    const onSelect = vi.fn();
    const a = point('e:1', 41, -90);
    const layer = renderLayer([a], onSelect);
    const [marker] = layer.elements();
    fireEvent.mouseOver(marker!);
    expect(layer.map().querySelector('.leaflet-tooltip')?.textContent).toBe('e:1');
    fireEvent.mouseOut(marker!);
    // The point's label changed with a refresh: the tooltip says the new one.
    layer.update([{ ...a, label: 'e:1 · Delivered' }]);
    fireEvent.mouseOver(layer.elements()[0]!);
    expect(layer.map().querySelector('.leaflet-tooltip')?.textContent).toBe('e:1 · Delivered');
    fireEvent.click(layer.elements()[0]!);
    expect(onSelect).toHaveBeenCalledWith('e:1');
    layer.unmount();
  });

  it('draws the selected load above the cluster badges, follows it when it moves, and drops it when unselected', () => {
    // Zoom 4: the three loads are one cluster, its badge in Leaflet's marker pane.
    const a = point('e:1', 41, -90);
    const b = point('e:2', 41.05, -90.05);
    const c = point('e:3', 40.95, -89.95);
    const layer = renderLayer([a, b, c], undefined, 4);
    expect(markerState(layer.map()).clusters).toBe(1);
    const ring = () => layer.map().querySelector<SVGPathElement>('path.haulview-selected-marker');
    expect(ring()).toBeNull();

    layer.update([a, b, c], 'e:2');
    const pane = layer.map().querySelector<HTMLElement>('.leaflet-haulview-selected-pane');
    expect(layer.map().querySelector('.leaflet-overlay-pane path.haulview-cluster')).not.toBeNull();
    // leaflet.css stacks the overlay pane (the canvas with markers and badges) at 400, the marker
    // pane at 600 and tooltips at 650.
    expect(Number(pane?.style.zIndex)).toBeGreaterThan(600);
    expect(Number(pane?.style.zIndex)).toBeLessThan(650);
    expect(pane?.contains(ring())).toBe(true);
    expect(ring()?.getAttribute('fill')).toBe('#16a34a');
    const at = ring()?.getAttribute('d');

    // A refresh moves it: so does its marker on top.
    layer.update([a, point('e:2', 42, -91), c], 'e:2');
    expect(ring()?.getAttribute('d')).not.toBe(at);

    layer.update([a, b, c], null);
    expect(ring()).toBeNull();
    layer.unmount();
  });

  it('takes the selected load out of its cluster: the badge counts the others, and the load is drawn alone', () => {
    // Zoom 4: three loads around (41, -90) in one cluster, a fourth far away alone.
    const a = point('e:1', 41, -90);
    const b = { ...point('e:2', 41.05, -90.05), late: true };
    const c = point('e:3', 40.95, -89.95);
    const alone = point('e:4', 33, -112);
    const built = vi.spyOn(Supercluster.prototype, 'load');
    try {
      const layer = renderLayer([a, b, c, alone], undefined, 4);
      const data = () => markerState(layer.map());
      const counted = () => data().badges.map(([, , count, late]) => `${count},${late}`);
      expect(counted()).toEqual(['3,1']);
      expect([data().clustered, data().markers]).toEqual([3, 1]);
      const builds = built.mock.calls.length;

      // The late load selected: the badge counts the two others, none late; it has its own marker.
      layer.update([a, b, c, alone], 'e:2');
      expect(counted()).toEqual(['2,0']);
      expect([data().clustered, data().markers]).toEqual([2, 2]);
      // The index was asked, not built again.
      expect(built.mock.calls.length).toBe(builds);

      // Another load of the cluster selected, then none: the badge follows.
      layer.update([a, b, c, alone], 'e:1');
      expect(counted()).toEqual(['2,1']);
      layer.update([a, b, c, alone], 'e:4');
      expect(counted()).toEqual(['3,1']);
      layer.update([a, b, c, alone], null);
      expect([data().clustered, data().markers]).toEqual([3, 1]);
      expect(built.mock.calls.length).toBe(builds);
      layer.unmount();
    } finally {
      built.mockRestore();
    }
  });

  it('writes the count of a badge under the selected marker above it, and on the badge again once it is not', () => {
    // The selected load sits on the badge of the others (a pixel from its middle at zoom 4).
    const a = point('e:1', 41, -90);
    const b = { ...point('e:2', 41.05, -90.05), late: true };
    const c = point('e:3', 40.95, -89.95);
    const d = { ...point('e:4', 41.02, -90.02), late: true };
    const badgeOf = (layer: ReturnType<typeof renderLayer>) => {
      const found: ClusterBadge[] = [];
      layer.leaflet().eachLayer((l) => void (l instanceof ClusterBadge && found.push(l)));
      return found;
    };
    const layer = renderLayer([a, b, c, d], undefined, 4);
    const labels = () =>
      [...layer.map().querySelectorAll('.leaflet-haulview-selected-badges-pane .haulview-cluster-label')].map(
        (l) => l.textContent,
      );
    expect(labels()).toEqual([]);
    layer.update([a, b, c, d], 'e:2');
    // Above the selected marker's pane (620), under tooltips (650): the count, then the late count.
    const pane = layer.map().querySelector<HTMLElement>('.leaflet-haulview-selected-badges-pane');
    expect(Number(pane?.style.zIndex)).toBeGreaterThan(620);
    expect(Number(pane?.style.zIndex)).toBeLessThan(650);
    expect(labels()).toEqual(['31']);
    expect(markerState(layer.map()).badgesRelabelled).toBe(1);
    // The canvas draws the badge's disc without its counts (not written twice, a pixel apart).
    expect(badgeOf(layer).map((x) => x.options.labelAbove)).toEqual([true]);
    // Selected far from it: the badge writes its own counts again.
    layer.update([a, b, c, { ...point('e:4', 33, -112), late: true }], 'e:4');
    expect(labels()).toEqual([]);
    expect(badgeOf(layer).map((x) => x.options.labelAbove)).toEqual([false]);
    layer.unmount();
  });

  it('gives each marker its load’s phase dot, follows a change of status, and dots the selected load on top', () => {
    const a = { ...point('e:1', 41, -90), centre: '#38bdf8' };
    const b = { ...point('e:2', 41.05, -90.05), centre: null };
    const layer = (pts: MarkerPoint[], selectedKey: string | null) => (
      <LoadMarkersLayer points={pts} selectedKey={selectedKey} />
    );
    const r = renderOnMap(layer([a, b], null));
    const { container } = r;
    // What the canvas draws each marker from (its sprite's dot): the marker's options.
    const dots = () => {
      const out: Record<string, string | undefined> = {};
      r.map().eachLayer((l) => {
        const o = (l as L.CircleMarker).options as { loadKey?: string; centreColor?: string };
        if (l instanceof L.CircleMarker && o.loadKey) out[o.loadKey] = o.centreColor;
      });
      return out;
    };
    expect(dots()).toEqual({ 'e:1': '#38bdf8', 'e:2': undefined });

    // A refresh: load 2 is delivered now, in the same place.
    r.rerender(layer([a, { ...b, centre: '#111827' }], null));
    expect(dots()).toEqual({ 'e:1': '#38bdf8', 'e:2': '#111827' });

    // Selected, its marker is drawn again on top, ring and dot.
    r.rerender(layer([a, { ...b, centre: '#111827' }], 'e:2'));
    const dot = () => container.querySelector<SVGPathElement>('path.haulview-selected-dot');
    expect(dot()?.getAttribute('fill')).toBe('#111827');
    // A selected load whose status says no phase has no dot.
    r.rerender(layer([a, b], 'e:2'));
    expect(dot()).toBeNull();
    r.rerender(layer([a, b], 'e:1'));
    expect(dot()?.getAttribute('fill')).toBe('#38bdf8');
    r.unmount();
  });

  it('leaves a cluster badge alone when a refresh moves its loads by less than a pixel', () => {
    // Zoom 4: a pixel is about 10 km; three loads in one cluster.
    const a = point('e:1', 41, -90);
    const b = point('e:2', 41.05, -90.05);
    const c = point('e:3', 40.95, -89.95);
    const layer = renderLayer([a, b, c], undefined, 4);
    const badge = () => layer.map().querySelector<SVGPathElement>('path.haulview-cluster');
    // Where Leaflet drew it (its circle's path).
    const placed = () => badge()?.getAttribute('d');
    const before = badge();
    const drawnAt = placed();
    expect(before).not.toBeNull();
    // Every load moved about 200 m: the cluster's mean too, by a fiftieth of a pixel. The badge is
    // not even moved to it (Leaflet would draw it again).
    const moved = vi.spyOn(ClusterBadge.prototype, 'setLatLng');
    layer.update([
      point('e:1', 41.002, -90.002),
      point('e:2', 41.052, -90.052),
      point('e:3', 40.952, -89.952),
    ]);
    expect(moved).not.toHaveBeenCalled();
    moved.mockRestore();
    expect(badge()).toBe(before);
    expect(placed()).toBe(drawnAt);
    // Moved a hundred kilometres: the badge moves with them.
    layer.update([point('e:1', 42, -91), point('e:2', 42.05, -91.05), point('e:3', 41.95, -90.95)]);
    expect(placed()).not.toBe(drawnAt);
    layer.unmount();
  });

  /** The layer alone on a map at zoom 4 over (41, -90), with Leaflet's map in hand. */
  function onMap(points: MarkerPoint[]) {
    const view = (pts: MarkerPoint[]) => <LoadMarkersLayer points={pts} selectedKey={null} />;
    const r = renderOnMap(view(points), { zoom: 4 });
    return {
      container: r.container,
      leaflet: r.map,
      update: (pts: MarkerPoint[]) => r.rerender(view(pts)),
      unmount: r.unmount,
    };
  }

  it('lets go of the badges it took off the map, and closes a badge\'s "N loads" when the view moves', async () => {
    const a = point('e:1', 41, -90);
    const b = point('e:2', 41.05, -90.05);
    const c = point('e:3', 40.95, -89.95);
    const { container, leaflet, update, unmount } = onMap([a, b, c]);
    const badge = () => container.querySelector<SVGPathElement>('path.haulview-cluster');
    expect(badge()).not.toBeNull();
    fireEvent.mouseOver(badge()!);
    expect(container.querySelector('.leaflet-tooltip')?.textContent).toBe('3 loads');
    await act(async () => {
      leaflet().setView([41, -80], 4, { animate: false });
      await new Promise((done) => setTimeout(done, 50));
    });
    expect(container.querySelector('.leaflet-tooltip')).toBeNull();
    // The loads drift apart: no cluster is left, and no group holds its badge any more.
    update([a, point('e:2', 30, -110), point('e:3', 50, -70)]);
    await act(async () => {
      leaflet().setView([41, -90], 4, { animate: false });
      await new Promise((done) => setTimeout(done, 50));
    });
    expect(badge()).toBeNull();
    const held: L.Layer[] = [];
    leaflet().eachLayer((layer) => {
      if (layer instanceof L.LayerGroup) held.push(...layer.getLayers());
    });
    expect(held.filter((l) => l instanceof ClusterBadge)).toEqual([]);
    expect(held.length).toBeGreaterThan(0);
    unmount();
  });

  it('says on a badge how many of its loads are late, and follows a load that turns late or back', () => {
    const a = point('e:1', 41, -90);
    const b = { ...point('e:2', 41.05, -90.05), late: true };
    const c = point('e:3', 40.95, -89.95);
    const { container, update, unmount } = onMap([a, b, c]);
    const late = () => markerState(container.querySelector('.leaflet-container')!).clusteredLate;
    const tooltip = () => container.querySelector('.leaflet-tooltip')?.textContent;
    expect(late()).toBe(1);
    const badge = container.querySelector('path.haulview-cluster')!;
    badge.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    expect(tooltip()).toBe('3 loads, 1 need attention');
    // The third turns late where it is (nothing moved): the badge counts it.
    update([a, b, { ...c, late: true }]);
    expect(late()).toBe(2);
    update([a, { ...b, late: false }, c]);
    expect(late()).toBe(0);
    container
      .querySelector('path.haulview-cluster')!
      .dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    expect(tooltip()).toBe('3 loads');
    unmount();
  });

  it('counts a load that a refresh moved into a cluster, and one that moved out of it', () => {
    const a = point('e:1', 41, -90);
    const b = point('e:2', 41.05, -90.05);
    const far = point('e:3', 30, -110);
    const { container, update, unmount } = onMap([a, b, far]);
    const counts = () => markerState(container.querySelector('.leaflet-container')!).badges.map((b) => b[2]);
    expect(counts()).toEqual([2]);
    update([a, b, point('e:3', 40.95, -89.95)]);
    expect(counts()).toEqual([3]);
    update([a, point('e:2', 50, -70), point('e:3', 40.95, -89.95)]);
    expect(counts()).toEqual([2]);
    unmount();
  });

  it('takes the markers off when zooming out into a cluster, keeps a lone load’s, and puts them back zoomed in', async () => {
    const a = point('e:1', 41, -90);
    const b = point('e:2', 41.05, -90.05);
    const c = point('e:3', 40.95, -89.95);
    const alone = point('e:4', 33, -112);
    const { container, leaflet, unmount } = onMap([a, b, c, alone]);
    const data = () => markerState(container.querySelector('.leaflet-container')!);
    const zoomTo = (zoom: number) =>
      act(async () => {
        leaflet().setView([41, -90], zoom, { animate: false });
        await new Promise((done) => setTimeout(done, 50));
      });
    expect([data().markers, data().clustered]).toEqual([1, 3]);
    await zoomTo(9);
    expect([data().markers, data().clusters]).toEqual([3, 0]);
    await zoomTo(4);
    expect([data().markers, data().clustered]).toEqual([1, 3]);
    // Only the lone load's marker is in the markers' group, on the map.
    const inGroups: string[] = [];
    leaflet().eachLayer((layer) => {
      if (layer instanceof L.CircleMarker && !(layer instanceof ClusterBadge) && leaflet().hasLayer(layer))
        inGroups.push((layer.options as { loadKey?: string }).loadKey ?? '');
    });
    expect(inGroups.filter(Boolean)).toEqual(['e:4']);
    unmount();
  });

  it('zooms a clicked cluster to show its loads apart, past the zoom where clusters end', () => {
    // Five loads in one yard, a few hundred metres apart: one badge at zoom 4, still a heap at zoom 7.
    const yard = [0, 1, 2, 3, 4].map((k) => point(`e:${k + 1}`, 41 + k * 0.002, -90 + k * 0.003));
    const view = (onShowLate?: (keys: string[]) => void) => (
      <LoadMarkersLayer points={yard} selectedKey={null} onShowLate={onShowLate} />
    );
    const r = renderOnMap(view(), { zoom: 4 });
    const badge = r.container.querySelector<SVGPathElement>('path.haulview-cluster')!;
    const [x, y] = markerState(r.container.querySelector('.leaflet-container')!).badges[0]!;
    // jsdom has no 3D transforms: Leaflet's flight is a jump, done when the click returns.
    fireEvent.click(badge, { clientX: x, clientY: y });
    const map = r.map();
    expect(map.getZoom()).toBeGreaterThan(7);
    const inView = map.getBounds();
    const spots = yard.map((p) => map.latLngToContainerPoint([p.lat, p.lon]));
    expect(yard.every((p) => inView.contains([p.lat, p.lon]))).toBe(true);
    // Spread over the view, not a heap of markers drawn over each other.
    const across = Math.max(...spots.map((s) => s.x)) - Math.min(...spots.map((s) => s.x));
    expect(across).toBeGreaterThan(200);
    r.unmount();
  });

  it('hands the keys of a cluster’s late loads to the page when its red count is clicked, and zooms to them', () => {
    const shown: string[][] = [];
    const points = [
      point('e:1', 41, -90),
      { ...point('e:2', 41.05, -90.05), late: true },
      { ...point('e:3', 40.95, -89.95), late: true },
      point('e:4', 41.02, -90.02),
      // Late, but in no cluster of these: never among them.
      { ...point('e:9', 30, -110), late: true },
    ];
    const r = renderOnMap(
      <LoadMarkersLayer points={points} selectedKey={null} onShowLate={(keys) => shown.push(keys)} />,
      { zoom: 4 },
    );
    const state = () => markerState(r.container.querySelector('.leaflet-container')!);
    // The badge of four (the size of its circle tells it from the lone late load's).
    const badgeOfFour = () =>
      [...r.container.querySelectorAll<SVGPathElement>('path.haulview-cluster')].find((p) =>
        (p.getAttribute('d') ?? '').includes(`a${badgeSize(4) / 2}`),
      )!;
    const [x, y, count, late] = state().badges.find((b) => b[2] === 4)!;
    expect([count, late]).toEqual([4, 2]);
    // A click on the disc's lower half is not one on its red count: it zooms, and lists nothing.
    fireEvent.click(badgeOfFour(), { clientX: x, clientY: y! + 5 });
    expect(shown).toEqual([]);
    r.map().setView([41, -90], 4, { animate: false });
    // The pill is at the disc's top right.
    const [px, py] = state().badges.find((b) => b[2] === 4)!;
    fireEvent.click(badgeOfFour(), { clientX: px! + 7, clientY: py! - 7 });
    expect(shown.map((keys) => [...keys].sort())).toEqual([['e:2', 'e:3']]);
    const inView = r.map().getBounds();
    expect(inView.contains([41.05, -90.05]) && inView.contains([40.95, -89.95])).toBe(true);
    expect(r.map().getZoom()).toBeGreaterThan(7);
    r.unmount();
  });

  it('puts the badge where its cluster is after the map jumps far away at the same zoom', async () => {
    // Two clusters of three, 90° apart, laid out alike: after the jump, the second is at the very
    // pixel of the view where the first was (Leaflet counts layer pixels from the view it reset to).
    const trio = (k: number, lon: number) => [
      point(`e:${k}`, 41, lon),
      point(`e:${k + 1}`, 41.05, lon - 0.05),
      point(`e:${k + 2}`, 40.95, lon + 0.05),
    ];
    const { container, leaflet, unmount } = onMap([...trio(1, -90), ...trio(4, 0)]);
    // Where each badge is drawn, as the map's container says: container pixels and count.
    const badges = () => markerState(container.querySelector('.leaflet-container')!).badges;
    expect(badges()).toEqual([[expect.any(Number), expect.any(Number), 3, 0]]);
    const [x, y] = badges()[0]!;
    await act(async () => {
      leaflet().setView([41, 0], 4, { animate: false });
      await new Promise((done) => setTimeout(done, 50));
    });
    // One badge, in the middle of the new view as the first was in the old: not the first one
    // left where it was (off to the west) because its pixel and count matched.
    expect(badges()).toHaveLength(1);
    const [nx, ny] = badges()[0]!;
    expect(Math.abs(nx! - x!)).toBeLessThanOrEqual(1);
    expect(Math.abs(ny! - y!)).toBeLessThanOrEqual(1);
    expect(leaflet().containerPointToLatLng([nx!, ny!]).lng).toBeCloseTo(0, 0);
    // And its circle is drawn there (the layer's pixels, which count from the view Leaflet reset to).
    const d = container.querySelector('path.haulview-cluster')?.getAttribute('d') ?? '';
    const [mx, my] = (/^M(-?[\d.]+),(-?[\d.]+)a(\d+)/.exec(d) ?? []).slice(1).map(Number);
    const drawn = leaflet().layerPointToContainerPoint([mx! + badgeSize(3) / 2, my!]);
    expect(Math.abs(drawn.x - nx!)).toBeLessThanOrEqual(1);
    expect(Math.abs(drawn.y - ny!)).toBeLessThanOrEqual(1);
    unmount();
  });
});
