import L from 'leaflet';

/**
 * A `tileloadstart` handler that places the tile by `left` and `top` instead of the `translate3d`
 * Leaflet gives it: a 3D transform makes each tile a composited layer of its own (twenty in a view),
 * and every frame's commit of the page's layers pays for each. Leaflet sets a tile's place only
 * when it adds the tile; a pan moves the map's pane, a zoom scales the tiles' level container.
 */
export function placeTileFlat(e: L.TileEvent): void {
  const at = L.DomUtil.getPosition(e.tile);
  e.tile.style.transform = '';
  e.tile.style.left = `${at.x}px`;
  e.tile.style.top = `${at.y}px`;
}
