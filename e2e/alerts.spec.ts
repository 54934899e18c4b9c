import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from '@playwright/test';
import { manualClock, type Stack } from '@/testing/stack';
import { addUser } from '@/server/auth/users';
import type { Store } from '@/server/store/store';
import { expect, test } from './support/fixtures';
import { openTestStore, startOwnStack } from './support/own-stack';

/**
 * Issue 36 part 5 end to end: an admin sets a rule on /admin/alerts with a webhook, the server judges
 * the held loads (stepped by the test on the stack's clock), a dispatcher reads the alerts on
 * Exceptions, and a local receiver gets each one once, however often the server judges again.
 */
const clock = manualClock(Date.now());
const USERS = {
  admin: ['Ada', 'ada-has-a-long-password'],
  dispatcher: ['Ana', 'ana-has-a-long-password'],
} as const;
let store: { store: Store; close: () => Promise<void> };
let stack: Stack;
const got: string[] = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    got.push((JSON.parse(body) as { text: string }).text);
    res.writeHead(200).end();
  });
});
let hookUrl: string;

test.beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  hookUrl = `${origin}/slack`;
  store = await openTestStore();
  for (const [role, [name, password]] of Object.entries(USERS))
    await addUser(store.store.db, { name, role: role as 'admin' | 'dispatcher', password }, 'test');
  stack = await startOwnStack({
    loads: 40,
    now: clock.now,
    store: store.store,
    env: { ALERT_WEBHOOK_ALLOW: origin },
  });
});
test.afterAll(async () => {
  await stack?.close();
  await store?.close();
  await new Promise((r) => receiver.close(r));
});

async function asUser(browser: Browser, [username, password]: readonly [string, string], path: string) {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${stack.proxy.url}${path}`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('banner')).toContainText(username);
  return page;
}

const alertRows = (page: Page) => page.getByRole('list', { name: 'Alerts' }).getByRole('listitem');

test('an admin’s rule fires each alert once: in the list and at the webhook', async ({ browser }) => {
  const admin = await asUser(browser, USERS.admin, '/admin/alerts');
  await expect(admin.getByRole('heading', { name: 'Alert rules' })).toBeVisible();

  // A private address is refused, and the admin is told why.
  await admin.getByLabel('Alert when').selectOption('late');
  await admin.getByLabel('After (minutes late)').fill('0');
  await admin.getByLabel('Webhook (optional, https)').fill('https://192.168.1.20/hook');
  await admin.getByRole('button', { name: 'Add rule' }).click();
  // Said under the field, which takes the focus and is described by it.
  const webhookField = admin.getByLabel('Webhook (optional, https)');
  await expect(webhookField).toHaveAccessibleDescription(/private network/);
  await expect(webhookField).toBeFocused();

  await admin.getByLabel('Webhook (optional, https)').fill(hookUrl);
  await admin.getByRole('button', { name: 'Add rule' }).click();
  const rules = admin.getByRole('list', { name: 'Rules' }).getByRole('listitem');
  await expect(rules).toHaveCount(1);
  await expect(rules.first()).toContainText('Late for the next stop, at once');
  await expect(rules.first()).toContainText('webhook 127.0.0.1');

  // The dispatcher's Exceptions page watches the demo fleet: the server holds it from then on.
  const ana = await asUser(browser, USERS.dispatcher, '/exceptions');
  await expect(ana.getByRole('list', { name: 'Needs action' }).locator('[data-load]').first()).toBeVisible();
  await stack.alerts!.tick();
  await stack.alerts!.tick();
  await ana.reload();
  await expect(alertRows(ana).first()).toBeVisible();
  const count = await alertRows(ana).count();
  expect(count).toBeGreaterThan(0);
  await expect(ana.getByRole('heading', { name: `Alerts (${count})` })).toBeVisible();
  await expect(ana.getByRole('link', { name: 'Alert rules' })).toHaveCount(0);
  const texts = await alertRows(ana).locator('[data-kind="late"]').allTextContents();
  expect(texts).toHaveLength(count);
  expect([...got].sort()).toEqual([...texts].sort());

  // Judged again later: nothing new for the same stops, nothing posted twice.
  await stack.alerts!.tick();
  expect(new Set(got).size).toBe(got.length);
  await admin.reload();
  await expect(admin.getByRole('heading', { name: 'Webhook deliveries failing (0)' })).toBeVisible();
});
