import { manualClock, type Stack } from '@/testing/stack';
import { startTlsTerminator, type TlsTerminator } from '@/testing/tls-terminator';
import { addUser } from '@/server/auth/users';
import type { Store } from '@/server/store/store';
import { expect, test } from './support/fixtures';
import { openTestStore, startOwnStack } from './support/own-stack';

// The certificate is made for this run and signed by itself: the browser is told to accept it.
test.use({ ignoreHTTPSErrors: true });

let store: { store: Store; close: () => Promise<void> };
let tls: TlsTerminator;
let stack: Stack;
const clock = manualClock(Date.now());

test.beforeEach(async () => {
  store = await openTestStore();
  await addUser(
    store.store.db,
    { name: 'Ana', role: 'dispatcher', password: 'ana-has-a-long-password' },
    'test',
  );
  tls = await startTlsTerminator();
  stack = await startOwnStack({
    loads: 6,
    now: clock.now,
    store: store.store,
    env: { PUBLIC_ORIGIN: tls.url, TRUST_PROXY: '1' },
  });
  tls.forwardTo(stack.proxy.url);
});
test.afterEach(async () => {
  await tls?.close();
  await stack?.close();
  await store?.close();
});

test('through an HTTPS terminator, a user logs in, sees the map and board, and holds a Secure __Host- cookie', async ({
  page,
  context,
}) => {
  await page.goto(`${tls.url}/`);
  await expect(page.getByRole('heading', { name: 'Log in to Haulview' })).toBeVisible();
  await page.getByLabel('Username').fill('ana');
  await page.getByLabel('Password').fill('ana-has-a-long-password');
  await page.getByRole('button', { name: 'Log in' }).click();

  await expect(page.getByRole('banner')).toContainText('Ana · Dispatcher');
  await expect(page.locator('.leaflet-container')).toBeVisible();
  await expect(page.locator('[data-load]').first()).toBeVisible();
  expect(new URL(page.url()).origin).toBe(tls.url);

  const cookies = await context.cookies(tls.url);
  expect(cookies.map((c) => c.name)).toEqual(['__Host-haulview_session']);
  expect(cookies[0]).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Strict', path: '/' });

  // The session survives a reload: the browser sends its __Host- cookie back over https.
  await page.reload();
  await expect(page.getByRole('banner')).toContainText('Ana · Dispatcher');
});
