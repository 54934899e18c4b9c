import type { Page, Response } from '@playwright/test';
import { LoadView, ProxyPullAnswer } from '@/contract/load-view';
import { loginAs } from '@/testing/login';
import { manualClock, type Stack } from '@/testing/stack';
import { expect, test } from './support/fixtures';
import { openTestStore, startOwnStack } from './support/own-stack';

/**
 * Issue 38 in the browser: a broker makes a customer link from a load's page; a phone with no
 * session opens it, sees the load move as the simulator's clock advances, never receives the
 * driver's phone, and sees the link stop the moment it is revoked or expires.
 */
const clock = manualClock(Date.now());
let stack: Stack;
let store: Awaited<ReturnType<typeof openTestStore>>;
let broker: string;

test.beforeAll(async () => {
  store = await openTestStore();
  stack = await startOwnStack({
    loads: 12,
    now: clock.now,
    store: store.store,
    env: { REFRESH_SECONDS: '2' },
  });
  broker = (await loginAs(stack, store.store.db, 'broker', 'Bea Broker')).cookie;
});
test.afterAll(async () => {
  await stack?.close();
  await store?.close();
});

/** A load on the road: a recent ping, moving, its delivery still ahead. */
async function rollingLoad(): Promise<{ id: string; phone: string; name: string }> {
  const ids = stack.sim.fleet.map((p) => String(p.externalId));
  const res = await fetch(`${stack.proxy.url}/api/pull/by-external-id`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'haulview', cookie: broker },
    body: JSON.stringify({ ids }),
  });
  const loads = ProxyPullAnswer.parse(await res.json()).loads.map((l) => LoadView.parse(l));
  const rolling = loads.find(
    (l) =>
      l.latestLocation !== undefined &&
      clock.now() - l.latestLocation.instant < 10 * 60_000 &&
      l.outlook?.dark?.reason === 'moving' &&
      l.outlook?.stops.some((s) => s.type === 'delivery' && s.progress === 'upcoming'),
  );
  if (!rolling) throw new Error('no rolling load in the fleet');
  const plan = stack.sim.fleet.find((p) => String(p.externalId) === rolling.id)!;
  return { id: rolling.id, phone: plan.driver.phoneNumber, name: plan.driver.name };
}

/** Every answer a page receives, as text, for the leak check. */
function recordAnswers(page: Page): string[] {
  const bodies: string[] = [];
  page.on('response', (r: Response) => {
    void r
      .text()
      .then((t) => bodies.push(`${r.url()}\n${t}`))
      .catch(() => undefined);
  });
  return bodies;
}

async function asBroker(page: Page) {
  const [name, value] = broker.split('=') as [string, string];
  await page.context().addCookies([{ name, value, url: stack.proxy.url }]);
}

async function makeLink(page: Page, loadId: string, expiry: string): Promise<string> {
  await page.goto(`${stack.proxy.url}/loads/external-id/${loadId}`);
  await page.getByText('Share tracking link').click();
  await page.getByLabel('Works for').selectOption({ label: expiry });
  await page.getByRole('button', { name: 'Create link' }).click();
  const url = await page.getByTestId('share-link-url').inputValue();
  expect(url).toMatch(/\/share\/[A-Za-z0-9_-]{22}$/);
  return url;
}

test('a customer’s phone follows the load, never sees the driver, and is cut off on revoke and expiry', async ({
  browser,
  page,
}) => {
  test.setTimeout(120_000);
  const load = await rollingLoad();
  await asBroker(page);
  const revokedLater = await makeLink(page, load.id, '7 days');

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const customer = await phone.newPage();
    const answers = recordAnswers(customer);
    await customer.goto(revokedLater);
    await expect(customer.getByRole('heading', { name: `Load ${load.id}` })).toBeVisible();
    await expect(customer.getByTestId('share-map')).toBeVisible();
    await expect(customer.getByText('Shared by Bea Broker')).toBeVisible();
    const position = customer.getByTestId('share-position');
    const before = await position.textContent();

    // Ten track minutes later the page has polled the load's new position by itself.
    clock.advance(10 * 60_000);
    await expect(position).not.toHaveText(before ?? '', { timeout: 15_000 });

    const html = await customer.content();
    expect(html).not.toContain(load.phone);
    expect(html).not.toContain(load.name);
    expect(answers.length).toBeGreaterThan(2);
    for (const answer of answers) {
      expect(answer).not.toContain(load.phone);
      expect(answer).not.toContain(load.name);
    }

    // The broker revokes it on the team's links page: the phone's next poll ends it.
    await page.goto(`${stack.proxy.url}/shares`);
    await page.getByRole('button', { name: /^Revoke the link/ }).click();
    await expect(page.getByText(/^Revoked /)).toBeVisible();
    await expect(customer.getByTestId('share-ended')).toBeVisible({ timeout: 15_000 });
    await expect(customer.getByTestId('share-load')).toHaveCount(0);

    // A one-day link ends when its day is over, with the same page.
    const oneDay = await makeLink(page, load.id, '1 day');
    await customer.goto(oneDay);
    await expect(customer.getByRole('heading', { name: `Load ${load.id}` })).toBeVisible();
    clock.advance(24 * 60 * 60_000);
    await expect(customer.getByTestId('share-ended')).toBeVisible({ timeout: 15_000 });
  } finally {
    await phone.close();
  }
});
