import { useState, type ReactNode } from 'react';
import { MapContainer } from 'react-leaflet';
import { BasemapLayer } from '../layers/basemap-layer';
import { WebTileLayer } from '../layers/web-tile-layer';
import { FollowSize } from './follow-size';
import { spriteCanvas } from './sprite-canvas';

export interface MapShellProps {
  tileUrl: string | null;
  tileAttribution: string;
  children?: ReactNode;
}

/** North America, where the fleet runs, until the loads say otherwise. */
const INITIAL_CENTER: [number, number] = [40, -96];
const INITIAL_ZOOM = 4;

/**
 * The map every view shares: one canvas renderer for all vector layers (solid markers stamped from
 * sprites), the offline basemap under the tiles so the map reads without network, and tiles when
 * configured, credited while they show (none offline).
 * Children move the view through `useMap()`; MapContainer's props are never changed after mount.
 */
export function MapShell({ tileUrl, tileAttribution, children }: MapShellProps) {
  const [renderer] = useState(() => spriteCanvas());
  return (
    <MapContainer
      center={INITIAL_CENTER}
      zoom={INITIAL_ZOOM}
      minZoom={2}
      maxZoom={18}
      preferCanvas
      renderer={renderer}
      // One wheel notch (100 px) is one zoom level; Leaflet's 60 made it two, and a flick several.
      wheelPxPerZoomLevel={120}
      // Tiles come in whole: a fade sets every tile's opacity at each frame while any tile fades in,
      // main-thread work in the frames of a pan, a zoom and the first draw.
      fadeAnimation={false}
      worldCopyJump
      className="h-full w-full"
      attributionControl
    >
      <FollowSize />
      <BasemapLayer />
      {tileUrl && <WebTileLayer url={tileUrl} attribution={tileAttribution} />}
      {children}
    </MapContainer>
  );
}
