import { useEffect } from 'react';
import { useMap } from 'react-leaflet';

/**
 * Tells Leaflet when its container changes size: Leaflet follows the window's size only, and the
 * map's box changes without it (a phone switching from the board to the map, a panel opening beside
 * it). Without it, a map first laid out hidden stays 0 px wide.
 */
export function FollowSize() {
  const map = useMap();
  useEffect(() => {
    if (typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(() => map.invalidateSize({ pan: false }));
    observer.observe(map.getContainer());
    return () => observer.disconnect();
  }, [map]);
  return null;
}
