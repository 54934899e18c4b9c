import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { E2E_CREDENTIALS, secretsIn } from './support/credentials';
import { expect, test } from './support/fixtures';
import { watchForExploits } from './support/own-stack';

test('the credential guard fails a test whose page receives a secret (expected to fail: shown as ✘, counted as passed)', async ({
  page,
}) => {
  // The guard (support/fixtures.ts) runs after the test body: this test passes only if it fails.
  test.fail();
  await page.route('**/planted-leak', (route) =>
    route.fulfill({ contentType: 'text/plain', body: `partner ${E2E_CREDENTIALS.partnerId}` }),
  );
  await page.goto('/planted-leak');
  await expect(page.locator('body')).toContainText('partner');
});

test('no file of the built bundle carries a secret', () => {
  // dist/server/ (`npm run build`'s server, with the simulator's demo defaults) is never served.
  const files = readdirSync('dist', { recursive: true, encoding: 'utf8' })
    .filter((f) => !/^server[\\/]/.test(f))
    .map((f) => join('dist', f))
    .filter((f) => statSync(f).isFile());
  expect(files.filter((f) => f.endsWith('.js')).length).toBeGreaterThan(3);
  const leaks = files.flatMap((f) => secretsIn(readFileSync(f, 'latin1')).map((s) => `${f}: ${s}`));
  expect(leaks).toEqual([]);
});

const INJECTED = `<script>fetch('/pwned-inline')</script><img src="/favicon.svg" onerror="fetch('/pwned-attr')" onload="fetch('/pwned-attr')">`;

/**
 * Opens `/` with an inline script and an inline event handler added to the HTML the server sent,
 * keeping its headers (or dropping the CSP, for the control). Violations the browser reports are
 * collected through the `securitypolicyviolation` event; nothing is run in the page by the test.
 */
async function openInjected(page: Page, keepCsp: boolean) {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (m.text().startsWith('csp-violation ')) violations.push(m.text().slice(14));
  });
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) =>
      console.log(`csp-violation ${e.violatedDirective} ${e.blockedURI}`),
    ),
  );
  await page.route(
    (url) => url.pathname === '/',
    async (route) => {
      const response = await route.fetch();
      const headers = response.headers();
      if (!keepCsp) delete headers['content-security-policy'];
      const html = (await response.text()).replace('<head>', `<head>${INJECTED}`);
      expect(html).toContain(INJECTED);
      await route.fulfill({ response, headers, body: html });
    },
  );
  const exploits = watchForExploits(page);
  await page.goto('/');
  // The app's own script (from 'self') still runs: the map page comes up.
  await expect(page.getByRole('grid', { name: /Loads, \d+ shown/ })).toBeVisible();
  return { violations, exploits };
}

test('an inline script and an inline event handler injected into the HTML are blocked by the CSP', async ({
  page,
}) => {
  const { violations, exploits } = await openInjected(page, true);
  await expect
    .poll(() => violations)
    .toEqual(expect.arrayContaining(['script-src-elem inline', 'script-src-attr inline']));
  await page.waitForTimeout(500);
  expect(exploits.found()).toEqual([]);
});

test('control: without the CSP the same injection runs (so the check above can see it)', async ({ page }) => {
  const { violations, exploits } = await openInjected(page, false);
  await expect
    .poll(() => exploits.found())
    .toEqual(expect.arrayContaining([expect.stringContaining('/pwned-inline')]));
  expect(violations).toEqual([]);
});
