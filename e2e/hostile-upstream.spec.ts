import type { Page } from '@playwright/test';
import type { startFakeUpstream } from '@/testing/fake-upstream';
import type { Stack } from '@/testing/stack';
import { startServiceWithDocs } from './support/fake-service';
import { leakyLogLines, startOwnStack, unsafeAddresses, watchForExploits } from './support/own-stack';
import { expect, test } from './support/fixtures';

/**
 * An upstream that sends what a hostile or broken phone can put into the service: HTML and script in
 * comments and status names, document addresses that would run script or leave for another site, and
 * coordinates that are no coordinates. The dashboard must show all of it as inert text and skip the
 * coordinates, saying how many items it skipped.
 */
const LOAD = '900001';
const HTML = `<img src=x onerror="fetch('/pwned-img')"><script>fetch('/pwned-script')</script>`;
const HOSTILE_URLS = [
  "javascript:fetch('/pwned-js')",
  " JaVaScRiPt:fetch('/pwned-js-mixed')",
  "data:text/html,<script>fetch('/pwned-data')</script>",
  '//evil.example/pod.jpg',
];
const BAD_COORDINATES = ['NaN', '1e309', '91', '', '12,5'];
const GOOD_PINGS = 3;

const pad = (n: number) => String(n).padStart(2, '0');
/** `MM/DD/YYYY HH:mm:ss UTC` and `YYYY-MM-DD HH:mm:ss` of a moment `minutesAgo` before now. */
function times(minutesAgo: number) {
  const d = new Date(Date.now() - minutesAgo * 60_000);
  const date = `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const gmt = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${time}`;
  return {
    timestampUTC: `${date} ${time} UTC`,
    timestampSec: `${date} ${time} UTC`,
    timestamp: `${date} ${time.slice(0, 5)} UTC`,
    deviceTimeGmt: gmt,
  };
}

function hostileDetail(imageBase: string) {
  const { deviceTimeGmt: _latestGmt, ...latest } = times(2);
  const ping = (minutesAgo: number, lat: string, lon: string) => {
    const { deviceTimeGmt, timestamp } = times(minutesAgo);
    return { lat, lon, accuracy: 20, deviceTimeGmt, timestamp };
  };
  const doc = (url: string, minutesAgo: number) => ({
    type: `POD ${HTML}`,
    timestamp: times(minutesAgo).timestamp,
    url,
    location: { lat: '41.25', lon: '-95.93', accuracy: 10, city: 'Omaha', state: 'NE', country: 'US' },
  });
  return {
    loadTrackExternalId: Number(LOAD),
    latestLocation: {
      lat: '41.2565',
      lon: '-95.9345',
      accuracy: 15,
      ...latest,
      city: 'Omaha',
      state: 'NE',
      country: 'US',
      driver: { name: `Eve ${HTML}`, phoneNumber: '+1 402 555 0100' },
    },
    latestStatus: { name: `In transit ${HTML}`, code: 'IT', ...latest },
    events: [{ id: 1, name: `In transit ${HTML}`, code: 'IT', ...times(30) }],
    locations: [
      ping(40, '41.10', '-95.70'),
      ping(20, '41.20', '-95.80'),
      ping(2, '41.2565', '-95.9345'),
      ...BAD_COORDINATES.map((lat, i) => ping(10 + i, lat, '-95.75')),
    ],
    comments: [{ comment: `Dock 4 ${HTML}`, commentBy: 'D', ...times(15) }],
    documents: [
      ...HOSTILE_URLS.map((url, i) => doc(url, 5 + i)),
      doc(`${imageBase}/docs/${LOAD}/bol.svg`, 30),
    ],
  };
}

let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
let stack: Stack;

test.beforeAll(async () => {
  upstream = await startServiceWithDocs((base) => ({
    status: true,
    timeStamp: times(0).timestampUTC,
    details: [hostileDetail(base)],
  }));
  stack = await startOwnStack({
    upstream: {
      baseUrl: upstream.url,
      demo: { externalIds: [LOAD], loadNumbers: [], webhookToken: null },
    },
  });
});

test.afterAll(async () => {
  await stack?.close();
  await upstream?.close();
});

test.afterEach(() => {
  const { lines, leaks } = leakyLogLines(stack);
  expect(lines, 'the stack logged its requests').toBeGreaterThan(0);
  expect(leaks, 'log lines that carry a secret').toEqual([]);
});

async function expectInert(page: Page, exploits: ReturnType<typeof watchForExploits>) {
  expect(await unsafeAddresses(page), 'addresses that are not http(s) or same-origin').toEqual([]);
  await expect(page.locator('main script, main iframe, main object, main embed, img[onerror]')).toHaveCount(
    0,
  );
  expect(exploits.found()).toEqual([]);
}

test('bad coordinates are skipped, not drawn, and counted; HTML in status, driver and comment stays text', async ({
  page,
}) => {
  const exploits = watchForExploits(page);
  await page.goto(`${stack.proxy.url}/`);
  const map = page.locator('.leaflet-container');
  await expect(page.getByRole('grid', { name: 'Loads, 1 shown' })).toBeVisible();
  await expect(map).toHaveAttribute('data-points', '1');

  await page.getByRole('row').filter({ hasText: LOAD }).click();
  const selected = page.getByRole('region', { name: 'Selected load' });
  await expect(selected).toContainText(`${GOOD_PINGS} pings`);
  await expect(map).toHaveAttribute('data-breadcrumb', String(GOOD_PINGS));
  await expectInert(page, exploits);

  await selected.getByRole('link', { name: 'Details' }).click();
  await expect(page.getByRole('heading', { level: 2 })).toContainText(LOAD);
  await expect(page.getByRole('heading', { name: `Pings (${GOOD_PINGS})` })).toBeVisible();
  const skipped = page.getByText(`${BAD_COORDINATES.length} items skipped because they could not be read`);
  await expect(skipped).toBeVisible();
  await skipped.click();
  await expect(page.getByRole('list', { name: 'Skipped items' }).getByRole('listitem')).toHaveCount(
    BAD_COORDINATES.length,
  );
  // The markup arrives as the text it is.
  await expect(page.getByRole('region', { name: 'Summary' })).toContainText(`In transit ${HTML}`);
  await expect(page.getByRole('list', { name: 'Conversation' })).toContainText(`Dock 4 ${HTML}`);
  await expect(page.locator('.leaflet-container')).toHaveAttribute('data-breadcrumb', String(GOOD_PINGS));
  await page.screenshot({ path: 'test-results/screenshots/hostile-detail.png', fullPage: true });
  await expectInert(page, exploits);
});

test('hostile document addresses become neither links nor images, in the inbox, the detail and the viewer', async ({
  page,
}) => {
  const exploits = watchForExploits(page);
  // A first visit to the map watches the demo fleet (here, the hostile load); then the inbox.
  await page.goto(`${stack.proxy.url}/`);
  await expect(page.getByRole('grid', { name: 'Loads, 1 shown' })).toBeVisible();
  await page.getByRole('link', { name: /^Documents/ }).click();
  const inbox = page.getByRole('list', { name: /^Documents, not reviewed/ });
  await expect(inbox.getByRole('listitem')).toHaveCount(HOSTILE_URLS.length + 1);
  await expect(inbox).toContainText(`POD ${HTML}`);
  // The one good address is shown as an image from its host.
  await expect(inbox.locator(`img[src$="/docs/${LOAD}/bol.svg"]`)).toHaveCount(1);
  await expectInert(page, exploits);

  await page.goto(`${stack.proxy.url}/loads/external-id/${LOAD}`);
  const documents = page.getByRole('region', { name: /^Documents/ });
  await expect(documents.getByRole('button', { name: /^Open / })).toHaveCount(HOSTILE_URLS.length + 1);
  await expectInert(page, exploits);

  // Through the viewer, document by document: a hostile address is shown as text, never opened.
  await documents
    .getByRole('button', { name: /^Open / })
    .first()
    .click();
  const viewer = page.getByRole('dialog');
  for (let i = 0; i <= HOSTILE_URLS.length; i++) {
    await expect(viewer).toBeVisible();
    await expectInert(page, exploits);
    if (i < HOSTILE_URLS.length) {
      await expect(viewer.getByRole('link', { name: 'Open original' })).toHaveCount(0);
      await expect(viewer).toContainText(HOSTILE_URLS[i]!.trim());
    } else {
      await expect(viewer.getByRole('link', { name: 'Open original' })).toHaveAttribute(
        'href',
        `${upstream.url}/docs/${LOAD}/bol.svg`,
      );
    }
    if (i < HOSTILE_URLS.length) await viewer.getByRole('button', { name: /Next/ }).click();
  }
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
  await expectInert(page, exploits);
});
