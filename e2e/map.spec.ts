import { expect, test } from '@playwright/test';

test('the demo fleet appears on the map with markers and accuracy circles', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  const map = page.locator('.leaflet-container');
  await expect(map).toBeVisible();
  // The layer writes what Leaflet has on the map; wait for the first answer to be drawn.
  await expect(map).toHaveAttribute('data-markers', /^[1-9]\d*$/);
  const markers = Number(await map.getAttribute('data-markers'));
  const circles = Number(await map.getAttribute('data-circles'));
  expect(circles).toBeGreaterThan(0);
  expect(circles).toBeLessThanOrEqual(markers);
  // Markers are drawn on one canvas, not as one DOM element per load.
  await expect(page.locator('.leaflet-overlay-pane canvas')).toHaveCount(1);
  await expect(page.getByText(new RegExp(`${markers} of \\d+ loads on the map`))).toBeVisible();
  // The offline basemap is there although no tile can load.
  await expect(map).toHaveAttribute('data-basemap', 'ready');
  await page.screenshot({ path: 'test-results/screenshots/map.png' });
  expect(errors).toEqual([]);
});

test('the page says so when the proxy cannot answer, instead of a blank map', async ({ page }) => {
  await page.route('**/api/pull/**', (route) =>
    route.fulfill({
      status: 502,
      contentType: 'application/json',
      body: JSON.stringify({
        error: { code: 'upstream_unreachable', message: 'the upstream could not be reached' },
      }),
    }),
  );
  await page.goto('/');
  await expect(page.getByRole('alert')).toContainText('tracking service cannot be reached');
  await expect(page.locator('.leaflet-container')).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/upstream-down.png' });
});
