import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { demoFleet } from './support/demo-fleet';
import { expect, test } from './support/fixtures';

/** A reefer load that is rolling, found through the proxy as the SPA would. */
async function rollingReefer(page: Page): Promise<string> {
  const load = (await demoFleet(page)).find(
    (d) => d.latestTemperature && (d.pings?.length ?? 0) > 0 && (d.documents?.length ?? 0) > 0,
  );
  if (!load) throw new Error('the demo fleet has no rolling reefer with documents');
  return load.id;
}

test('open a reefer load from the board: chart, timeline, documents viewer, a ping pans the map', async ({
  page,
}) => {
  await page.goto('/');
  const id = await rollingReefer(page);
  await page.getByRole('searchbox', { name: 'Filter loads' }).fill(id);
  await page.getByRole('row').filter({ hasText: id }).click();
  await page.getByRole('link', { name: 'Details' }).click();
  await expect(page).toHaveURL(new RegExp(`/loads/external-id/${id}`));
  await expect(page.getByRole('heading', { level: 2 })).toContainText(id);
  await expect(page.getByRole('region', { name: 'Temperatures' }).getByRole('img')).toBeVisible();
  await expect(page.getByRole('region', { name: /Timeline, newest first, \d+ shown/ })).toBeVisible();
  await expect(page.getByText(/App and system notices \(\d+ hidden\)/)).toBeVisible();
  const map = page.locator('.leaflet-container');
  await expect(map).toHaveAttribute('data-breadcrumb', /^[1-9]\d*$/);
  // Where the load is now, with its accuracy circle.
  await expect(map).toHaveAttribute('data-markers', '1');
  await expect(map).toHaveAttribute('data-circles', '1');
  await page.screenshot({ path: 'test-results/screenshots/load-detail.png' });
  // Zoomed out, the pings' own circles are not drawn (nor made); a ping from the list flies the map
  // in to it, and there every ping shows its circle.
  await expect(map).toHaveAttribute('data-ping-circles', '0');
  await page
    .getByRole('region', { name: /^Pings, newest first/ })
    .getByRole('button', { name: /^Show on map/ })
    .first()
    .click();
  await expect(map).toHaveAttribute('data-ping-circles', /^[1-9]\d*$/);

  // The documents viewer: a dialog with previous/next, closed with Escape.
  await page
    .getByRole('region', { name: /Documents/ })
    .getByRole('button', { name: /^Open / })
    .first()
    .click();
  const viewer = page.getByRole('dialog');
  await expect(viewer).toBeVisible();
  await expect(viewer.getByRole('img').first()).toHaveAttribute('referrerpolicy', 'no-referrer');
  await page.screenshot({ path: 'test-results/screenshots/document-viewer.png' });
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();

  const results = await new AxeBuilder({ page }).exclude('.leaflet-container').analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);

  // The way back keeps the board as it was left: its filter, with the load selected.
  await page.getByRole('link', { name: '← Back to the map' }).click();
  await expect(page.getByRole('searchbox', { name: 'Filter loads' })).toHaveValue(id);
  expect(new URL(page.url()).searchParams.get('load')).toBe(`e:${id}`);
});

test('a comment arriving with the delta refresh shows once, marked new, and pans the map to where it was sent', async ({
  page,
}) => {
  await page.goto('/');
  const id = await rollingReefer(page);
  const text = `Gate code 4471, dock ${Date.now() % 1000}`;
  let inject = false;
  const since: boolean[] = [];
  await page.route('**/api/pull/by-external-id', async (route) => {
    const request = route.request().postDataJSON() as {
      ids: string[];
      since?: string;
      include?: { comments?: boolean };
    };
    const response = await route.fetch();
    const body = (await response.json()) as { loads: { by: string; id: string; comments?: unknown[] }[] };
    if (request.ids.includes(id) && request.include?.comments !== false) {
      since.push(request.since !== undefined);
      if (inject) {
        // A delta carries only the loads that changed. (A comment the service repeats is folded by the
        // proxy, which serves each item once.)
        let load = body.loads.find((d) => d.id === id);
        if (!load) body.loads.unshift((load = { by: 'external-id', id, comments: [] }));
        // As the proxy serves a comment (`LoadView`).
        const instant = Date.parse('2099-12-31T15:00:00Z');
        const comment = {
          key: `${instant}|D|${text}`,
          instant,
          time: { instant, approximate: false, local: '12/31/2099 10:00 EST', zone: 'EST', zoneKnown: true },
          text,
          by: 'driver',
          position: { lat: 41.8781, lon: -87.6298, accuracy: 25 },
          place: { city: 'Chicago', state: 'IL' },
        };
        load.comments = [...(load.comments ?? []), comment];
      }
    }
    await route.fulfill({ response, json: body });
  });
  await page.goto(`/loads/external-id/${id}`);
  const timeline = page.getByRole('region', { name: /^Timeline, newest first/ });
  await expect(timeline).toBeVisible();
  inject = true;
  await page.getByRole('button', { name: 'Refresh now' }).click();
  const conversation = page.getByRole('list', { name: 'Conversation' });
  const mine = conversation.getByRole('listitem').filter({ hasText: text });
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText('New');
  await expect(timeline.getByRole('article').filter({ hasText: text })).toHaveCount(1);
  // The refresh asked with the cursor: the panel merged a delta, not a second full track.
  expect(since.at(-1)).toBe(true);
  // A later refresh brings the same comment again: still once.
  await page.getByRole('button', { name: 'Refresh now' }).click();
  await expect.poll(() => since.length).toBeGreaterThan(2);
  await expect(mine).toHaveCount(1);
  await expect(timeline.getByRole('article').filter({ hasText: text })).toHaveCount(1);

  await mine.getByRole('button', { name: 'Show on map' }).click();
  await expect(page.locator('.leaflet-container')).toHaveAttribute('data-flown-to', '41.8781,-87.6298');
  await page.screenshot({ path: 'test-results/screenshots/load-detail-comment.png' });
});
