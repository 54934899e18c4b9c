import type { BasemapDetail } from './basemap-tiles';

/** What the page asks the basemap's worker; each `load` and `draw` is answered by its id. */
export type BasemapRequest =
  /** Fetch and make a detail's shapes now, before a tile needs them. */
  | { kind: 'load'; id: number; detail: BasemapDetail }
  /** Draw tile (x, y, z) with a detail's shapes at a pixel ratio, as a PNG. */
  | { kind: 'draw'; id: number; x: number; y: number; z: number; ratio: number; detail: BasemapDetail }
  /** The tile of a `draw` left the map: not drawn if it is still waiting (answered with no image). */
  | { kind: 'cancel'; id: number }
  /** An image's URL is no longer shown: the worker that made it lets it go. */
  | { kind: 'release'; url: string };

/**
 * What the worker answers: the URL of the tile's image (null when it was cancelled), or why it failed.
 * The worker makes the URL: registering a blob's URL is a synchronous call to the browser.
 */
export type BasemapReply =
  { kind: 'done'; id: number; image: string | null } | { kind: 'failed'; id: number; message: string };
