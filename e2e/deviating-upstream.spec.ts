import type { startFakeUpstream } from '@/testing/fake-upstream';
import type { Stack } from '@/testing/stack';
import { startServiceWithDocs } from './support/fake-service';
import { startOwnStack } from './support/own-stack';
import { expect, test } from './support/fixtures';

/**
 * A service that departs from its schema as the real one is known to: a field of the wrong type in
 * the latest location and a ping; codes and a document type as numbers; a load wrapped one level
 * deeper; an envelope whose `timeStamp` is a number. Every load keeps its place on the map and board,
 * every item with a usable core is kept, and the load page says in words what was dropped.
 */
const ODD = '900101';
const WRAPPED = '900102';

const pad = (n: number) => String(n).padStart(2, '0');
/** `MM/DD/YYYY HH:mm:ss UTC` of a moment `minutesAgo` before now. */
function utc(minutesAgo: number): string {
  const d = new Date(Date.now() - minutesAgo * 60_000);
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()} ${time} UTC`;
}

function details(docs: string) {
  const at = (minutesAgo: number) => ({ timestampUTC: utc(minutesAgo), timestamp: utc(minutesAgo) });
  const odd = {
    loadTrackExternalId: Number(ODD),
    latestLocation: {
      lat: '41.2565',
      lon: '-95.9345',
      accuracy: 15,
      ...at(2),
      city: { name: 'Omaha', fips: 31055 },
      state: 'NE',
    },
    latestStatus: { name: 'In transit', code: 3, ...at(30) },
    locations: [
      { lat: '41.10', lon: '-95.70', accuracy: { value: 12, unit: 'm' }, ...at(20) },
      { lat: '41.2565', lon: '-95.9345', accuracy: 15, ...at(2) },
    ],
    events: [{ id: 1, name: 'Loaded', code: 214, ...at(60) }],
    documents: [{ type: 7, url: `${docs}/docs/${ODD}/bol.svg`, ...at(50) }],
  };
  const wrapped = {
    loadDetail: {
      loadTrackExternalId: WRAPPED,
      latestLocation: { lat: '40.71', lon: '-74.00', accuracy: 20, ...at(5), city: 'New York', state: 'NY' },
      latestStatus: { name: 'In transit', code: 'ITR', ...at(40) },
    },
  };
  return [odd, wrapped];
}

let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
let stack: Stack;

test.beforeAll(async () => {
  upstream = await startServiceWithDocs((base) => ({
    status: true,
    timeStamp: Date.now(),
    details: details(base),
  }));
  stack = await startOwnStack({
    upstream: {
      baseUrl: upstream.url,
      demo: { externalIds: [ODD, WRAPPED], loadNumbers: [], webhookToken: null },
    },
  });
});

test.afterAll(async () => {
  await stack?.close();
  await upstream?.close();
});

test('an odd field costs that field: every load is placed, and the load page says what was dropped', async ({
  page,
}) => {
  await page.goto(`${stack.proxy.url}/`);
  await expect(page.getByRole('grid', { name: 'Loads, 2 shown' })).toBeVisible();
  await expect(page.locator('.leaflet-container')).toHaveAttribute('data-points', '2');
  // The wrapped load is read, not reported as unknown to the service.
  await expect(page.getByText(/Not found by the tracking service/)).toHaveCount(0);
  const odd = page.getByRole('row').filter({ hasText: ODD });
  await expect(odd).toContainText('NE');
  await expect(odd).not.toContainText('no position');

  await page.goto(`${stack.proxy.url}/loads/external-id/${ODD}`);
  const summary = page.getByRole('region', { name: 'Summary' });
  const dropped = summary.getByText('2 fields dropped because they could not be read; their items are kept');
  await expect(dropped).toBeVisible();
  await dropped.click();
  const notes = page.getByRole('list', { name: 'Skipped items' });
  await expect(notes).toContainText('Latest location kept without its city, which is of the wrong type');
  await expect(notes).toContainText('Ping 1 kept without its accuracy, which is of the wrong type');
  await expect(page.getByRole('heading', { name: 'Pings (2)' })).toBeVisible();
  // The status's code and the document's type came as numbers: shown as their text.
  await expect(summary).toContainText('In transit (3)');
  await expect(
    page.getByRole('region', { name: /^Documents/ }).getByRole('button', { name: /^Open 7/ }),
  ).toHaveCount(1);
  await page.screenshot({ path: 'test-results/screenshots/deviating-detail.png', fullPage: true });

  await page.goto(`${stack.proxy.url}/loads/external-id/${WRAPPED}`);
  await expect(page.getByRole('region', { name: 'Summary' })).toContainText('New York');
});
