import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import { manualClock, type Stack } from '@/testing/stack';
import { addUser } from '@/server/auth/users';
import type { Store } from '@/server/store/store';
import { expect, test } from './support/fixtures';
import { openTestStore, startOwnStack } from './support/own-stack';

/**
 * Issue 36: the header's bell. An admin's rule fires on the stack's clock (stepped by the test); a
 * dispatcher's bell counts the alerts new to her, lists the latest with their loads, is worked from
 * the keyboard, and counts again from zero once she has looked; another user's count is his own.
 */
const clock = manualClock(Date.now());
const USERS = {
  admin: ['Ada', 'ada-has-a-long-password'],
  dispatcher: ['Ana', 'ana-has-a-long-password'],
} as const;
let store: { store: Store; close: () => Promise<void> };
let stack: Stack;

test.beforeAll(async () => {
  store = await openTestStore();
  for (const [role, [name, password]] of Object.entries(USERS))
    await addUser(store.store.db, { name, role: role as 'admin' | 'dispatcher', password }, 'test');
  // The bell polls every REFRESH_SECONDS: the shortest, so the test waits for no long interval.
  stack = await startOwnStack({
    loads: 40,
    now: clock.now,
    store: store.store,
    env: { REFRESH_SECONDS: '2' },
  });
});
test.afterAll(async () => {
  await stack?.close();
  await store?.close();
});

async function asUser(browser: Browser, [username, password]: readonly [string, string], path: string) {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
  await page.goto(`${stack.proxy.url}${path}`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('banner')).toContainText(username);
  return page;
}

const bell = (page: Page) => page.getByRole('button', { name: /^Alerts, / });
const latest = (page: Page) => page.getByRole('list', { name: 'Latest alerts' }).getByRole('listitem');

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include('header').analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

test('the bell counts the alerts new to each user, lists the latest, and is worked from the keyboard', async ({
  browser,
}) => {
  const admin = await asUser(browser, USERS.admin, '/admin/alerts');
  await admin.getByLabel('Alert when').selectOption('late');
  await admin.getByLabel('After (minutes late)').fill('0');
  await admin.getByRole('button', { name: 'Add rule' }).click();
  await expect(admin.getByRole('list', { name: 'Rules' }).getByRole('listitem')).toHaveCount(1);

  // The dispatcher's board watches the demo fleet: the server holds it from then on.
  const ana = await asUser(browser, USERS.dispatcher, '/');
  // Its rows drawn: the proxy holds the fleet's tracks, so the rule has loads to judge.
  await expect(ana.locator('[role=row][data-load]').first()).toBeVisible();
  await expect(bell(ana)).toHaveAccessibleName('Alerts, none new');
  await stack.alerts!.tick();
  await stack.alerts!.tick();
  const fired = (
    (await (await ana.request.get(`${stack.proxy.url}/api/alerts`)).json()) as {
      alerts: { id: string; load: string }[];
    }
  ).alerts;
  expect(fired.length).toBeGreaterThan(0);
  const n = fired.length;
  // Without a reload: the bell's own refresh brings them.
  await expect(bell(ana)).toHaveAccessibleName(`Alerts, ${n} new alert${n === 1 ? '' : 's'}`);
  await expect(ana.getByRole('banner').getByRole('status')).toHaveText(`${n} new alert${n === 1 ? '' : 's'}`);

  // From the keyboard: Log out, then the bell; Enter opens it, Tab reaches its first load.
  await ana.getByRole('button', { name: 'Log out' }).focus();
  await ana.keyboard.press('Tab');
  await expect(bell(ana)).toBeFocused();
  await ana.keyboard.press('Enter');
  await expect(latest(ana)).toHaveCount(Math.min(n, 10));
  await expect(latest(ana).first()).toContainText(fired[0]!.load);
  await expect(latest(ana).first()).toContainText('new');
  expect(await seriousViolations(ana)).toEqual([]);
  // The header still fits the screen with the bell open.
  expect(
    await ana.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await expect(bell(ana)).toHaveAccessibleName('Alerts, none new');
  await ana.keyboard.press('Tab');
  await expect(latest(ana).first().getByRole('link', { name: fired[0]!.load })).toBeFocused();
  await ana.keyboard.press('Escape');
  await expect(ana.getByRole('list', { name: 'Latest alerts' })).toBeHidden();
  await expect(bell(ana)).toBeFocused();

  // Looked at: a reload keeps the count at none; See all opens Exceptions with every alert.
  await ana.reload();
  await expect(bell(ana)).toHaveAccessibleName('Alerts, none new');
  await bell(ana).click();
  await ana.getByRole('link', { name: /^See all/ }).click();
  await expect(ana).toHaveURL(/\/exceptions$/);
  await expect(ana.getByRole('heading', { name: `Alerts (${n})` })).toBeVisible();

  // The admin has not looked: his count is his own.
  await admin.reload();
  await expect(bell(admin)).toHaveAccessibleName(`Alerts, ${n} new alert${n === 1 ? '' : 's'}`);

  // A load's link in the bell opens its page.
  await bell(admin).click();
  await latest(admin).first().getByRole('link').click();
  await expect(admin).toHaveURL(/\/loads\/(external-id|load-number)\//);
  await expect(admin.getByRole('list', { name: 'Latest alerts' })).toBeHidden();
});

test('the bell fits the header on a phone, open', async ({ browser }) => {
  const ana = await asUser(browser, USERS.dispatcher, '/');
  await ana.setViewportSize({ width: 390, height: 844 });
  await bell(ana).click();
  // The panel, with or without alerts in it: its "See all" link is always there.
  const seeAll = ana.getByRole('link', { name: /^See all/ });
  await expect(seeAll).toBeVisible();
  expect(
    await ana.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  const panel = await ana.locator('[data-alert-bell] > [id]').boundingBox();
  expect(panel!.x).toBeGreaterThanOrEqual(0);
  expect(panel!.x + panel!.width).toBeLessThanOrEqual(390);
  expect(await seriousViolations(ana)).toEqual([]);
});
