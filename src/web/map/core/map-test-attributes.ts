/**
 * The data attributes the load markers write on the map's container, for whoever checks the map
 * without seeing it (vitest and the e2e specs read them through `readMarkerState`). Written outside
 * React's render, at each redraw.
 */
export const MARKER_ATTRIBUTES = {
  /** The points the layer holds. */
  points: 'data-points',
  /** The markers shown (the selected load's included). */
  markers: 'data-markers',
  /** The accuracy circles shown. */
  circles: 'data-circles',
  /** The cluster badges shown. */
  clusters: 'data-clusters',
  /** The loads the badges count (never the selected one), and the late ones among them. */
  clustered: 'data-clustered',
  clusteredLate: 'data-clustered-late',
  /** Where each badge is drawn: `x,y,count,late` (container pixels), space-separated. */
  badges: 'data-badges',
  /** The badges made since the layer was (a pan or a refresh reuses the ones it has). */
  badgesMade: 'data-badges-made',
  /** How many badges the selected marker covers: their counts are written again above it. */
  badgesRelabelled: 'data-badges-relabelled',
  /** Where the cluster index runs: `worker` or `page`. */
  clustersIn: 'data-clusters-in',
  /** `pending` while a redraw adds and removes markers over a few frames, then `done`. */
  drawing: 'data-drawing',
  /** A replay: the instant its layers were last drawn at (epoch ms). */
  replayTime: 'data-replay-time',
  /** A replay: each load drawn, `key:lat,lon,accuracy` (5 decimals, metres; empty: unknown), space-separated. */
  replayPositions: 'data-replay-positions',
  /** The map's view, `lat,lon,zoom` (4 decimals), written when it comes to rest. */
  view: 'data-view',
} as const;

export type MarkerAttribute = keyof typeof MARKER_ATTRIBUTES;

/** A cluster badge as the container lists it: where it is drawn (container px), its count, its late count. */
export type DrawnBadge = [x: number, y: number, count: number, late: number];

/** One badge's entry in `data-badges`. */
export const drawnBadgeText = (x: number, y: number, count: number, late: number) =>
  `${x},${y},${count},${late}`;

export function writeMarkerState(
  container: HTMLElement,
  state: Partial<Record<MarkerAttribute, string | number>>,
): void {
  for (const [key, value] of Object.entries(state) as [MarkerAttribute, string | number][])
    container.setAttribute(MARKER_ATTRIBUTES[key], String(value));
}

/**
 * What the container says, read at one instant (separate reads may straddle a redraw). Self-contained,
 * so that Playwright can run it in the page: `locator.evaluate(readMarkerState, MARKER_ATTRIBUTES)`.
 */
export function readMarkerState(el: Element, names: typeof MARKER_ATTRIBUTES) {
  const text = (name: string) => el.getAttribute(name) ?? undefined;
  const count = (name: string) => Number(el.getAttribute(name) ?? Number.NaN);
  return {
    points: count(names.points),
    markers: count(names.markers),
    circles: count(names.circles),
    clusters: count(names.clusters),
    clustered: count(names.clustered),
    clusteredLate: count(names.clusteredLate),
    badges: (el.getAttribute(names.badges) ?? '')
      .split(' ')
      .filter(Boolean)
      .map((b) => b.split(',').map(Number) as DrawnBadge),
    badgesMade: count(names.badgesMade),
    badgesRelabelled: count(names.badgesRelabelled),
    clustersIn: text(names.clustersIn),
    drawing: text(names.drawing),
    replayTime: count(names.replayTime),
    replayPositions: text(names.replayPositions),
    view: text(names.view),
  };
}

/** `readMarkerState` with this module's names, for tests in the same page. */
export const markerState = (el: Element) => readMarkerState(el, MARKER_ATTRIBUTES);
