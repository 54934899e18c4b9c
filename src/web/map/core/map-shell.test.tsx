import { act, render } from '@testing-library/react';
import type L from 'leaflet';
import { useMap } from 'react-leaflet';
import { describe, expect, it } from 'vitest';
import { withBasemapModules } from '@/testing/basemap-modules';
import { withMapSize } from '@/testing/map-size';
import { MapShell } from './map-shell';

describe('MapShell, the web tiles’ credit', () => {
  withMapSize();
  withBasemapModules();

  const CREDIT = '© OpenStreetMap contributors';

  function shell(tileUrl: string | null) {
    const container = document.createElement('div');
    document.body.append(container);
    let leaflet: L.Map | undefined;
    function Grab() {
      leaflet = useMap();
      return null;
    }
    const r = render(
      <MapShell tileUrl={tileUrl} tileAttribution={CREDIT}>
        <Grab />
      </MapShell>,
      { container },
    );
    return {
      /** Moves the view far away at once: the tiles in view before are taken off. */
      jump: () => act(() => void leaflet?.setView([-30, 120], 4, { animate: false })),
      credit: () => container.querySelector('.leaflet-control-attribution')?.textContent ?? '',
      /** The web tiles' images (the offline basemap's are in a pane of their own). */
      tiles: () => [...container.querySelectorAll<HTMLImageElement>('.leaflet-tile-pane img.leaflet-tile')],
      shown: () => container.querySelector<HTMLElement>('.leaflet-container')?.dataset.webTiles,
      unmount: r.unmount,
    };
  }
  const fire = (tile: HTMLImageElement | undefined, kind: 'load' | 'error') =>
    act(() => void tile?.dispatchEvent(new Event(kind)));

  it('credits the web tiles only once one of them loaded, not while every request fails', () => {
    const map = shell('https://tiles.example/{z}/{x}/{y}.png');
    const tiles = map.tiles();
    expect(tiles.length).toBeGreaterThan(1);
    // Asked for, none in yet: no credit.
    expect(map.credit()).not.toContain(CREDIT);
    // Offline: every request fails, and the map still credits nothing it does not show.
    for (const tile of tiles.slice(1)) fire(tile, 'error');
    expect(map.credit()).not.toContain(CREDIT);
    expect(map.shown()).toBe('0');
    // One tile loads: it shows, so it is credited.
    fire(tiles[0], 'load');
    expect(map.credit()).toContain(CREDIT);
    expect(map.shown()).toBe('1');
    // The network goes: the tile that loaded still shows, credited.
    fire(tiles[1], 'error');
    expect(map.credit()).toContain(CREDIT);
    map.unmount();
  });

  it('takes the credit off once no loaded tile is left, and keeps none without web tiles', () => {
    const map = shell('https://tiles.example/{z}/{x}/{y}.png');
    fire(map.tiles()[0], 'load');
    expect(map.credit()).toContain(CREDIT);
    // Far away, offline: the loaded tile is taken off, the new ones fail.
    map.jump();
    for (const tile of map.tiles()) fire(tile, 'error');
    expect(map.shown()).toBe('0');
    expect(map.credit()).not.toContain(CREDIT);
    map.unmount();
    const none = shell(null);
    expect(none.tiles()).toEqual([]);
    expect(none.credit()).not.toContain(CREDIT);
    none.unmount();
  });
});
