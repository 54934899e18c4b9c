import type { Page } from '@playwright/test';
import { manualClock, type Stack } from '@/testing/stack';
import { expect, test } from './support/fixtures';
import { mapState } from './support/map-state';
import { startOwnStack } from './support/own-stack';

const map = (page: Page) => page.locator('.leaflet-container');

/** What the map's container says it drew, read once a redraw is done. */
async function drawn(page: Page) {
  await expect(map(page)).toHaveAttribute('data-drawing', 'done');
  return mapState(page);
}

// The fleet stands still for the cluster test: which loads share a cluster must not change between
// the view without a selection and the views with one.
let stack: Stack;
test.beforeAll(async () => {
  stack = await startOwnStack({ loads: 40, now: manualClock(Date.now()).now });
});
test.afterAll(async () => {
  await stack?.close();
});

test('a selected load is taken out of its cluster: the badges count the others, every load counted once', async ({
  page,
}) => {
  const base = stack.proxy.url;
  const config = (await (await page.request.get(`${base}/api/config`)).json()) as {
    demo: { externalIds: string[] } | null;
  };
  const ids = config.demo?.externalIds ?? [];
  // Fleet zoom over the lower 48: most of the demo's loads are in clusters.
  await page.goto(`${base}/?map=39,-96,4`);
  await expect(map(page)).toHaveAttribute('data-clusters', /^[1-9]\d*$/);
  const whole = await drawn(page);
  expect(whole.clustered + whole.markers).toBe(whole.points);
  // Loads selected one after another: each is drawn alone and counted once, by its marker, not
  // also by the badge of the cluster it was in (that badge counts the others).
  let found = false;
  for (const id of ids) {
    await page.goto(`${base}/?map=39,-96,4&load=e:${id}`);
    await expect(page.locator('path.haulview-selected-marker')).toHaveCount(1);
    await expect
      .poll(async () => {
        const now = await drawn(page);
        return now.clustered + now.markers - now.points;
      })
      .toBe(0);
    const now = await drawn(page);
    // It was in a cluster: the badges count one load less than without a selection.
    if (now.clustered === whole.clustered - 1) {
      found = true;
      // A badge under the selected marker has its counts written above it.
      const labels = page.locator('.leaflet-haulview-selected-badges-pane .haulview-cluster-label');
      await expect(labels).toHaveCount(now.relabelled);
      break;
    }
  }
  expect(found, 'a load in a cluster was selected and taken out of it').toBe(true);
});

test('the trail legend shows the shapes the map draws for documents and comments', async ({ page }) => {
  const base = stack.proxy.url;
  const config = (await (await page.request.get(`${base}/api/config`)).json()) as {
    demo: { externalIds: string[] } | null;
  };
  await page.goto(`/?load=e:${config.demo?.externalIds[0]}`);
  const legend = page.getByRole('list', { name: 'Trail legend' });
  await expect(legend.locator('svg[data-place="document"]')).toHaveCount(1);
  await expect(legend.locator('svg[data-place="comment"]')).toHaveCount(1);
  // No DOM marker per place: they are on the map's one canvas.
  await expect(page.locator('.leaflet-marker-pane > *')).toHaveCount(0);
});
