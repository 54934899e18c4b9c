import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Listening } from '@/server/start';
import { startStack, type Stack } from '@/testing/stack';
import { E2E_CREDENTIALS } from './support/credentials';
import { expect, test } from './support/fixtures';

/**
 * A deploy while a tab is open: the tab keeps its code, the server now serves another build. The
 * tab must say so and offer the reload, which then runs the new build. The address stays the same
 * (a gate of the test's own in front), as behind a load balancer.
 */
let stack: Stack;
let dist: string;
let gate: { url: string; to: (target: string) => void; close: () => Promise<void> };
let next: { proxy: Listening };

/** Forwards every request to the current target; `to` moves it, as a deploy's switch does. */
async function startGate(first: string): Promise<typeof gate> {
  let target = new URL(first);
  const server: Server = createServer((req, res) => {
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, connection: 'close' },
        agent: false,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.once('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    to: (url) => (target = new URL(url)),
    close: () => new Promise((done) => server.close(() => done())),
  };
}

test.beforeAll(async () => {
  // This build's files in a folder of the test's own: the next build changes its pages there.
  dist = mkdtempSync(join(tmpdir(), 'haulview-e2e-deploy-'));
  cpSync(resolve('dist'), dist, {
    recursive: true,
    filter: (from) => !from.includes(join('dist', 'server')),
  });
  stack = await startStack({
    loads: 6,
    distDir: dist,
    env: { REFRESH_SECONDS: '2' },
    credentials: { partnerId: Number(E2E_CREDENTIALS.partnerId), accountId: E2E_CREDENTIALS.accountId },
  });
  gate = await startGate(stack.proxy.url);
  const index = join(dist, 'index.html');
  writeFileSync(index, readFileSync(index, 'utf8').replace('</head>', '<!-- the next release --></head>'));
  next = await stack.addInstance();
});

test.afterAll(async () => {
  await gate?.close();
  await stack?.close();
  rmSync(dist, { recursive: true, force: true });
});

test('a tab opened before a deploy says Haulview was updated, and its reload runs the new build', async ({
  page,
}) => {
  await page.goto(`${gate.url}/`);
  const own = await page.locator('meta[name="haulview-build"]').getAttribute('content');
  expect(own).toMatch(/^[0-9a-f]{16}$/);
  await expect(page.getByRole('row').nth(3)).toBeVisible();
  const notice = page.getByRole('status').filter({ hasText: 'Haulview has been updated' });
  await expect(notice).toHaveCount(0);

  // The deploy: the same address now reaches the next build. The board's next refresh (from the
  // pull worker) brings its answer, and with it the news.
  gate.to(next.proxy.url);
  await expect(notice).toHaveText(/Haulview has been updated since this page was opened\./);

  await notice.getByRole('button', { name: 'Reload' }).click();
  await expect(page.locator('meta[name="haulview-build"]')).not.toHaveAttribute('content', own ?? '');
  await expect(page.getByRole('row').nth(3)).toBeVisible();
  await expect(notice).toHaveCount(0);
});

test('a page whose code the server no longer has says so, and the header and navigation stay', async ({
  page,
}) => {
  // The next build's server has none of this build's files: each answers 404, as Haulview's does.
  await page.route('**/assets/exceptions-route-*.js', (route) =>
    route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":{"code":"not_found"}}' }),
  );
  await page.goto(`${gate.url}/`);
  await expect(page.getByRole('row').nth(3)).toBeVisible();
  await page.getByRole('navigation').getByRole('link', { name: 'Exceptions' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'This page could not be loaded' });
  await expect(alert).toContainText('Haulview was probably updated since this tab was opened');
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Map' })).toBeVisible();
  // Another page opens as before.
  await page.getByRole('navigation').getByRole('link', { name: 'Map' }).click();
  await expect(alert).toHaveCount(0);
  await expect(page.getByRole('row').nth(3)).toBeVisible();
  // Reload brings the page with its code (here the server has it again).
  await page.unroute('**/assets/exceptions-route-*.js');
  await page.getByRole('navigation').getByRole('link', { name: 'Exceptions' }).click();
  await expect(alert).toBeVisible();
  await alert.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByRole('heading', { name: /Exceptions/ })).toBeVisible();
});
