import { manualClock, type Stack } from '@/testing/stack';
import type { DarkMode, LoadPlan } from '@/simulator/fleet';
import { expect, test } from './support/fixtures';
import { startOwnStack } from './support/own-stack';

/**
 * Issue 36 parts 1 and 2 in the browser: the board says why each dark load is dark and how its next
 * stop stands, in words; the load page gives the reason's evidence, the action and the ETA's inputs.
 * The simulator's clock stands still, so the loads shown are the ones the fleet built to show each way.
 */
let stack: Stack;
test.beforeAll(async () => {
  stack = await startOwnStack({ loads: 160, now: manualClock(Date.now()).now });
});
test.afterAll(async () => {
  await stack?.close();
});

const WORDS: Record<DarkMode, RegExp> = {
  moving: /Went dark while moving/,
  'at-pickup': /Waiting at a stop/,
  'at-delivery': /Waiting at a stop/,
  'never-started': /Never started|App not installed/,
  'app-closed': /App closed/,
  permission: /Location permission not "Always"/,
  'phone-off': /Phone off/,
  intermittent: /Intermittent/,
};

test('the board names why each dark load is dark, and its next stop against its appointment', async ({
  page,
}) => {
  const dark = new Map<DarkMode, LoadPlan>();
  for (const plan of stack.sim.fleet) if (plan.dark && !dark.has(plan.dark)) dark.set(plan.dark, plan);
  expect([...dark.keys()].sort()).toEqual(Object.keys(WORDS).sort());
  const ids = [...dark.values()].map((p) => p.externalId).join(',');
  await page.goto(`${stack.proxy.url}/?w=e:${ids}`);
  for (const [mode, plan] of dark) {
    const row = page.locator(`[role=row][data-load="external-id:${plan.externalId}"]`);
    await expect(row.locator('[data-dark-reason]'), mode).toHaveText(WORDS[mode]);
  }
  // Every next stop is said in one of the statuses' words, in its colour's class.
  const statuses = page.locator('[role=row] [data-stop-status]');
  await expect(statuses.first()).toBeVisible();
  for (const text of await statuses.allTextContents())
    expect(text).toMatch(
      /^(Pickup|Delivery|Stop \d+): (On time|At risk, .+ to spare|Late .+|Late: appointment passed|No appointment|No ETA|ETA .+, not judged)$|^At (pickup|delivery)/,
    );
});

test("a dark load's page: the reason's evidence, the call, the last place, and each stop's reckoning", async ({
  page,
}) => {
  const plan = stack.sim.fleet.find((p) => p.dark === 'phone-off')!;
  await page.goto(`${stack.proxy.url}/loads/external-id/${plan.externalId}`);
  const why = page.getByRole('group', { name: 'Why it is dark' });
  await expect(why).toContainText('Phone off');
  await expect(why).toContainText('The service says: "Device powered off"');
  await expect(why.getByRole('link', { name: /^call .+ at \+1\d+$/ })).toHaveAttribute(
    'href',
    /^tel:\+1\d{10}$/,
  );
  await expect(why).toContainText(/Last known place: .+ \(-?\d+\.\d{4}, -?\d+\.\d{4}, ±\d+ m\)/);
  const stops = page.getByRole('list', { name: 'Stops' });
  await expect(stops.locator('li')).toHaveCount(2);
  await expect(stops.locator('li').first()).toContainText(/^Stop 1 \(pickup\), /);
  // The stop ahead, its ETA reckoned from the last ping, why there is none, or that it passed.
  await expect(stops.locator('[data-eta]')).toHaveText(
    /^\d+ mi at \d+ mph.* → ETA \w{3} \d\d?, \d\d:\d\d (GMT[-+]\d+|UTC)|^No ETA|^\d+ mi to go at \d+ mph.* at its last ping$/,
  );
});
