import type { Page } from '@playwright/test';
import { manualClock, type Stack } from '@/testing/stack';
import { expect, test } from './support/fixtures';
import { uncounted } from './support/map-state';
import { startOwnStack } from './support/own-stack';

// A fleet that stands still: what fits on a screen does not change while a test measures it.
let stack: Stack;
let ids: string[] = [];
test.beforeAll(async () => {
  stack = await startOwnStack({ loads: 40, now: manualClock(Date.now()).now });
  const config = (await (await fetch(`${stack.proxy.url}/api/config`)).json()) as {
    demo: { externalIds: string[] } | null;
  };
  ids = config.demo?.externalIds ?? [];
});
test.afterAll(async () => {
  await stack?.close();
});

const map = (page: Page) => page.locator('.leaflet-container');
const board = (page: Page) => page.getByRole('grid', { name: /Loads, \d+ shown/ });
const watched = () => `w=e:${ids.join(',')}`;

/** The page is no wider than the screen: nothing to scroll sideways to. */
async function overflow(page: Page): Promise<number> {
  return page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - window.innerWidth);
}

/** Where an element is, or fails the test when it has no box (not shown). */
async function box(page: Page, locator: ReturnType<Page['locator']>) {
  const b = await locator.boundingBox();
  expect(b, `${String(locator)} has a box`).not.toBeNull();
  return b!;
}

test.describe('a phone, 390 × 844', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the dispatcher shows the board or the map with a switch kept in the URL, and nothing scrolls sideways', async ({
    page,
  }) => {
    const base = stack.proxy.url;
    await page.goto(`${base}/?${watched()}&load=e:${ids[0]}`);
    await expect(board(page)).toHaveAccessibleName(`Loads, ${ids.length} shown`);
    const show = page.getByRole('group', { name: 'Show' });
    await expect(show.getByRole('button', { name: 'Board' })).toHaveAttribute('aria-pressed', 'true');
    await expect(board(page)).toBeVisible();
    await expect(map(page)).toBeHidden();
    await expect(page.getByRole('region', { name: 'Selected load' })).toBeVisible();
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    await show.getByRole('button', { name: 'Map' }).click();
    await expect(page).toHaveURL(/[?&]view=map(&|$)/);
    await expect(board(page)).toBeHidden();
    // The map fills the screen's width, and its loads are drawn (laid out hidden, it had no size).
    expect((await box(page, map(page))).width).toBe(390);
    await expect(map(page)).toHaveAttribute('data-drawing', 'done');
    await expect(map(page)).toHaveAttribute('data-points', /^[1-9]\d*$/);
    // Every load with a position drawn: a marker, or counted by a cluster's badge.
    await expect.poll(() => uncounted(page)).toBe(0);
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    // A reload opens the map again.
    await page.reload();
    await expect(map(page)).toBeVisible();
    await expect(board(page)).toBeHidden();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
  });

  test('the navigation is a menu whose links all fit on the screen', async ({ page }) => {
    await page.goto(`${stack.proxy.url}/?${watched()}`);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const diagnostics = nav.getByRole('link', { name: 'Diagnostics' });
    await expect(diagnostics).toBeHidden();
    await nav.getByRole('button', { name: 'Menu' }).click();
    for (const name of ['Map', /^Documents/, 'Webhooks', 'Diagnostics']) {
      const link = nav.getByRole('link', { name });
      await expect(link).toBeVisible();
      const b = await box(page, link);
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width).toBeLessThanOrEqual(390);
    }
    await diagnostics.click();
    await expect(page).toHaveURL(/\/diagnostics/);
    await expect(diagnostics).toBeHidden();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
  });

  test('the load page is one readable column under a strip of map', async ({ page }) => {
    await page.goto(`${stack.proxy.url}/loads/external-id/${ids[0]}`);
    const summary = page.getByRole('region', { name: 'Summary' });
    await expect(summary).toBeVisible();
    // As wide as the screen less its margins: the map no longer takes two fifths of it.
    expect((await box(page, summary)).width).toBeGreaterThan(300);
    const mapBox = await box(page, page.getByRole('region', { name: 'Map of this load' }));
    expect(mapBox.width).toBe(390);
    expect(mapBox.y + mapBox.height).toBeLessThanOrEqual((await box(page, summary)).y);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
  });
});

test.describe('a laptop, 1280 × 720', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('with a load selected, at least ten board rows show whole beside the map', async ({ page }) => {
    await page.goto(`${stack.proxy.url}/?${watched()}&load=e:${ids[0]}`);
    await expect(board(page)).toHaveAccessibleName(`Loads, ${ids.length} shown`);
    const panel = page.getByRole('region', { name: 'Selected load' });
    await expect(panel).toContainText(ids[0]!);
    // The watch list is one line while loads are watched; its form opens on demand.
    await expect(page.getByRole('button', { name: 'Add or clear loads' })).toBeVisible();
    await expect(page.getByLabel(/Watch loads/)).toHaveCount(0);
    const grid = await box(page, board(page));
    const rows = await board(page)
      .getByRole('row')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => [r.top, r.bottom]));
    const whole = rows.filter(([top, bottom]) => top! >= grid.y && bottom! <= grid.y + grid.height + 0.5);
    expect(whole.length).toBeGreaterThanOrEqual(10);
    // The selected load's panel is over the map, beside the board, not over its rows.
    expect((await box(page, panel)).x).toBeGreaterThanOrEqual(grid.x + grid.width);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
  });
});
