import { manualClock, type Stack } from '@/testing/stack';
import { expect, test } from './support/fixtures';
import { startOwnStack } from './support/own-stack';

/**
 * Issue 35 part 4 in the browser: a change reaches an open page over `/api/stream` without a reload
 * and without waiting for a poll. The views refresh only every 300 s here (longer than any expect
 * waits), the simulator's clock moves only when the test moves it, and the change is merged by a
 * pull the test makes itself, as another browser's or the keep-pulled job's would be.
 */
let stack: Stack;
const clock = manualClock(Date.now());
test.beforeAll(async () => {
  stack = await startOwnStack({ loads: 12, now: clock.now, env: { REFRESH_SECONDS: '300' } });
});
test.afterAll(async () => {
  await stack?.close();
});

/** The load's whole track as the proxy holds it now: what another pull of it brings. */
async function pingsNow(id: string): Promise<number> {
  const answer = (await (await stack.post('/api/pull/by-external-id', { ids: [id] })).json()) as {
    loads: { pings?: unknown[] }[];
  };
  return answer.loads[0]?.pings?.length ?? 0;
}

test('a load page shows new pings as they are merged, without a reload and before any poll', async ({
  page,
}) => {
  const plan = stack.sim.fleet.find((p) => p.dark === undefined)!;
  const id = String(plan.externalId);
  await page.goto(`${stack.proxy.url}/loads/external-id/${id}`);
  const pings = page.getByLabel(/^Pings, newest first/);
  await expect(pings).toBeVisible();
  const before = Number((await pings.getAttribute('aria-label'))?.match(/(\d+) in all/)?.[1]);
  await expect(page.getByText('● Live').first()).toBeVisible();
  let navigations = 0;
  page.on('framenavigated', () => navigations++);

  // The truck drives on; a pull (not the page's) brings its new pings into the proxy.
  clock.advance(20 * 60_000);
  const after = await pingsNow(id);
  expect(after).toBeGreaterThan(before);

  await expect(page.getByLabel(`Pings, newest first, ${after} in all`)).toBeVisible();
  expect(navigations).toBe(0);
});
