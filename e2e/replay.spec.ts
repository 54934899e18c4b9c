import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { manualClock, type Stack } from '@/testing/stack';
import { LoadView, ProxyPullAnswer } from '@/contract/load-view';
import { MARKER_ATTRIBUTES, readMarkerState } from '@/web/map/core/map-test-attributes';
import { expect, test } from './support/fixtures';
import { startOwnStack } from './support/own-stack';

/**
 * Issue 39 in the browser: several loads on one time slider. The simulator's clock stands still, so
 * the tracks replayed are the same from one page to the next.
 */
let stack: Stack;
test.beforeAll(async () => {
  stack = await startOwnStack({ loads: 40, now: manualClock(Date.now()).now });
});
test.afterAll(async () => {
  await stack?.close();
});

const map = (page: Page) => page.locator('.leaflet-container');
const slider = (page: Page) => page.getByRole('slider', { name: 'Replay time' });

/** The replay's time and each load's drawn position, read at one instant from the map's container. */
async function drawn(page: Page) {
  const s = await map(page).evaluate(readMarkerState, MARKER_ATTRIBUTES);
  return { time: s.replayTime, positions: s.replayPositions ?? '' };
}

/** The map's view, `lat,lon,zoom`, once it has been placed. */
async function view(page: Page) {
  return (await map(page).evaluate(readMarkerState, MARKER_ATTRIBUTES)).view ?? '';
}

/** Loads whose tracks have pings (a fleet whose clock stands still has some not started yet). */
async function loadsWithPings(count: number): Promise<{ ids: string[]; from: number }> {
  const ids = stack.sim.fleet.map((p) => String(p.externalId));
  const res = await fetch(`${stack.proxy.url}/api/pull/by-external-id`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-requested-with': 'haulview',
      origin: new URL(stack.proxy.url).origin,
    },
    body: JSON.stringify({ ids, include: { events: false, documents: false, comments: false } }),
  });
  const answer = ProxyPullAnswer.parse(await res.json());
  const tracks = answer.loads.map((l) => LoadView.parse(l)).filter((l) => l.pings.length >= 10);
  if (tracks.length < count) throw new Error(`only ${tracks.length} loads have pings`);
  const chosen = tracks.slice(0, count);
  // An instant every chosen load has pings before and after: each is drawn between two of them.
  const from = Math.max(...chosen.map((l) => (l.pings[5] as { instant: number }).instant));
  return { ids: chosen.map((l) => l.id), from };
}

const replayLink = (ids: string[], query: string) =>
  `${stack.proxy.url}/replay?loads=${ids.map((id) => `e:${id}`).join(',')}&${query}`;

test('a replay link opens at the same instant with the same positions', async ({ page, browser }) => {
  const { ids, from } = await loadsWithPings(3);
  await page.goto(replayLink(ids, `t=${from}&speed=1`));
  await expect(slider(page)).toHaveValue(String(from));
  // A step forward with the keys: a minute on, mid-way between pings.
  await page.locator('body').press('ArrowRight');
  await expect.poll(async () => (await drawn(page)).time).toBe(from + 60_000);
  const here = await drawn(page);
  // Positions written as `key:lat,lon,accuracy`, one per load.
  expect(here.positions).toMatch(/^(external-id:\d+:-?\d+\.\d{5},-?\d+\.\d{5},\d*( |$)){3}$/);
  // The time is written to the link once the replay rests.
  await expect.poll(() => new URL(page.url()).searchParams.get('t')).toBe(new Date(here.time).toISOString());

  const other = await browser.newPage();
  try {
    await other.goto(page.url());
    await expect(slider(other)).toHaveValue(String(here.time));
    await expect.poll(async () => drawn(other)).toEqual(here);
  } finally {
    await other.close();
  }
});

test('two pages at one replay link show the same view; a view the user chose goes with the link', async ({
  page,
  browser,
}) => {
  const { ids, from } = await loadsWithPings(5);
  const link = replayLink(ids, `t=${from}&speed=1`);
  // The other page hears of the loads in another order and later: the view must not show it.
  const other = await browser.newPage({ viewport: page.viewportSize() });
  try {
    let answered = 0;
    await other.route('**/api/pull/**', async (route) => {
      answered += 1;
      await new Promise((r) => setTimeout(r, answered % 2 === 0 ? 50 : 900));
      await route.continue();
    });
    await Promise.all([page.goto(link), other.goto(link)]);
    await expect(slider(page)).toHaveValue(String(from));
    await expect(slider(other)).toHaveValue(String(from));
    await expect.poll(async () => (await drawn(page)).positions.split(' ').length).toBe(5);
    await expect.poll(async () => drawn(other)).toEqual(await drawn(page));
    await expect.poll(() => view(page)).toMatch(/^-?\d+\.\d{4},-?\d+\.\d{4},\d+$/);
    await expect.poll(() => view(other)).toBe(await view(page));
    // A fitted view is the link's own: it is not written into it. By the time the resting instant
    // is written (400 ms after rest), a view written at the map's rest (300 ms) would be there too.
    await expect.poll(() => new URL(page.url()).searchParams.get('t')).toBe(new Date(from).toISOString());
    expect(new URL(page.url()).searchParams.get('map')).toBeNull();

    // The user zooms in with the map's keys: that view is written to the link and opens with it.
    const fitted = await view(page);
    await map(page).focus();
    await map(page).press('+');
    await expect.poll(() => view(page)).not.toBe(fitted);
    await expect.poll(() => new URL(page.url()).searchParams.get('map')).toBe(await view(page));
    // A pull still held by the handler above goes on before the route is lifted.
    await other.unrouteAll({ behavior: 'wait' });
    await other.goto(page.url());
    await expect.poll(() => view(other)).toBe(await view(page));
  } finally {
    await other.close();
  }
});

test('the keys play and pause, step and change the speed; axe finds nothing serious', async ({ page }) => {
  const { ids, from } = await loadsWithPings(2);
  await page.goto(replayLink(ids, `t=${from}&speed=60`));
  await expect(slider(page)).toBeVisible();
  await expect.poll(async () => (await drawn(page)).time).toBeGreaterThan(0);
  const start = (await drawn(page)).time;

  await page.locator('body').press('ArrowRight');
  await expect.poll(async () => (await drawn(page)).time).toBe(start + 60_000);
  await page.locator('body').press('+');
  await expect(page.getByRole('combobox', { name: 'Speed' })).toHaveValue('300');
  await expect.poll(() => new URL(page.url()).searchParams.get('speed')).toBe('300');
  await page.locator('body').press('ArrowLeft');
  await expect.poll(async () => (await drawn(page)).time).toBe(start + 60_000 - 300_000);
  await page.locator('body').press('ArrowRight');
  await page.locator('body').press('-');
  await expect(page.getByRole('combobox', { name: 'Speed' })).toHaveValue('60');

  await page.locator('body').press(' ');
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect.poll(async () => (await drawn(page)).time).toBeGreaterThan(start);
  await page.locator('body').press(' ');
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible();
  await expect(slider(page)).toHaveAttribute('aria-valuetext', /into the replay of/);

  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(serious).toEqual([]);
});
