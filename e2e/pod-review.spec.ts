import type { Browser, Page } from '@playwright/test';
import { LoadView, ProxyPullAnswer } from '@/contract/load-view';
import { addUser } from '@/server/auth/users';
import type { Store } from '@/server/store/store';
import { manualClock, type Stack } from '@/testing/stack';
import { expect, test } from './support/fixtures';
import { openTestStore, startOwnStack } from './support/own-stack';

/**
 * Issues 34 and 37 in two browsers: broker Ana rejects a POD with a reason, broker Bo sees the
 * rejection and its reason after a refresh (inbox and load page), approves it, and Ana's inbox says
 * so at her next refresh. Own store, own stack; the fleet stands still.
 */
let store: { store: Store; close: () => Promise<void> };
let stack: Stack;
const clock = manualClock(Date.now());
const PASSWORD = 'a-long-enough-password';
// The simulator's seed-7 fleet of this size has delivered loads with a POD at its start (one trip in
// ten never gets its POD: a smaller fleet had none).
const FLEET = 100;

test.beforeEach(async () => {
  store = await openTestStore();
  for (const name of ['Ana', 'Bo'])
    await addUser(store.store.db, { name, role: 'broker', password: PASSWORD }, 'test');
  stack = await startOwnStack({ loads: FLEET, now: clock.now, store: store.store });
});
test.afterEach(async () => {
  await stack?.close();
  await store?.close();
});

/** A load of the fleet with a POD uploaded, and that POD's address, looked up with this page's session. */
async function loadWithPod(page: Page): Promise<{ id: string; url: string }> {
  const ids = stack.sim.fleet.map((p) => String(p.externalId));
  const res = await page.request.post(`${stack.proxy.url}/api/pull/by-external-id`, {
    headers: { 'X-Requested-With': 'haulview', 'Content-Type': 'application/json' },
    data: { ids },
  });
  expect(res.status()).toBe(200);
  const answer = ProxyPullAnswer.parse(await res.json());
  for (const load of answer.loads.map((l) => LoadView.parse(l))) {
    const pod = load.documents.find((d) => d.type === 'POD' && /^https?:/.test(d.url));
    if (pod) return { id: load.id, url: pod.url };
  }
  throw new Error('the fleet has no load with a POD');
}

async function asUser(browser: Browser, username: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${stack.proxy.url}/`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('banner')).toContainText(`${username} · Broker`);
  return page;
}

/** Picks a review view as a user does, by its label (the radio itself is visually hidden). */
async function show(page: Page, name: RegExp) {
  const radio = page.getByRole('radio', { name });
  await page.locator('label').filter({ has: radio }).click();
  await expect(radio).toBeChecked();
}

test('Ana rejects a POD with a reason; Bo sees why (inbox, load page) and approves; Ana is told; a restart keeps it', async ({
  browser,
}) => {
  const ana = await asUser(browser, 'Ana');
  const { id, url } = await loadWithPod(ana);
  const row = (page: Page) => page.locator(`[data-document-item][data-url="${url}"]`);

  await ana.goto(`${stack.proxy.url}/documents?w=e:${id}`);
  await row(ana).click();
  await expect(row(ana)).toBeFocused();
  await expect(ana.getByText('Keys in the list:')).toBeVisible();
  await ana.keyboard.press('x');
  await expect(ana.getByRole('group', { name: /: why\?$/ })).toBeVisible();
  await ana.keyboard.press('1');
  await expect(ana.getByRole('status').filter({ hasText: 'Rejected (blurry)' })).toBeVisible();
  await expect(row(ana)).toHaveCount(0);

  const bo = await asUser(browser, 'Bo');
  await bo.goto(`${stack.proxy.url}/documents?w=e:${id}`);
  await show(bo, /^Reviewed/);
  await expect(row(bo)).toContainText('✗ Rejected: blurry');
  await expect(row(bo)).toContainText('by Ana');
  // The load page says the same.
  await bo.goto(`${stack.proxy.url}/loads/external-id/${id}`);
  const docs = bo.getByRole('region', { name: /^Documents/ });
  await expect(docs).toContainText(/✗ Rejected: blurry by Ana/);

  // Bo approves it, from the inbox's Reviewed view, with one key.
  await bo.goto(`${stack.proxy.url}/documents?w=e:${id}&show=reviewed`);
  await row(bo).click();
  await bo.keyboard.press('a');
  await expect(row(bo)).toContainText('✓ Approved');
  await expect(row(bo)).toContainText('by Bo');

  // Ana's next refresh: the document says Bo's approval replaced her rejection.
  await show(ana, /^All/);
  await ana.getByRole('button', { name: 'Refresh' }).click();
  await expect(row(ana)).toContainText(/Bo approved this at .+, replacing your rejection \(blurry\)\./);
  await expect(row(ana)).toContainText('✓ Approved');
  await row(ana).click();
  await ana.screenshot({ path: 'test-results/screenshots/review-replaced.png' });

  // A restart (another server on the same store, the same service): Ana is still logged in, and the
  // review holds.
  await stack.restartProxy();
  await ana.goto(`${stack.proxy.url}/documents?w=e:${id}&show=reviewed`);
  await expect(ana.getByRole('banner')).toContainText('Ana · Broker');
  await expect(row(ana)).toContainText('✓ Approved');
  await expect(row(ana)).toContainText('by Bo');
  await ana.context().close();
  await bo.context().close();
});
