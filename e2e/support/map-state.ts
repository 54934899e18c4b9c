import type { Page } from '@playwright/test';
import { MARKER_ATTRIBUTES, readMarkerState } from '@/web/map/core/map-test-attributes';

/**
 * What the dispatcher's map says it holds and drew, read from its container's data attributes at one
 * instant (the layer writes them outside React's render, so separate reads may straddle a redraw).
 */
export async function mapState(page: Page) {
  const s = await page.locator('.leaflet-container').evaluate(readMarkerState, MARKER_ATTRIBUTES);
  return {
    points: s.points,
    markers: s.markers,
    clusters: s.clusters,
    /** The loads the badges count. */
    clustered: s.clustered,
    made: s.badgesMade,
    relabelled: s.badgesRelabelled,
    badges: s.badges,
  };
}

/** Every load the map holds drawn once: as a marker, or counted by a badge (0 when so). */
export async function uncounted(page: Page): Promise<number> {
  const s = await mapState(page);
  return s.points - s.markers - s.clustered;
}
