import { defineConfig } from '@playwright/test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumPath, CHROMIUM_FLAGS } from './scripts/chromium';
import { E2E_CREDENTIALS } from './e2e/support/credentials';
import { E2E_SERVER_LOG } from './e2e/support/server-log';

// Other ports with E2E_PORT (the simulator takes the next one), e.g. beside a running dashboard.
const PORT = Number(process.env.E2E_PORT ?? 8180);
const SIM_PORT = PORT + 1;

/**
 * The e2e suite drives the built app (`dist/`) in Debian's Chromium, never a downloaded browser.
 * The server runs with the embedded simulator and no map tiles, so nothing depends on the network.
 * Specs that need their own server (faults, logs) start it on ports 8480–8499.
 */
export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  // after-run.spec.ts reads what the server logged during the whole run, so it runs once all else has.
  projects: [
    { name: 'app', testIgnore: /after-run\.spec\.ts$/ },
    { name: 'after-run', testMatch: /after-run\.spec\.ts$/, dependencies: ['app'] },
  ],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_FLAGS },
    screenshot: 'only-on-failure',
  },
  webServer: {
    // Everything the server prints goes to the log file; if it stops on its own, the log is shown.
    command: `npx tsx src/server/main.ts > ${E2E_SERVER_LOG} 2>&1 || (cat ${E2E_SERVER_LOG} >&2; exit 1)`,
    url: `http://127.0.0.1:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(PORT),
      SIM_PORT: String(SIM_PORT),
      TILE_URL: 'none',
      SIM_LOADS: '40',
      // Its own embedded store, per port: ./data may be held by a dashboard running beside it.
      DATA_DIR: join(tmpdir(), `haulview-e2e-${PORT}`),
      // Distinctive credentials, so a leak of them is found (e2e/support/fixtures.ts).
      PARTNER_ID: E2E_CREDENTIALS.partnerId,
      ACCOUNT_ID: E2E_CREDENTIALS.accountId,
    },
  },
});
