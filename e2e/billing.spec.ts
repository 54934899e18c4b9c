import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { LoadView, ProxyPullAnswer } from '@/contract/load-view';
import type { Load } from '@/domain/model';
import { deliveredAt, podsOf } from '@/domain/paperwork';
import { addUser } from '@/server/auth/users';
import type { Store } from '@/server/store/store';
import { podQuirk } from '@/simulator/track';
import { TEST_PASSWORD } from '@/testing/login';
import { manualClock, type Stack } from '@/testing/stack';
import { expect, test } from './support/fixtures';
import { openTestStore, startOwnStack } from './support/own-stack';

/**
 * Issue 37 in the browser: a broker watches the fleet, approves PODs, and opens Billing. The
 * simulator's fleet (seed 7, 300 loads) stands still at the test's clock: a few loads are delivered,
 * one with a POD taken 38 km from its delivery stop, some with none.
 */
let store: { store: Store; close: () => Promise<void> };
let stack: Stack;
const clock = manualClock(Date.now());

test.beforeAll(async () => {
  store = await openTestStore();
  stack = await startOwnStack({ loads: 300, now: clock.now, store: store.store });
  await addUser(store.store.db, { name: 'Bea', role: 'broker', password: TEST_PASSWORD }, 'test');
});
test.afterAll(async () => {
  await stack?.close();
  await store?.close();
});

const headers = () => ({
  'X-Requested-With': 'haulview',
  'Content-Type': 'application/json',
  Origin: new URL(stack.proxy.url).origin,
});

/** Logs in as Bea and watches the whole fleet, so the proxy holds its loads; answers them. */
async function watchFleet(page: Page): Promise<Load[]> {
  await page.goto(`${stack.proxy.url}/billing`);
  await page.getByLabel('Username').fill('Bea');
  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Billing' })).toBeVisible();
  const ids = stack.sim.fleet.map((p) => String(p.externalId));
  const pulled = await page.request.post(`${stack.proxy.url}/api/pull/by-external-id`, {
    headers: headers(),
    data: { ids, include: { extras: true } },
  });
  expect(pulled.status()).toBe(200);
  return ProxyPullAnswer.parse(await pulled.json()).loads.map((l) => LoadView.parse(l));
}

async function approve(page: Page, load: Load) {
  const response = await page.request.put(`${stack.proxy.url}/api/documents/reviews`, {
    headers: headers(),
    data: { load: `e:${load.id}`, url: podsOf(load)[0]!.url, decision: 'approved' },
  });
  expect(response.status()).toBe(200);
}

test('billing: the far POD flagged, the CSV of exactly the approved deliveries, the overdue POD', async ({
  page,
}) => {
  const loads = await watchFleet(page);
  const delivered = loads.filter((l) => deliveredAt(l) !== undefined);
  const plan = (load: Load) => stack.sim.fleet.find((p) => String(p.externalId) === load.id)!;
  const far = delivered.find((l) => podQuirk(plan(l), 7) === 'far');
  const withPod = delivered.filter((l) => podsOf(l).length > 0 && l !== far);
  const withoutPod = delivered.filter((l) => podsOf(l).length === 0);
  expect(far, 'a delivered load with a POD taken far away').toBeDefined();
  expect(withPod.length).toBeGreaterThanOrEqual(2);
  expect(withoutPod.length).toBeGreaterThan(0);

  // Two delivered loads approved; a load still on the road with an approved POD is not billed.
  const billed = withPod.slice(0, 2);
  for (const load of billed) await approve(page, load);
  const rolling = loads.find((l) => deliveredAt(l) === undefined && podsOf(l).length > 0);
  if (rolling) await approve(page, rolling);

  await page.reload();
  const checks = page.getByRole('region', { name: 'PODs and BOLs against their stops' });
  const farRow = checks.locator(`[data-pod-check="${podsOf(far!)[0]!.url}"]`);
  await expect(farRow.locator('[data-flag=far-from-stop]')).toHaveText('taken 38 km from the delivery stop');
  // Worst flag first: the far POD heads the list.
  await expect(checks.locator('[data-pod-check]').first().locator('[data-flag]').first()).toHaveText(
    /^taken \d+ km from the/,
  );

  const ready = page.getByRole('region', { name: 'Ready to bill' });
  await expect(ready.locator('[data-ready]')).toHaveCount(2);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    ready.getByRole('link', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('ready-to-bill.csv');
  const lines = readFileSync((await download.path())!, 'utf8')
    .trimEnd()
    .split('\r\n');
  expect(lines[0]).toBe(
    'load_external_id,load_number,delivery_stop,facility,city,state,delivered_at_stop,stop_zone,delivered_at_utc,pod_url,reviewed_by,reviewed_at,earlier_trip',
  );
  expect(
    lines
      .slice(1)
      .map((l) => l.split(',')[0])
      .sort(),
  ).toEqual(billed.map((l) => l.id).sort());
  // Reviewed by Bea; none of them an earlier trip's delivery.
  expect(lines.slice(1).every((l) => l.split(',').slice(-3, -2)[0] === 'Bea' && l.endsWith(','))).toBe(true);

  // Nothing is overdue yet; 30 real minutes later (30 hours on the demo's clock) every delivered load
  // without POD is.
  const overdue = page.getByRole('region', { name: 'POD overdue' });
  await expect(overdue).toContainText('No POD is overdue.');
  clock.advance(30 * 60_000);
  await page.reload();
  await expect(overdue.locator('[data-overdue]')).toHaveCount(withoutPod.length);
  for (const load of withoutPod) await expect(overdue.locator(`[data-overdue="e:${load.id}"]`)).toBeVisible();
});

test('a dispatcher has no Billing page and the API refuses them', async ({ page }) => {
  await addUser(store.store.db, { name: 'Dan', role: 'dispatcher', password: TEST_PASSWORD }, 'test');
  await page.goto(`${stack.proxy.url}/billing`);
  await page.getByLabel('Username').fill('Dan');
  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(
    page.getByText('This page is for broker and admin users; you are logged in as a dispatcher.'),
  ).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Billing' }),
  ).toHaveCount(0);
  const refused = await page.request.get(`${stack.proxy.url}/api/billing/ready?format=csv`);
  expect(refused.status()).toBe(403);
});
