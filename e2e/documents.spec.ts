import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

const list = (page: Page) => page.getByRole('list', { name: /^Documents, not reviewed/ });
const count = async (page: Page) =>
  Number(/: (\d+) documents?/.exec((await list(page).getAttribute('aria-label')) ?? '')?.[1] ?? NaN);

/** Picks a review view as a user does, by its label (the radio itself is visually hidden). */
async function show(page: Page, name: RegExp) {
  const radio = page.getByRole('radio', { name });
  await page.locator('label').filter({ has: radio }).click();
  await expect(radio).toBeChecked();
}

/** The count once both kinds of id have answered: it holds still. */
async function settledCount(page: Page): Promise<number> {
  await expect
    .poll(async () => {
      const a = await count(page);
      await page.waitForTimeout(1500);
      return a === (await count(page)) && a > 0;
    })
    .toBe(true);
  return count(page);
}

test('review three documents by keyboard; another browser sees them reviewed; axe finds nothing serious', async ({
  page,
  browser,
}) => {
  await page.goto('/');
  await expect(page.locator('.leaflet-container')).toHaveAttribute('data-markers', /^[1-9]\d*$/);
  await page.getByRole('link', { name: /^Documents/ }).click();
  await expect(page.getByRole('heading', { name: 'Documents', level: 2 })).toBeVisible();
  await expect(list(page)).toBeVisible();
  const before = await settledCount(page);
  expect(before).toBeGreaterThan(3);
  await page.screenshot({ path: 'test-results/screenshots/documents.png' });

  // Focus the first document and review three with the keyboard, noting which three they are: the
  // demo fleet is live, so documents keep arriving and totals alone cannot tell what was kept.
  await list(page).getByRole('listitem').first().locator('[tabindex="0"]').first().focus();
  const reviewed: string[] = [];
  for (let i = 0; i < 3; i += 1) {
    const focused = page.locator('[data-document-item]:focus');
    await expect(focused).toHaveCount(1);
    reviewed.push((await focused.getAttribute('data-url')) ?? '');
    await page.keyboard.press('a');
    await expect(list(page).locator(`[data-url="${reviewed[i]}"]`)).toHaveCount(0);
  }
  expect(new Set(reviewed).size).toBe(3);

  // Kept on the server, approved by the open demo's user.
  await expect
    .poll(async () => {
      const answer = (await (await page.request.get('/api/documents/reviews')).json()) as {
        reviews: { url: string; decision: string; decidedBy: string }[];
      };
      return answer.reviews
        .filter((r) => reviewed.includes(r.url))
        .map((r) => `${r.decision} ${r.decidedBy}`);
    })
    .toEqual(['approved Demo', 'approved Demo', 'approved Demo']);

  // Another browser (nothing in its storage): the Reviewed view holds those three (the store may
  // hold older reviews too), none of them is among those to review, and the badge agrees.
  const other = await browser.newContext();
  try {
    const second = await other.newPage();
    await second.goto('/');
    await expect(second.locator('.leaflet-container')).toHaveAttribute('data-markers', /^[1-9]\d*$/);
    await second.getByRole('link', { name: /^Documents/ }).click();
    await expect(list(second)).toBeVisible();
    const urlsThere = (name: RegExp) =>
      second
        .getByRole('list', { name })
        .locator('[data-document-item]')
        .evaluateAll((items) => items.map((el) => el.getAttribute('data-url')));
    await show(second, /^Reviewed/);
    await expect
      .poll(async () => (await urlsThere(/^Documents, reviewed/)).filter((u) => reviewed.includes(u!)).length)
      .toBe(3);
    await show(second, /^Not reviewed/);
    await expect(list(second)).toBeVisible();
    expect((await urlsThere(/^Documents, not reviewed/)).filter((u) => reviewed.includes(u!))).toEqual([]);
    await expect
      .poll(async () => {
        const n = await count(second);
        const badge = await second.getByRole('link', { name: /^Documents/ }).textContent();
        return badge?.includes(`${n} not reviewed`) ?? false;
      })
      .toBe(true);
  } finally {
    await other.close();
  }

  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);
});

test('a new document arriving on refresh appears once, at the top, not reviewed', async ({ page }) => {
  const url = `https://docs.example.com/pod-${Date.now()}.jpg`;
  let inject = false;
  let target: unknown;
  await page.route('**/api/pull/by-external-id', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { loads: { by: string; id: string; documents?: unknown[] }[] };
    target ??= body.loads[0]?.id;
    if (inject) {
      // A poll after a cursor carries only the loads that changed: the one with the new document.
      if (!body.loads.some((d) => d.id === target))
        body.loads.unshift({ by: 'external-id', id: target as string, documents: [] });
      // As the proxy serves a document (`LoadView`).
      const instant = Date.parse('2099-12-31T15:00:00Z');
      const doc = {
        key: url,
        instant,
        time: { instant, approximate: false, local: '12/31/2099 10:00 EST', zone: 'EST', zoneKnown: true },
        url,
        type: 'POD',
        stopOrderNumber: 2,
        position: { lat: 40.7, lon: -74.0, accuracy: null },
        place: {},
      };
      const load = body.loads.find((d) => d.id === target)!;
      load.documents = [...(load.documents ?? []), doc];
    }
    await route.fulfill({ response, json: body });
  });
  // A first visit watches the demo fleet from the map page.
  await page.goto('/');
  await expect(page.locator('.leaflet-container')).toHaveAttribute('data-markers', /^[1-9]\d*$/);
  await page.getByRole('link', { name: /^Documents/ }).click();
  await expect(list(page)).toBeVisible();
  const before = await settledCount(page);
  inject = true;
  await page.getByRole('button', { name: 'Refresh' }).click();
  // The demo fleet is live: a document of its own may arrive with the same refresh, so the count
  // grows by at least one, and the injected document (dated 2099, the newest) is listed once, first.
  await expect(list(page).locator(`[data-document-item][data-url="${url}"]`)).toHaveCount(1);
  expect(await count(page)).toBeGreaterThanOrEqual(before + 1);
  const first = list(page).getByRole('listitem').first();
  await expect(first.locator('[data-document-item]').first()).toHaveAttribute('data-url', url);
  await expect(first).toContainText('POD');
  await expect(first).toContainText('Not reviewed');
  // Once in the list (the preview beside it shows the current document again).
  await expect(list(page).locator(`img[src="${url}"]`)).toHaveCount(1);
});

test('a dense list at 1440×900: at least ten rows, each at most 64 px, the current one previewed beside; filters survive a reload', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  await expect(page.locator('.leaflet-container')).toHaveAttribute('data-markers', /^[1-9]\d*$/);
  await page.getByRole('link', { name: /^Documents/ }).click();
  await expect(list(page)).toBeVisible();
  expect(await settledCount(page)).toBeGreaterThanOrEqual(10);

  const box = (await list(page).boundingBox())!;
  const rows = await list(page)
    .locator('[data-document-item]')
    .evaluateAll((items) => items.map((el) => el.getBoundingClientRect()).map((r) => [r.top, r.height]));
  for (const [, height] of rows) expect(height).toBeLessThanOrEqual(64);
  const shown = rows.filter(([top, height]) => top! >= 0 && top! + height! <= 900);
  expect(shown.length).toBeGreaterThanOrEqual(10);

  // The current document is previewed beside the list, not below it.
  const first = list(page).locator('[data-document-item]').first();
  const name = (await first.getAttribute('aria-label'))!.replace(/^\d+ of \d+: /, '').split(',')[0]!;
  const preview = page.getByRole('complementary', { name: `Preview: ${name}` });
  await expect(preview).toBeVisible();
  expect((await preview.boundingBox())!.x).toBeGreaterThan(box.x + box.width - 1);
  await page.screenshot({ path: 'test-results/screenshots/documents-1440.png' });

  // Filters are in the address: a reload keeps them. Which stops have documents depends on where the
  // live demo fleet is (one trip in ten never gets its POD): the filter takes whichever is offered.
  const stop = page.getByRole('combobox', { name: 'Stop' });
  await expect(stop.getByRole('option', { name: /^Pickup \(\d+\)$/ })).toHaveCount(1);
  const label = (await stop
    .getByRole('option', { name: /^(Delivery|Pickup) \(\d+\)$/ })
    .first()
    .textContent())!;
  const kind = label.startsWith('Delivery') ? 'delivery' : 'pickup';
  await stop.selectOption({ label });
  await expect(page).toHaveURL(new RegExp(`[?&]stop=${kind}(&|$)`));
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Stop' })).toHaveValue(`v${kind}`);
  await expect(page.getByRole('list', { name: /^Documents, not reviewed, filtered/ })).toBeVisible();

  // A phone: one column, nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(preview).toBeHidden();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: 'test-results/screenshots/documents-390.png' });
});
