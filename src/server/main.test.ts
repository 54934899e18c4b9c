import { spawnSync } from 'node:child_process';
import { sql } from 'kysely';
import http from 'node:http';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusingUrl, startFakeUpstream, type SeenRequest } from '@/testing/fake-upstream';
import { TEST_CREDENTIALS } from '@/testing/stack';
import { startSimulator } from '@/simulator/start';
import { productionInstall, runBuiltServer, type ProductionInstall } from '@/testing/server-process';
import { MIGRATE_OUTFILE, USERS_OUTFILE } from '../../scripts/server-build';
import { readProcessEnv } from './config';
import { openAndMigrate } from './store/open-at-start';

/** The server as production runs it: built by `npm run build`, started by `node dist/server/main.js`. */
let install: ProductionInstall;
beforeAll(async () => {
  install = await productionInstall();
}, 60_000);
// Each server's copy of the embedded store goes with it: a busy machine's disk takes its time.
afterAll(() => install.remove(), 60_000);

const listening = /Haulview: (http:\/\/127\.0\.0\.1:\d+)/;

/** A loopback port that something else holds while `use` runs. */
async function whileTaken(use: (port: number) => Promise<void>): Promise<void> {
  const holder: Server = createServer();
  await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
  const address = holder.address();
  try {
    await use(typeof address === 'object' && address ? address.port : 0);
  } finally {
    await new Promise<void>((r) => holder.close(() => r()));
  }
}

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

describe('a misspelt setting', () => {
  it('is named at start with the setting it resembles, never its value', async () => {
    const server = runBuiltServer(install, { PORT: '0', SIM_PORT: '0', REFERSH_SECONDS: '5-secret' });
    try {
      await server.waitFor(listening);
      expect(server.stderr()).toContain(
        'Warning: REFERSH_SECONDS is not a Haulview setting; did you mean REFRESH_SECONDS?\n',
      );
      expect(server.output()).not.toContain('5-secret');
    } finally {
      await server.stop();
    }
  }, 30_000);
});

describe('the embedded simulator', () => {
  it('takes a free loopback port when SIM_PORT is unset: two demos run side by side', async () => {
    const servers = [runBuiltServer(install, { PORT: '0' }), runBuiltServer(install, { PORT: '0' })];
    try {
      const started = await Promise.all(
        servers.map(async (server) => {
          const [, url] = await server.waitFor(listening);
          const [, simUrl] = await server.waitFor(/Simulator: \d+ demo loads at (http:\/\/127\.0\.0\.1:\d+)/);
          return { url: url as string, simUrl: simUrl as string };
        }),
      );
      const [a, b] = started;
      expect(a?.simUrl).not.toBe(b?.simUrl);
      for (const { url, simUrl } of started) {
        // Each dashboard pulls from its own simulator, which answers on the port it printed.
        const config = (await (await fetch(`${url}/api/config`)).json()) as {
          demo: { loadNumbers: string[] };
        };
        expect(config.demo.loadNumbers.length).toBeGreaterThan(0);
        const pull = await fetch(`${url}/api/pull/by-load-number`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'haulview' },
          body: JSON.stringify({ ids: config.demo.loadNumbers }),
        });
        expect(pull.status).toBe(200);
        expect((await fetch(simUrl)).status).toBeLessThan(500);
      }
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  }, 30_000);
});

describe("the demo's simulator port, kept in DATA_DIR", () => {
  const simAt = /Simulator: \d+ demo loads at (http:\/\/127\.0\.0\.1:(\d+))/;
  const freshDataDir = () => {
    const dataDir = mkdtempSync(join(install.dir, 'data-'));
    cpSync(install.dataTemplate, dataDir, { recursive: true });
    return dataDir;
  };
  /** Starts a demo on `dataDir` and stops it; the simulator's URL and all it printed. */
  const runOnce = async (dataDir: string) => {
    const server = runBuiltServer(install, { PORT: '0', DATA_DIR: dataDir });
    try {
      await server.waitFor(listening);
      const [, simUrl = '', port = ''] = await server.waitFor(simAt);
      return { simUrl, port: Number(port), output: server.output() };
    } finally {
      await server.stop();
    }
  };

  it("is taken again at a restart, so the documents' addresses stay the same", async () => {
    const dataDir = freshDataDir();
    const first = await runOnce(dataDir);
    expect(readFileSync(join(dataDir, 'simulator-port'), 'utf8')).toBe(`${first.port}\n`);
    const second = await runOnce(dataDir);
    expect(second.simUrl).toBe(first.simUrl);
    expect(second.output).not.toMatch(/is in use/);
  }, 60_000);

  it('when it is taken, a free one is taken instead, said in the log and kept for next time', async () => {
    const dataDir = freshDataDir();
    await whileTaken(async (taken) => {
      writeFileSync(join(dataDir, 'simulator-port'), `${taken}\n`);
      const started = await runOnce(dataDir);
      expect(started.port).not.toBe(taken);
      expect(started.output).toContain(
        `Simulator: port ${taken}, kept in DATA_DIR from the last start, is in use: it listens on ${started.port} now. `,
      );
      expect(readFileSync(join(dataDir, 'simulator-port'), 'utf8')).toBe(`${started.port}\n`);
    });
  }, 60_000);
});

describe('a port that is taken', () => {
  for (const variable of ['PORT', 'SIM_PORT'] as const) {
    it(`${variable}: one line naming it, exit code 1, no stack trace`, async () => {
      await whileTaken(async (port) => {
        const env: Record<string, string> =
          variable === 'PORT' ? { PORT: String(port) } : { PORT: '0', SIM_PORT: String(port) };
        const server = runBuiltServer(install, env);
        try {
          expect(await server.exited).toBe(1);
          expect(server.stderr()).toBe(
            `${variable}=${port} is taken: another process listens on 127.0.0.1:${port}. ` +
              `Stop it, or set ${variable} to a free port${variable === 'SIM_PORT' ? ', or leave it unset for a free one' : ''}.\n`,
          );
          expect(server.output()).not.toMatch(/^\s+at /m);
          expect(server.output()).not.toMatch(/Haulview: http/);
        } finally {
          await server.stop();
        }
      });
    }, 30_000);
  }
});

describe('a HOST that cannot be looked up', () => {
  it('one line naming HOST, exit code 1, no stack trace', async () => {
    const server = runBuiltServer(install, { PORT: '0', HOST: 'nosuch.invalid' });
    try {
      expect(await server.exited).toBe(1);
      expect(server.stderr()).toBe(
        'HOST=nosuch.invalid is not a name this machine can look up: cannot listen on it. ' +
          'Set HOST to an address of this machine (127.0.0.1, or 0.0.0.0 for every interface).\n',
      );
      expect(server.output()).not.toMatch(/^\s+at /m);
      expect(server.output()).not.toMatch(/Haulview: http/);
    } finally {
      await server.stop();
    }
  }, 30_000);
});

describe('the store', () => {
  it('is kept in ./data by default; a second process on it gets one line, exit code 1', async () => {
    const first = runBuiltServer(install, { PORT: '0', DATA_DIR: '' });
    try {
      const [, url] = await first.waitFor(listening, 60_000);
      expect(first.output()).toContain(
        'Store: the embedded store in ./data, applied 20261126T2200-audit-log',
      );
      expect(existsSync(join(install.dir, 'data', 'pglite', 'PG_VERSION'))).toBe(true);
      expect((await fetch(`${url}/api/ready`)).status).toBe(200);
      const second = runBuiltServer(install, { PORT: '0', DATA_DIR: '' });
      expect(await second.exited).toBe(1);
      expect(second.stderr()).toMatch(
        new RegExp(
          `^DATA_DIR=\\./data is in use by another process \\(pid \\d+\\): [^\\n]*delete ${join(install.dir, 'data', 'haulview.lock')}\\.\\n$`,
        ),
      );
      expect(second.output()).not.toMatch(/^\s+at /m);
      expect(second.output()).not.toMatch(/Simulator:|Haulview: http/);
    } finally {
      await first.stop();
    }
    // Stopped with SIGTERM, it closed the store and gave the folder back.
    expect(existsSync(join(install.dir, 'data', 'haulview.lock'))).toBe(false);
  }, 90_000);

  it('a DATABASE_URL that does not answer: one line naming it, exit code 1, nothing listening', async () => {
    const port = new URL(await refusingUrl()).port;
    const free = new URL(await refusingUrl()).port;
    const server = runBuiltServer(install, {
      PORT: free,
      DATABASE_URL: `postgres://haulview:hunter2-secret@127.0.0.1:${port}/haulview`,
    });
    try {
      expect(await server.exited).toBe(1);
      expect(server.stderr()).toMatch(
        new RegExp(
          `^DATABASE_URL: cannot reach PostgreSQL at 127\\.0\\.0\\.1:${port}/haulview \\([^\\n]*\\n$`,
        ),
      );
      expect(server.output()).not.toContain('hunter2');
      expect(server.output()).not.toMatch(/^\s+at /m);
      await expect(fetch(`http://127.0.0.1:${free}/api/health`)).rejects.toThrow();
    } finally {
      await server.stop();
    }
  }, 30_000);
});

describe('the users command', () => {
  it('runs under plain node from the build: node dist/server/users.js', () => {
    const dataDir = mkdtempSync(join(install.dir, 'data-'));
    cpSync(install.dataTemplate, dataDir, { recursive: true });
    const added = spawnSync(process.execPath, [USERS_OUTFILE, 'add', 'ana', '--role', 'admin'], {
      cwd: install.dir,
      env: { PATH: readProcessEnv().PATH ?? '', DATA_DIR: dataDir },
      input: 'a long enough password\n',
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect({ status: added.status, stdout: added.stdout, stderr: added.stderr }).toEqual({
      status: 0,
      stdout: 'Added ana (admin).\n',
      stderr: '',
    });
    // Its usage names the command that runs here: a release has no tsx for `npm run users`.
    const usage = spawnSync(process.execPath, [USERS_OUTFILE], {
      cwd: install.dir,
      env: { PATH: readProcessEnv().PATH ?? '', DATA_DIR: dataDir },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(usage.stderr + usage.stdout).toContain('usage: node dist/server/users.js add NAME');
  }, 90_000);
});

describe('the migrate command', () => {
  it('runs under plain node from the build, as npm run db:migrate: node dist/server/migrate.js', () => {
    // Production installs no tsx (npm ci --omit=dev): the script must run the built file.
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts['db:migrate']).toBe(`node ${MIGRATE_OUTFILE}`);
    const dataDir = mkdtempSync(join(install.dir, 'data-'));
    const migrate = () => {
      const run = spawnSync(process.execPath, [MIGRATE_OUTFILE], {
        cwd: install.dir,
        env: { PATH: readProcessEnv().PATH ?? '', DATA_DIR: dataDir },
        encoding: 'utf8',
        timeout: 60_000,
      });
      return { status: run.status, stdout: run.stdout, stderr: run.stderr };
    };
    expect(migrate()).toMatchObject({
      status: 0,
      stdout: expect.stringMatching(/^the embedded store in [^\n]*: applied [^\n]*20261126T2200-audit-log/),
      stderr: '',
    });
    expect(migrate()).toEqual({
      status: 0,
      stdout: `the embedded store in ${dataDir}: schema up to date\n`,
      stderr: '',
    });
  }, 90_000);
});

describe('production (NODE_ENV=production)', () => {
  it('refuses to start without UPSTREAM_BASE_URL: one line, exit code 2, nothing listening', async () => {
    const free = new URL(await refusingUrl()).port;
    const server = runBuiltServer(install, { NODE_ENV: 'production', PORT: free });
    try {
      expect(await server.exited).toBe(2);
      expect(server.stderr()).toMatch(
        /^NODE_ENV=production but UPSTREAM_BASE_URL is not set: [^\n]*DEMO=true[^\n]*\n$/,
      );
      expect(server.output()).not.toMatch(/Simulator:|Haulview: http/);
      await expect(fetch(`http://127.0.0.1:${free}/api/health`)).rejects.toThrow();
    } finally {
      await server.stop();
    }
  }, 30_000);

  it('serves the demo when DEMO=true says so', async () => {
    const server = runBuiltServer(install, { NODE_ENV: 'production', DEMO: 'true', PORT: '0' });
    try {
      const [, url] = await server.waitFor(listening);
      const health = (await (await fetch(`${url}/api/health`)).json()) as { upstream: { mode: string } };
      expect(health.upstream.mode).toBe('simulator');
    } finally {
      await server.stop();
    }
  }, 30_000);

  it('starts with an upstream configured, and starts no simulator', async () => {
    const server = runBuiltServer(install, {
      NODE_ENV: 'production',
      PORT: '0',
      UPSTREAM_BASE_URL: 'http://127.0.0.1:9',
      PARTNER_ID: '12',
      ACCOUNT_ID: 'enc',
    });
    try {
      const [, url] = await server.waitFor(listening);
      const health = (await (await fetch(`${url}/api/health`)).json()) as { upstream: { mode: string } };
      expect(health.upstream.mode).toBe('remote');
      expect(server.output()).not.toMatch(/Simulator:/);
    } finally {
      await server.stop();
    }
  }, 30_000);
});

/** GET over a connection kept alive by `agent`; resolves with the status, the body and its Connection header. */
function getOn(
  agent: http.Agent,
  url: string,
): Promise<{ status: number; body: string; connection?: string }> {
  return new Promise((done, fail) => {
    http
      .get(url, { agent }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => done({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
      })
      .on('error', fail);
  });
}

/** The simulator's answer to a request the fake service saw: its status and its text. */
async function simulatorAnswer(simUrl: string, req: SeenRequest): Promise<{ status: number; text: string }> {
  const answer = await fetch(`${simUrl}${req.url}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: req.body,
  });
  return { status: answer.status, text: await answer.text() };
}

describe('stopping', () => {
  it('SIGTERM: refuses new connections, says draining on /api/ready, finishes the pull in flight, exits 0', async () => {
    const sim = await startSimulator({ port: 0, seed: 7, loads: 3, speed: 60, ...TEST_CREDENTIALS });
    // The service as the simulator answers it, held until the test lets it go: a slow answer whose
    // request is known to be in flight.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const upstream = await startFakeUpstream((req, res) => {
      void (async () => {
        const { status, text } = await simulatorAnswer(sim.url, req);
        await held;
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(text);
      })();
    });
    const server = runBuiltServer(install, {
      PORT: '0',
      UPSTREAM_BASE_URL: upstream.url,
      PARTNER_ID: String(TEST_CREDENTIALS.partnerId),
      ACCOUNT_ID: TEST_CREDENTIALS.accountId,
      SHUTDOWN_GRACE_SECONDS: '60',
    });
    const probe = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const [, url] = await server.waitFor(listening);
      // A balancer's probe, on a connection it keeps.
      expect((await getOn(probe, `${url}/api/ready`)).status).toBe(200);
      const ids = sim.fleet.map((p) => String(p.externalId));
      const pull = fetch(`${url}/api/pull/by-external-id`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'haulview' },
        body: JSON.stringify({ ids }),
      });
      while (upstream.seen.length === 0) await new Promise((r) => setTimeout(r, 20));

      server.signal('SIGTERM');
      await server.waitFor(/SIGTERM: no new connections; waiting up to 60 s for 1 requests in flight/);
      const ready = await getOn(probe, `${url}/api/ready`);
      expect(ready.status).toBe(503);
      expect(JSON.parse(ready.body)).toMatchObject({ error: { code: 'draining' } });
      // The kept connection is told to go, and a new one is refused.
      expect(ready.connection).toBe('close');
      await expect(fetch(`${url}/api/health`)).rejects.toThrow();

      release();
      const answer = await pull;
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as { loads: { id: string }[] };
      expect(body.loads.map((l) => l.id).sort()).toEqual([...ids].sort());
      expect(await server.exited).toBe(0);
      // The runtime's lines carry their instant, as the request log's do.
      expect(server.output()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z SIGTERM: no new connections/m);
      expect(server.output()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z Haulview stopped\.$/m);
      expect(server.output()).not.toContain('cut off');
    } finally {
      release();
      probe.destroy();
      await server.stop();
      await upstream.close();
      await sim.close();
    }
  }, 30_000);

  it("SIGTERM with the puller's delta held by a slow service: gives it up at the grace's end, stores nothing of it, releases the lease, exits 0", async () => {
    const sim = await startSimulator({ port: 0, seed: 7, loads: 3, speed: 60, ...TEST_CREDENTIALS });
    // The service answers the first (full) pull; every later one only after a minute, far past the
    // shutdown's grace (the process's deadline for one call is ten minutes).
    let lateAnswers = 0;
    const timers = new Set<NodeJS.Timeout>();
    const upstream = await startFakeUpstream((req, res) => {
      void (async () => {
        const { status, text } = await simulatorAnswer(sim.url, req);
        const send = () => res.writeHead(status, { 'Content-Type': 'application/json' }).end(text);
        if (upstream.seen.indexOf(req) === 0) send();
        else
          timers.add(
            setTimeout(() => {
              lateAnswers++;
              send();
            }, 60_000),
          );
      })();
    });
    const dataDir = mkdtempSync(join(install.dir, 'data-'));
    cpSync(install.dataTemplate, dataDir, { recursive: true });
    const server = runBuiltServer(install, {
      PORT: '0',
      DATA_DIR: dataDir,
      TRACKS: 'store',
      UPSTREAM_BASE_URL: upstream.url,
      PARTNER_ID: String(TEST_CREDENTIALS.partnerId),
      ACCOUNT_ID: TEST_CREDENTIALS.accountId,
      UPSTREAM_TIMEOUT_MS: '600000',
      REFRESH_SECONDS: '2',
      SHUTDOWN_GRACE_SECONDS: '1',
    });
    try {
      const [, url] = await server.waitFor(listening);
      const ids = sim.fleet.map((p) => String(p.externalId));
      const pull = async () => {
        const response = await fetch(`${url}/api/pull/by-external-id`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'haulview' },
          body: JSON.stringify({ ids }),
        });
        return (await response.json()) as { cursor: string; loads: unknown[] };
      };
      // The puller's first, full answer is stored; its next call, a delta, is under way.
      let stored = await pull();
      while (stored.loads.length < ids.length || upstream.seen.length < 2) {
        await new Promise((r) => setTimeout(r, 50));
        stored = await pull();
      }

      server.signal('SIGTERM');
      expect(await server.exited).toBe(0);
      // It did not wait for the delta's answer.
      expect(lateAnswers).toBe(0);
      expect(server.output()).toContain('The grace is over: upstream calls still in flight were given up');
      expect(server.output()).toContain('Haulview stopped.');

      const { store } = await openAndMigrate({ dataDir });
      try {
        // Nothing of the given-up delta was written: the store's sequence is where the last answer left it.
        const clock = await store.db.selectFrom('track_clock').select('seq').executeTakeFirstOrThrow();
        expect(String(clock.seq)).toBe(stored.cursor.split('.')[1]);
        // The lease was given up: the next instance need not wait for it to expire.
        const lease = await store.db
          .selectFrom('puller_leases')
          .select(sql<boolean>`expires_at < now()`.as('over'))
          .executeTakeFirstOrThrow();
        expect(lease.over).toBe(true);
      } finally {
        await store.close();
      }
    } finally {
      for (const timer of timers) clearTimeout(timer);
      await server.stop();
      await upstream.close();
      await sim.close();
    }
  }, 30_000);

  it('SIGINT with a request held past the grace: cuts it off at the deadline and still exits 0', async () => {
    const upstream = await startFakeUpstream(() => {
      // Never answers.
    });
    const server = runBuiltServer(install, {
      PORT: '0',
      UPSTREAM_BASE_URL: upstream.url,
      PARTNER_ID: '12',
      ACCOUNT_ID: 'enc',
      UPSTREAM_TIMEOUT_MS: '600000',
      SHUTDOWN_GRACE_SECONDS: '0',
    });
    try {
      const [, url] = await server.waitFor(listening);
      const pull = fetch(`${url}/api/pull/by-external-id`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'haulview' },
        body: JSON.stringify({ ids: ['1'] }),
      }).then(
        (r) => r.status,
        () => 'cut',
      );
      while (upstream.seen.length === 0) await new Promise((r) => setTimeout(r, 20));
      server.signal('SIGINT');
      expect(await server.exited).toBe(0);
      expect(await pull).toBe('cut');
      expect(server.output()).toContain('1 requests still in flight were cut off');
      expect(server.output()).toContain('The grace is over: upstream calls still in flight were given up');
    } finally {
      await server.stop();
      await upstream.close();
    }
  }, 30_000);
});
