import type { Page } from '@playwright/test';

/** A cluster badge as the map's container lists it: where it is drawn (container px), its count, its late count. */
export type DrawnBadge = [x: number, y: number, count: number, late: number];

/**
 * What the dispatcher's map says it holds and drew, read from its container's data attributes at one
 * instant (the layer writes them outside React's render, so separate reads may straddle a redraw).
 */
export function mapState(page: Page) {
  return page.locator('.leaflet-container').evaluate((el) => ({
    points: Number(el.dataset.points),
    markers: Number(el.dataset.markers),
    clusters: Number(el.dataset.clusters),
    /** The loads the badges count. */
    clustered: Number(el.dataset.clustered),
    made: Number(el.dataset.badgesMade),
    relabelled: Number(el.dataset.badgesRelabelled),
    badges: (el.dataset.badges ?? '')
      .split(' ')
      .filter(Boolean)
      .map((b) => b.split(',').map(Number) as DrawnBadge),
  }));
}

/** Every load the map holds drawn once: as a marker, or counted by a badge (0 when so). */
export async function uncounted(page: Page): Promise<number> {
  const s = await mapState(page);
  return s.points - s.markers - s.clustered;
}
