import L from 'leaflet';
import { useEffect } from 'react';
import { useMap } from 'react-leaflet';
import { placeTileFlat } from '../core/flat-tiles';

export interface WebTileLayerProps {
  /** The tile template (`{z}/{x}/{y}`). */
  url: string;
  /** The tiles' credit ("© OpenStreetMap contributors"), as safe HTML (the server checked it). */
  attribution: string;
}

/**
 * Web tiles over the offline basemap, credited while any of them is on the map: the attribution is
 * added when a tile loads and removed once no loaded tile is left (each one failed, or was taken off
 * as the view moved on). With no network every request fails, and "© OpenStreetMap" under a map drawn
 * from the offline basemap alone would credit what is not shown; tiles that loaded keep their credit
 * after the network goes, as long as they show. The map's `data-web-tiles` says how many loaded
 * tiles it shows.
 */
export function WebTileLayer({ url, attribution }: WebTileLayerProps) {
  const map = useMap();
  useEffect(() => {
    const layer = L.tileLayer(url, { maxZoom: 19 });
    const loaded = new Set<HTMLElement>();
    let credited = false;
    const follow = () => {
      const wanted = loaded.size > 0;
      if (wanted !== credited) {
        credited = wanted;
        if (wanted) map.attributionControl?.addAttribution(attribution);
        else map.attributionControl?.removeAttribution(attribution);
      }
      map.getContainer().dataset.webTiles = String(loaded.size);
    };
    const gone = (e: L.TileEvent) => {
      if (loaded.delete(e.tile)) follow();
    };
    layer.on({
      // Placed flat, as the basemap's tiles (see flat-tiles.ts).
      tileloadstart: placeTileFlat,
      tileload: (e: L.TileEvent) => {
        loaded.add(e.tile);
        follow();
      },
      tileerror: gone,
      tileunload: gone,
    });
    follow();
    layer.addTo(map);
    return () => {
      layer.off().remove();
      loaded.clear();
      follow();
      delete map.getContainer().dataset.webTiles;
    };
  }, [map, url, attribution]);
  return null;
}
