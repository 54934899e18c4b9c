import type { Browser, Page } from '@playwright/test';
import { manualClock, type Stack } from '@/testing/stack';
import { LoadView, ProxyPullAnswer } from '@/contract/load-view';
import { loadException } from '@/domain/exceptions';
import { DEFAULT_THRESHOLDS } from '@/domain/staleness';
import { addUser } from '@/server/auth/users';
import type { Store } from '@/server/store/store';
import { expect, test } from './support/fixtures';
import { openTestStore, startOwnStack } from './support/own-stack';

/**
 * Issue 36 part 4 in two browsers: what one dispatcher says of an exception the other sees, and it
 * ends by itself: a snooze at its time, an acknowledgement when the exception becomes another. The
 * fleet stands still (the stack's clock); the pages' clocks are Playwright's, moved on by the test.
 */
const MIN = 60_000;
const clock = manualClock(Date.now());
const USERS = [
  ['Ana', 'ana-has-a-long-password'],
  ['Bo', 'bo-has-a-long-password'],
] as const;
let store: { store: Store; close: () => Promise<void> };
let stack: Stack;
/** A load late past its appointment (it stays late), and one at risk whose appointment comes soon. */
let late: { id: string };
let risky: { id: string; due: number };
let fleet: string[];

test.beforeAll(async () => {
  store = await openTestStore();
  for (const [name, password] of USERS)
    await addUser(store.store.db, { name, role: 'dispatcher', password }, 'test');
  stack = await startOwnStack({ loads: 40, now: clock.now, store: store.store });
  const login = await stack.post(
    '/api/session',
    { username: 'Ana', password: USERS[0][1] },
    { origin: stack.proxy.url },
  );
  const cookie = login.headers.get('set-cookie')?.split(';')[0];
  if (!login.ok || !cookie) throw new Error(`login: ${login.status}`);
  const ids = (fleet = stack.sim.fleet.map((p) => String(p.externalId)));
  // Which loads show them depends on the hour the fleet was made at: the fleet's clock moves on a
  // few minutes at a time until one load is late past its appointment and another at risk.
  let found: { late: typeof late; risky: typeof risky } | undefined;
  for (let step = 0; step < 60 && !found; step++) {
    if (step > 0) clock.advance(3 * MIN);
    const res = await stack.post('/api/pull/by-external-id', { ids }, { origin: stack.proxy.url, cookie });
    const body: unknown = await res.json();
    if (!res.ok) throw new Error(JSON.stringify(body));
    const loads = ProxyPullAnswer.parse(body).loads.map((l) => LoadView.parse(l));
    const now = clock.now();
    const withException = loads.map((load) => ({ load, e: loadException(load, now, DEFAULT_THRESHOLDS) }));
    const passed = withException.find(({ e }) => e?.kind === 'late' && e.since !== undefined);
    // Due within the snooze's 30 minutes, and not at once: the pages open before it.
    const soon = withException
      .map(({ load, e }) => ({ load, e, due: e?.stop?.appointment?.instant }))
      .find(
        ({ e, due }) =>
          e?.kind === 'at-risk' && due !== undefined && due > now + 5 * MIN && due < now + 25 * MIN,
      );
    if (passed && soon) found = { late: { id: passed.load.id }, risky: { id: soon.load.id, due: soon.due! } };
  }
  if (!found) throw new Error('the fleet has no load late past its appointment, or none at risk');
  ({ late, risky } = found);
});
test.afterAll(async () => {
  await stack?.close();
  await store?.close();
});

async function asUser(
  browser: Browser,
  [username, password]: readonly [string, string],
  options: { watch?: readonly string[]; viewport?: { width: number; height: number } } = {},
): Promise<Page> {
  const context = await browser.newContext(options.viewport ? { viewport: options.viewport } : {});
  const page = await context.newPage();
  // The page's clock is the test's to move, from the fleet's; it runs on by itself meanwhile.
  await page.clock.install({ time: clock.now() });
  const watch = options.watch ?? [late.id, risky.id];
  await page.goto(`${stack.proxy.url}/exceptions?w=e:${watch.join(',')}`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('banner')).toContainText(`${username} · Dispatcher`);
  return page;
}

const needsAction = (page: Page) => page.getByRole('list', { name: 'Needs action' });
const handled = (page: Page) => page.getByRole('list', { name: 'Handled' });
const row = (list: ReturnType<typeof needsAction>, id: string) =>
  list.locator(`[data-load="external-id:${id}"]`);

/** Moves the page's clock to `at` (an instant), firing its timers on the way. */
async function clockTo(page: Page, at: number) {
  const pageNow = await page.evaluate(() => Date.now());
  if (at > pageNow) await page.clock.fastForward(at - pageNow);
}

test('a snooze and an acknowledgement by one dispatcher, seen by another, each ending by itself', async ({
  browser,
}) => {
  const ana = await asUser(browser, USERS[0]);
  const bo = await asUser(browser, USERS[1]);
  for (const page of [ana, bo]) {
    await expect(row(needsAction(page), late.id)).toHaveAttribute('data-kind', 'late');
    await expect(row(needsAction(page), risky.id)).toHaveAttribute('data-kind', 'at-risk');
  }

  // Ana snoozes the late load with a note, and acknowledges the one at risk with another.
  const lateRow = row(needsAction(ana), late.id);
  await lateRow.getByRole('textbox').fill('driver says 40 min out');
  await lateRow.getByRole('button', { name: 'Snooze 30 min' }).click();
  await expect(ana.getByText('Handled (1)')).toBeVisible();
  const riskyRow = row(needsAction(ana), risky.id);
  await riskyRow.getByRole('textbox').fill('receiver knows');
  await riskyRow.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(ana.getByText('Handled (2)')).toBeVisible();
  await expect(needsAction(ana).locator('[data-load]')).toHaveCount(0);

  // Bo sees both after a refresh, with who and the notes.
  await bo.reload();
  await bo.getByText('Handled (2)').click();
  await expect(row(handled(bo), late.id).locator('[data-handled]')).toHaveText(
    /^Snoozed by Ana at .+, until .+ · “driver says 40 min out”$/,
  );
  await expect(row(handled(bo), risky.id).locator('[data-handled]')).toHaveText(
    /^Acknowledged by Ana at .+ · “receiver knows”$/,
  );
  await expect(needsAction(bo).locator('[data-load]')).toHaveCount(0);

  // A minute before its appointment the load is still at risk: the acknowledgement holds.
  await clockTo(bo, risky.due - MIN);
  await expect(bo.getByText('Handled (2)')).toBeVisible();
  // Its appointment passed: it is late now, another exception, back in Bo's list.
  await clockTo(bo, risky.due + MIN);
  await expect(row(needsAction(bo), risky.id)).toHaveAttribute('data-kind', 'late');
  await expect(bo.getByText('Handled (1)')).toBeVisible();

  // The snooze ends 30 minutes after it was made (by the proxy's clock): the late load is back.
  await clockTo(bo, clock.now() + 30 * MIN + MIN);
  await expect(row(needsAction(bo), late.id)).toHaveAttribute('data-kind', 'late');
  await expect(bo.getByText('Handled (0)')).toBeVisible();
  await expect(row(needsAction(bo), late.id)).toContainText(/since .+ ago/);

  await ana.context().close();
  await bo.context().close();
});

test('from 1024 px each load is a row of two or three lines, many to a laptop screen; a phone stacks them', async ({
  browser,
}) => {
  const laptop = await asUser(browser, USERS[0], { watch: fleet, viewport: { width: 1280, height: 720 } });
  const rows = needsAction(laptop).locator('[data-load]');
  await expect(rows.nth(9)).toBeVisible();
  const boxes = await rows.evaluateAll((els) =>
    els
      .map((e) => e.getBoundingClientRect())
      .map((r) => ({ top: r.top, bottom: r.bottom, height: r.height })),
  );
  // Note field and buttons sit on the row; the text is two lines, three when the evidence is long.
  for (const b of boxes) expect(b.height).toBeLessThanOrEqual(96);
  const whole = boxes.filter((b) => b.top >= 0 && b.bottom <= 720);
  expect(whole.length).toBeGreaterThanOrEqual(7);
  await laptop.context().close();

  const phone = await asUser(browser, USERS[1], { watch: fleet, viewport: { width: 390, height: 844 } });
  const first = needsAction(phone).locator('[data-load]').first();
  await expect(first.getByRole('button', { name: 'Acknowledge' })).toBeInViewport();
  await expect(first.getByRole('textbox')).toBeInViewport();
  expect(
    await phone.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await phone.context().close();
});
