import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

const list = (page: Page) => page.getByRole('list', { name: /^Documents, not reviewed/ });
const count = async (page: Page) =>
  Number(/: (\d+) documents?/.exec((await list(page).getAttribute('aria-label')) ?? '')?.[1] ?? NaN);

test('review three documents by keyboard; the state survives a reload; axe finds nothing serious', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.locator('.leaflet-container')).toHaveAttribute('data-markers', /^[1-9]\d*$/);
  await page.getByRole('link', { name: /^Documents/ }).click();
  await expect(page.getByRole('heading', { name: 'Documents', level: 2 })).toBeVisible();
  await expect(list(page)).toBeVisible();
  const before = await count(page);
  expect(before).toBeGreaterThan(3);
  await page.screenshot({ path: 'test-results/screenshots/documents.png' });

  // Focus the first document and review three with the keyboard.
  await list(page).getByRole('listitem').first().locator('[tabindex="0"]').first().focus();
  await page.keyboard.press('r');
  await page.keyboard.press('r');
  await page.keyboard.press('r');
  await expect.poll(() => count(page)).toBe(before - 3);
  await expect(page.getByRole('link', { name: /^Documents/ })).toContainText(String(before - 3));

  await page.reload();
  await expect(list(page)).toBeVisible();
  await expect.poll(() => count(page)).toBe(before - 3);

  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);
});
