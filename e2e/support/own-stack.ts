import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { startStack, type Stack } from '@/testing/stack';
import type { FaultOptions } from '@/simulator/faults';
import type { Upstream } from '@/server/start';
import { migrateToLatest } from '@/server/store/migrate';
import { openStore, type Store } from '@/server/store/store';
import { E2E_CREDENTIALS, secretsIn } from './credentials';

/**
 * A dashboard of the spec's own, in the test process: the built SPA (`dist/`) and the proxy on a free
 * loopback port, in front of the simulator (faults switchable) or of another upstream. It runs with
 * the e2e credentials, and its request log is kept, so a spec can check that no line carries a secret.
 */
export function startOwnStack(options: {
  upstream?: Partial<Upstream>;
  env?: Record<string, string>;
  faults?: FaultOptions;
  loads?: number;
  now?: () => number;
  /** The team's store (see `openTestStore`); without one the dashboard runs open. */
  store?: Store;
}): Promise<Stack> {
  return startStack({
    ...options,
    distDir: resolve('dist'),
    credentials: { partnerId: Number(E2E_CREDENTIALS.partnerId), accountId: E2E_CREDENTIALS.accountId },
  });
}

/** An empty embedded store (PGlite) in a temporary folder, migrated; `close` also removes the folder. */
export async function openTestStore(): Promise<{ store: Store; close: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'haulview-e2e-store-'));
  const store = await openStore({ dataDir });
  await migrateToLatest(store.db);
  return {
    store,
    close: async () => {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Log lines of a stack that carry a secret (none expected), and proof that the log was written at all. */
export function leakyLogLines(stack: Stack): { lines: number; leaks: string[] } {
  return { lines: stack.logs.length, leaks: stack.logs.filter((l) => secretsIn(l).length > 0) };
}

/**
 * Watches a page for signs that hostile content ran: any request to a `/pwned` path or to
 * evil.example, a dialog, an uncaught error. `found()` lists them.
 */
export function watchForExploits(page: Page): { found: () => string[] } {
  const found: string[] = [];
  page.on('request', (r) => {
    if (/\/pwned|evil\.example/i.test(r.url())) found.push(`request ${r.url()}`);
  });
  page.on('dialog', (d) => {
    found.push(`dialog ${d.message()}`);
    void d.dismiss();
  });
  page.on('pageerror', (e) => found.push(`page error ${e.message}`));
  return { found: () => [...found] };
}

/** Every `href` and `src` in the page: each must be an http(s) or same-origin address. */
export async function unsafeAddresses(page: Page): Promise<string[]> {
  const addresses = await page
    .locator('[href], [src], [srcset], [action], [formaction]')
    .evaluateAll((els) =>
      els.flatMap((e) =>
        ['href', 'src', 'srcset', 'action', 'formaction'].flatMap((a) => e.getAttribute(a) ?? []),
      ),
    );
  return addresses.filter((a) => !/^(https?:\/\/[^/]|\/(?!\/)|blob:|#|tel:|data:image\/)/i.test(a.trim()));
}
