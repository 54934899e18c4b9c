import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productionInstall, runBuiltServer, type ProductionInstall } from '@/testing/server-process';

/** The server as production runs it: built by `npm run build`, started by `node dist/server/main.js`. */
let install: ProductionInstall;
beforeAll(async () => {
  install = await productionInstall();
}, 60_000);
afterAll(() => install.remove());

const listening = /Haulview: (http:\/\/127\.0\.0\.1:\d+)/;

describe('the production build', () => {
  it('imports only the packages production installs (dependencies), vite only for --dev', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(install.imports.packages.length).toBeGreaterThan(0);
    for (const name of install.imports.packages) expect(Object.keys(pkg.dependencies)).toContain(name);
    expect(install.imports.dynamic).toEqual(['vite']);
    expect(Object.keys(pkg.dependencies)).not.toContain('tsx');
  });

  it('runs under plain node and serves the SPA and the API', async () => {
    const server = runBuiltServer(install, { PORT: '0', SIM_PORT: '0' });
    try {
      const [, url] = await server.waitFor(listening);
      const health = (await (await fetch(`${url}/api/health`)).json()) as { upstream: { mode: string } };
      expect(health.upstream.mode).toBe('simulator');
      expect(await (await fetch(`${url}/loads/external-id/1`)).text()).toContain('<title>Haulview</title>');
    } finally {
      await server.stop();
    }
  }, 30_000);
});
