import type { Page } from '@playwright/test';
import { manualClock, type Stack } from '@/testing/stack';
import { expect, test } from './support/fixtures';
import { mapState } from './support/map-state';
import { startOwnStack } from './support/own-stack';
import { showsCircle } from '@/web/map/core/accuracy-circle';

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

/** A badge's side in CSS pixels by its count, as `badgeSize` in map/core/cluster-badge.ts draws it. */
const badgeSide = (count: number) => (count < 10 ? 30 : count < 100 ? 36 : count < 1000 ? 42 : 50);

test('a click on a cluster zooms to show its loads; one on its red count shows those loads alone, in the URL', async ({
  page,
}) => {
  const base = stack.proxy.url;
  const config = (await (await page.request.get(`${base}/api/config`)).json()) as {
    demo: { externalIds: string[] } | null;
  };
  const watched = `w=e:${config.demo?.externalIds.join(',')}`;
  const board = page.getByRole('grid', { name: /Loads, \d+ shown/ });
  await page.goto(`${base}/?${watched}&map=39,-96,4`);
  await expect(map(page)).toHaveAttribute('data-clusters', /^[1-9]\d*$/);
  const box = (await map(page).boundingBox())!;
  const before = await drawn(page);
  const late = before.badges.find(([, , , n]) => n > 0);
  expect(late, 'a cluster with loads that need attention').toBeDefined();
  const [x, y, count, lateCount] = late!;

  // Its red count, at the disc's top right.
  const reach = badgeSide(count) / 2 - 4;
  await page.mouse.click(box.x + x + reach, box.y + y - reach);
  await expect(page).toHaveURL(/[?&]only=e:/);
  await expect(board).toHaveAccessibleName(`Loads, ${lateCount} shown`);
  // Each of them needs attention, and the map draws those alone (zoomed to them).
  await expect(board.getByRole('row')).toHaveCount(lateCount);
  await expect(page.getByText(/^\d+ of \d+ loads on the map, as filtered on the board$/)).toContainText(
    `${lateCount} of`,
  );
  const zoom = () => Number(new URL(page.url()).searchParams.get('map')?.split(',')[2]);
  await expect.poll(zoom).toBeGreaterThan(4);
  // A reload keeps the list; "Show every load" lets it go.
  await page.reload();
  await expect(board).toHaveAccessibleName(`Loads, ${lateCount} shown`);
  await page.getByRole('button', { name: 'Show every load' }).click();
  await expect(board).toHaveAccessibleName(`Loads, ${config.demo?.externalIds.length} shown`);
  expect(new URL(page.url()).searchParams.get('only')).toBeNull();

  // A click on a badge's middle: the map zooms in until its loads are drawn, every one counted.
  await page.goto(`${base}/?${watched}&map=39,-96,4`);
  const again = await drawn(page);
  const [bx, by, n] = again.badges.reduce((a, b) => (b[2] > a[2] ? b : a));
  await page.mouse.click(box.x + bx, box.y + by + 4);
  await expect.poll(zoom).toBeGreaterThan(4);
  const after = await drawn(page);
  expect(after.markers + after.clustered).toBeGreaterThanOrEqual(n);
});

test('accuracy circles: drawn where one reaches past its marker, and for the selected load always', async ({
  page,
}) => {
  const base = stack.proxy.url;
  const config = (await (await page.request.get(`${base}/api/config`)).json()) as {
    demo: { externalIds: string[] } | null;
  };
  const answer = (await (
    await page.request.post(`${base}/api/pull/by-external-id`, {
      headers: { 'X-Requested-With': 'haulview' },
      data: {
        ids: config.demo?.externalIds ?? [],
        include: { locations: false, events: false, documents: false, comments: false },
      },
    })
  ).json()) as {
    loads: { id: string; latestLocation?: { lat: number; lon: number; accuracy?: number | null } }[];
  };
  const load = answer.loads.find((l) => (l.latestLocation?.accuracy ?? 0) > 0)!;
  const { lat, lon, accuracy } = load.latestLocation as { lat: number; lon: number; accuracy: number };
  // The first zoom at which its circle reaches past its marker, and the one before.
  let from = 2;
  while (from < 18 && !showsCircle(accuracy, lat, from, false)) from++;
  expect(showsCircle(accuracy, lat, from, false)).toBe(true);
  const at = (zoom: number, selected = false) =>
    `${base}/?w=e:${load.id}&map=${lat},${lon},${zoom}${selected ? `&load=e:${load.id}` : ''}`;

  await page.goto(at(from));
  await expect.poll(async () => (await drawn(page)).markers).toBe(1);
  await expect(map(page)).toHaveAttribute('data-circles', '1');
  await page.goto(at(from - 1));
  await expect.poll(async () => (await drawn(page)).markers).toBe(1);
  await expect(map(page)).toHaveAttribute('data-circles', '0');
  await page.goto(at(from - 1, true));
  await expect(page.locator('path.haulview-selected-marker')).toHaveCount(1);
  await expect(map(page)).toHaveAttribute('data-circles', '1');
});
