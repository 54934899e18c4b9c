import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { demoFleet } from './support/demo-fleet';
import { expect, test } from './support/fixtures';

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** A rolling load with documents, found through the proxy as the SPA would. */
async function loadWithDocuments(page: Page): Promise<string> {
  const loads = await demoFleet(page, { locations: false, events: false, comments: false });
  const load = loads.find((d) => d.latestLocation && (d.documents?.length ?? 0) > 0);
  if (!load) throw new Error('the demo fleet has no load with documents');
  return load.id;
}

const ROUTES: { name: string; path: (id: string) => string; ready: (page: Page) => Locator }[] = [
  {
    name: 'the map',
    path: () => '/',
    // Its loads drawn, so the board's rows are checked too.
    ready: (page) => page.locator('.leaflet-container[data-markers]:not([data-markers="0"])'),
  },
  {
    name: 'a load’s detail',
    path: (id) => `/loads/external-id/${id}`,
    ready: (page) => page.getByRole('heading', { name: /^Pings \(\d+\)$/ }),
  },
  {
    name: 'the documents inbox',
    path: () => '/documents',
    ready: (page) => page.getByRole('list', { name: /^Documents, not reviewed/ }),
  },
  {
    name: 'the exceptions',
    path: () => '/exceptions',
    // Its rows drawn (the list is virtualized), or the word that none needs action.
    ready: (page) =>
      page
        .getByRole('list', { name: 'Needs action' })
        .getByRole('listitem')
        .first()
        .or(page.getByText(/^No load needs action now/)),
  },
  {
    name: 'the webhooks form',
    path: () => '/webhooks',
    ready: (page) => page.getByRole('button', { name: 'Create webhook' }),
  },
  {
    name: 'the audit log',
    path: () => '/admin/audit',
    ready: (page) => page.getByText(/^\d+ shown$|^The audit log is empty\.$/),
  },
  {
    name: 'the diagnostics',
    path: () => '/diagnostics',
    ready: (page) => page.getByRole('heading', { level: 2 }),
  },
  {
    name: 'an unknown address',
    path: () => '/no/such/page',
    ready: (page) => page.getByText('There is no page here.'),
  },
];

test('axe finds no serious or critical violation on any route, the map included', async ({ page }) => {
  await page.goto('/');
  const id = await loadWithDocuments(page);
  const found: Record<string, string[]> = {};
  for (const route of ROUTES) {
    await page.goto(route.path(id));
    await expect(route.ready(page)).toBeVisible();
    found[route.name] = await seriousViolations(page);
  }
  expect(found).toEqual(Object.fromEntries(ROUTES.map((r) => [r.name, []])));
});

/** Presses Tab (or Shift+Tab) until `target` has the focus. */
async function tabTo(page: Page, target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab', most = 80) {
  for (let i = 0; i < most; i++) {
    if (await target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement)))
      return;
    await page.keyboard.press(key);
  }
  throw new Error(`${String(target)} never got the focus within ${most} presses of ${key}`);
}

test('keyboard only: add a load, select it, open a document, create a webhook', async ({ page }) => {
  await page.goto('/?w=');
  const id = await loadWithDocuments(page);
  const board = page.getByRole('grid', { name: /Loads, \d+ shown/ });
  await expect(board).toHaveAccessibleName('Loads, 0 shown');

  // Add the load.
  await tabTo(page, page.getByLabel(/Watch loads/));
  await page.keyboard.type(id);
  await tabTo(page, page.getByRole('button', { name: 'Add' }));
  await page.keyboard.press('Enter');
  await expect(board).toHaveAccessibleName('Loads, 1 shown');

  // Select it on the board. The row the keyboard is on is outlined while the board has its focus.
  await tabTo(page, board);
  await expect(board.getByRole('row').first()).toHaveCSS('outline-style', 'solid');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const selected = page.getByRole('region', { name: 'Selected load' });
  await expect(selected).toContainText(id);
  await expect(selected).toContainText(/\d+ pings/);

  // Its details, and a document in the viewer.
  // The selected load's actions follow the board.
  await tabTo(page, selected.getByRole('link', { name: 'Details' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/loads/external-id/${id}$`));
  // Past the timeline (thousands of tab stops on a long haul) with the "Go to" links.
  await tabTo(page, page.getByRole('navigation', { name: 'Go to' }).getByRole('link', { name: 'Documents' }));
  await page.keyboard.press('Enter');
  const open = page
    .getByRole('region', { name: /^Documents/ })
    .getByRole('button', { name: /^Open / })
    .first();
  await tabTo(page, open);
  await page.keyboard.press('Enter');
  const viewer = page.getByRole('dialog');
  await expect(viewer).toBeVisible();
  await expect(viewer.getByRole('img').first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
  await expect(open).toBeFocused();

  // A webhook, from the main navigation.
  await tabTo(
    page,
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }),
    'Shift+Tab',
  );
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 2 })).toBeVisible();
  const clientUrl = `https://hooks.example.com/keyboard/${Date.now()}`;
  await tabTo(page, page.getByLabel('Client URL'));
  await page.keyboard.type(clientUrl);
  await tabTo(page, page.getByRole('button', { name: 'Use the demo token' }));
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByRole('button', { name: 'Create webhook' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Webhook created' })).toContainText(clientUrl);
});
