import type { Browser, Page } from '@playwright/test';
import { manualClock, type Stack } from '@/testing/stack';
import type { Store } from '@/server/store/store';
import { expect, test } from './support/fixtures';
import { openTestStore, startOwnStack } from './support/own-stack';

// Each test has its own store and its own stack; the fleet stands still.
let store: { store: Store; close: () => Promise<void> };
let stack: Stack;
const clock = manualClock(Date.now());

test.beforeEach(async () => {
  store = await openTestStore();
  stack = await startOwnStack({ loads: 6, now: clock.now, store: store.store });
});
test.afterEach(async () => {
  await stack?.close();
  await store?.close();
});

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

async function logIn(page: Page, username: string, password: string) {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

test('the open demo shows each role’s view; adding the first user, an admin, ends it', async ({ page }) => {
  await page.goto(`${stack.proxy.url}/`);
  const banner = page.getByRole('region', { name: 'Open demo mode' });
  await expect(banner).toContainText('Open demo: you act as admin');
  await expect(nav(page).getByRole('link')).toHaveText([
    'Map',
    'Exceptions',
    /Documents/,
    'Billing',
    'Share links',
    'Webhooks',
    'Diagnostics',
    'Users',
    'Audit',
  ]);

  await banner.getByRole('button', { name: 'Dispatcher' }).click();
  await expect(banner.getByRole('button', { name: 'Dispatcher' })).toHaveAttribute('aria-pressed', 'true');
  await expect(nav(page).getByRole('link')).toHaveText(['Map', 'Exceptions']);
  await page.goto(`${stack.proxy.url}/webhooks`);
  await expect(
    page.getByText('This page is for admin users; you are logged in as a dispatcher.'),
  ).toBeVisible();
  const refused = await page.request.post(`${stack.proxy.url}/api/webhooks`, {
    headers: { 'X-Requested-With': 'haulview', 'Content-Type': 'application/json' },
    data: { eventType: 'LOAD_DELIVERED', clientUrl: 'https://example.com/hook' },
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('forbidden_role');

  await page.getByRole('region', { name: 'Open demo mode' }).getByRole('button', { name: 'Admin' }).click();
  await nav(page).getByRole('link', { name: 'Users' }).click();
  await page.getByLabel('Name').fill('Ada');
  await page.getByRole('button', { name: 'Add user' }).click();
  const shown = page.getByRole('status').filter({ hasText: 'shown once' });
  await expect(shown).toContainText('Password for Ada');
  const password = (await shown.locator('code').textContent()) ?? '';
  expect(password).toMatch(/^[\w-]{24}$/);
  await shown.getByRole('button', { name: 'Done' }).click();
  // The demo is over; this browser goes on as Ada.
  await expect(page.getByRole('region', { name: 'Open demo mode' })).toHaveCount(0);
  await expect(page.getByRole('banner')).toContainText('Ada · Admin');
  await expect(page.getByRole('row', { name: /Ada/ })).toContainText('Active');

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('heading', { name: 'Log in to Haulview' })).toBeVisible();
  await logIn(page, 'ada', 'not the password');
  await expect(page.getByRole('alert')).toHaveText('Wrong username or password.');
  await logIn(page, 'ada', password);
  await expect(page.getByRole('banner')).toContainText('Ada · Admin');

  // The audit page shows what just happened, newest first.
  await nav(page).getByRole('link', { name: 'Audit' }).click();
  const entries = page.getByRole('region', { name: 'Audit entries' });
  await expect(entries.getByRole('row').nth(1)).toContainText(/Ada\s*Logged in/);
  await expect(entries.getByRole('row').nth(2)).toContainText(/anonymous\s*Failed login\s*ada/);
  await expect(entries).toContainText('User added');
  await page.getByLabel('Action').selectOption('login.failed');
  await expect(entries.getByRole('row')).toHaveCount(2);
  await page.screenshot({ path: 'test-results/screenshots/audit-log.png', fullPage: true });
});

async function asUser(browser: Browser, url: string, username: string, password: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await logIn(page, username, password);
  await expect(page.getByRole('banner')).toContainText(username);
  return page;
}

test('two browsers: an admin adds a dispatcher, who logs in, sees no admin page, and stays logged in over a restart', async ({
  page,
  browser,
}) => {
  await page.goto(`${stack.proxy.url}/admin/users`);
  await page.getByLabel('Name').fill('Ada');
  await page.getByLabel(/^Password/).fill('ada-has-a-long-password');
  await page.getByRole('button', { name: 'Add user' }).click();
  await expect(page.getByRole('banner')).toContainText('Ada · Admin');
  await page.getByLabel('Name').fill('Dan');
  await page.getByLabel('Role', { exact: true }).selectOption('dispatcher');
  await page.getByLabel(/^Password/).fill('dan-has-a-long-password');
  await page.getByRole('button', { name: 'Add user' }).click();
  await expect(page.getByRole('row', { name: /Dan/ })).toContainText('Active');

  const dan = await asUser(browser, `${stack.proxy.url}/`, 'Dan', 'dan-has-a-long-password');
  await expect(dan.getByRole('banner')).toContainText('Dan · Dispatcher');
  await expect(nav(dan).getByRole('link')).toHaveText(['Map', 'Exceptions']);
  await expect(dan.locator('[data-load]').first()).toBeVisible();
  const refused = await dan.request.post(`${stack.proxy.url}/api/webhooks`, {
    headers: { 'X-Requested-With': 'haulview', 'Content-Type': 'application/json' },
    data: { eventType: 'LOAD_DELIVERED', clientUrl: 'https://example.com/hook' },
  });
  expect(refused.status()).toBe(403);

  // A restart: another server on the same store. Both browsers are still logged in.
  await stack.close();
  stack = await startOwnStack({ loads: 6, now: clock.now, store: store.store });
  await dan.goto(`${stack.proxy.url}/`);
  await expect(dan.getByRole('banner')).toContainText('Dan · Dispatcher');
  await page.goto(`${stack.proxy.url}/admin/users`);
  await expect(page.getByRole('banner')).toContainText('Ada · Admin');

  // The admin disables Dan: his next request finds his session gone.
  await page.getByRole('button', { name: 'Disable Dan' }).click();
  await expect(page.getByRole('row', { name: /Dan/ })).toContainText('Disabled');
  await dan.reload();
  await expect(dan.getByRole('heading', { name: 'Log in to Haulview' })).toBeVisible();
  await dan.context().close();
});

test('a saved board opens from the Boards menu and by link, with its watch list and filter', async ({
  page,
}) => {
  await page.goto(`${stack.proxy.url}/`);
  await page.getByRole('checkbox', { name: /Needs attention/ }).check();
  await expect(page).toHaveURL(/[?&]stale=1/);
  const boardsButton = page.getByRole('button', { name: 'Boards' });
  await boardsButton.click();
  await expect(page.getByText('No saved boards yet.')).toBeVisible();
  await page.getByLabel('Save this board as').fill('Needs a call');
  await page.getByLabel('Share with the team').check();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved “Needs a call”.' })).toBeVisible();
  const item = page.getByRole('list', { name: 'Saved boards' }).getByRole('listitem');
  await expect(item).toHaveText(/Needs a call\s*shared by Demo/);

  // A plain board, then the saved one from the menu: its filter comes back.
  await page.goto(`${stack.proxy.url}/`);
  await expect(page.getByRole('checkbox', { name: /Needs attention/ })).not.toBeChecked();
  await boardsButton.click();
  await page.getByRole('link', { name: 'Needs a call' }).click();
  await expect(page).toHaveURL(/[?&]stale=1/);
  await expect(page.getByRole('checkbox', { name: /Needs attention/ })).toBeChecked();

  // By link: ?board=<id> opens it; an unknown id says so.
  const id = (await store.store.db.selectFrom('saved_boards').select('id').executeTakeFirstOrThrow()).id;
  await page.goto(`${stack.proxy.url}/?board=${id}`);
  await expect(page).toHaveURL(/[?&]stale=1/);
  await expect(page).not.toHaveURL(/board=/);
  await page.goto(`${stack.proxy.url}/?board=999999`);
  await expect(page.getByRole('alert').filter({ hasText: 'That saved board is gone' })).toBeVisible();
});

test('a long name with no space keeps the header on a phone’s screen, Log out in view', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${stack.proxy.url}/admin/users`);
  const name = 'Bartholomew'.repeat(6).slice(0, 64);
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Add user' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: 'shown once' })
    .getByRole('button', { name: 'Done' })
    .click();
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  await page.goto(`${stack.proxy.url}/`);
  const logOut = await page.getByRole('button', { name: 'Log out' }).boundingBox();
  expect(logOut && logOut.x + logOut.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - window.innerWidth)).toBe(
    0,
  );
  // The whole name is still there to read, on hover.
  await expect(page.getByRole('banner').getByTitle(name)).toHaveText(name);
});
