import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoadView, ProxyPullAnswer } from '@/contract/load-view';
import { startSimulator, type RunningSimulator } from '@/simulator/start';
import {
  productionInstall,
  runBuiltServer,
  type ProductionInstall,
  type ServerProcess,
} from '@/testing/server-process';
import { TEST_CREDENTIALS } from '@/testing/stack';
import { createTestDatabase, type TestDatabase } from '@/testing/test-store';

/**
 * Issue 35's test of several instances: three built servers on one real PostgreSQL, behind a
 * round-robin balancer of the test's own, the service faulting, the puller's instance killed with
 * SIGKILL twice while a "browser" polls through the balancer. Real clocks and timers (the instances
 * are processes), with a short refresh and lease; no assertion on how long anything took.
 */

const LISTS = ['pings', 'events', 'comments', 'documents'] as const;
type Lists = Record<(typeof LISTS)[number], Set<string>>;

interface Instance {
  process: ServerProcess;
  url: string;
  alive: boolean;
}

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((done) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => done(Buffer.concat(chunks)));
  });

/** Round-robin over the instances alive; one that refuses the connection is skipped, as a balancer does. */
async function startBalancer(instances: Instance[]) {
  let next = 0;
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      for (let tries = 0; tries < instances.length; tries++) {
        const target = instances[next++ % instances.length] as Instance;
        if (!target.alive) continue;
        try {
          const answer = await fetch(`${target.url}${req.url}`, {
            method: req.method,
            headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'haulview' },
            body: req.method === 'GET' ? undefined : new Uint8Array(body),
          });
          res.writeHead(answer.status, {
            'Content-Type': answer.headers.get('content-type') ?? 'text/plain',
          });
          res.end(Buffer.from(await answer.arrayBuffer()));
          return;
        } catch {
          // Killed under the request: the next instance answers.
        }
      }
      res.writeHead(502).end();
    })();
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

async function pullFrom(url: string, ids: string[], since?: string) {
  const response = await fetch(`${url}/api/pull/by-external-id`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'haulview' },
    body: JSON.stringify({ ids, since }),
  });
  if (response.status !== 200) return undefined;
  return ProxyPullAnswer.parse(await response.json());
}

/** Item keys per load and list, as a page merges answers (an item sent again replaces its key). */
function absorb(view: Map<string, Lists>, answer: ProxyPullAnswer): void {
  for (const raw of answer.loads) {
    const load = LoadView.parse(raw);
    let lists = view.get(load.id);
    if (!lists)
      view.set(
        load.id,
        (lists = { pings: new Set(), events: new Set(), comments: new Set(), documents: new Set() }),
      );
    for (const list of LISTS) for (const item of load[list]) lists[list].add(item.key);
  }
}

describe('three instances on one PostgreSQL server (TRACKS=store)', () => {
  let install: ProductionInstall;
  let database: TestDatabase;
  let sim: RunningSimulator;
  const instances: Instance[] = [];
  let frozenAt: number | undefined;
  beforeAll(async () => {
    install = await productionInstall();
    database = await createTestDatabase('postgres');
    sim = await startSimulator({
      port: 0,
      seed: 35,
      loads: 8,
      speed: 60,
      ...TEST_CREDENTIALS,
      now: () => frozenAt ?? Date.now(),
    });
  }, 120_000);
  afterAll(async () => {
    for (const i of instances) if (i.alive) i.process.signal('SIGKILL');
    await Promise.all(instances.map((i) => i.process.exited));
    await sim?.close();
    await database?.drop();
    install?.remove();
  });

  async function startInstance(): Promise<Instance> {
    const process = runBuiltServer(install, {
      DATABASE_URL: database.options.databaseUrl as string,
      UPSTREAM_BASE_URL: sim.url,
      PARTNER_ID: String(TEST_CREDENTIALS.partnerId),
      ACCOUNT_ID: TEST_CREDENTIALS.accountId,
      HOST: '127.0.0.1',
      PORT: '0',
      REFRESH_SECONDS: '2',
      LEASE_SECONDS: '3',
      UPSTREAM_TIMEOUT_MS: '5000',
    });
    const [, url] = await process.waitFor(/Haulview: (http:\/\/\S+)/, 60_000);
    const instance = { process, url: url as string, alive: true };
    instances.push(instance);
    return instance;
  }

  /** The instance whose /api/ready says it pulls; waits for one (a takeover takes a lease's term). */
  async function leader(): Promise<Instance> {
    for (let round = 0; round < 150; round++) {
      for (const i of instances.filter((x) => x.alive)) {
        const ready = await fetch(`${i.url}/api/ready`).then((r) => r.json() as Promise<{ puller?: string }>);
        if (ready.puller === 'leader') return i;
      }
      await sleep(200);
    }
    throw new Error('no instance took the lease');
  }

  it('lose nothing and pull once per chunk per refresh, with the puller killed twice', async () => {
    // Started one after the other: each migrates under the store's advisory lock anyway.
    for (let n = 0; n < 3; n++) await startInstance();
    const balancer = await startBalancer(instances);
    const ids = sim.fleet.map((p) => String(p.externalId));
    const view = new Map<string, Lists>();
    let cursor: string | undefined;
    let polling = true;
    let answered = 0;
    const browser = (async () => {
      while (polling) {
        const answer = await pullFrom(balancer.url, ids, cursor).catch(() => undefined);
        if (answer && !answer.pending?.length) {
          absorb(view, answer);
          cursor = answer.cursor;
          answered++;
        }
        await sleep(300);
      }
    })();
    try {
      // Without faults, steady: the three instances together call the service once a refresh.
      await leader();
      while (answered < 3) await sleep(200);
      const before = sim.pulls();
      const started = Date.now();
      await sleep(6000);
      const rounds = (Date.now() - started) / 1500; // freshMs is the refresh less half a round
      const calls = sim.pulls() - before;
      expect(calls).toBeGreaterThan(0);
      // One instance pulling: at most one call per round; three would make three times as many.
      expect(calls).toBeLessThanOrEqual(Math.ceil(rounds) + 1);

      // The service faults (resets after the cursor moved, slow answers, 500s); the puller is killed twice.
      sim.setFaults({ resetRate: 0.15, errorRate: 0.15, slowRate: 0.1, slowMs: 1500, latencyMs: 20 });
      for (let kill = 0; kill < 2; kill++) {
        await sleep(3000);
        const victim = await leader();
        victim.process.signal('SIGKILL');
        victim.alive = false;
        await victim.process.exited;
        const next = await leader();
        expect(next).not.toBe(victim);
        await startInstance();
      }
      await sleep(3000);

      // The service settles and its clock stops: what every instance serves must be all of it.
      sim.setFaults({});
      frozenAt = Date.now();
      const settled = sim.pulls();
      while (sim.pulls() < settled + 3) await sleep(200);
      await sleep(1000);
      polling = false;
      await browser;
      absorb(view, (await pullFrom(balancer.url, ids, cursor)) as ProxyPullAnswer);

      const truth = await fetch(`${sim.url}/loadtrackservice/getLoadTrackDetailsServiceV2`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...TEST_CREDENTIALS, loadTrackExternalIds: ids, sendNewData: 'no' }),
      });
      const details = ((await truth.json()) as { details: Record<string, unknown[] | number>[] }).details;
      const wire = {
        pings: 'locations',
        events: 'events',
        comments: 'comments',
        documents: 'documents',
      } as const;
      const alive = instances.filter((i) => i.alive);
      expect(alive).toHaveLength(3);
      const answers = await Promise.all(alive.map((i) => pullFrom(i.url, ids)));
      for (const d of details) {
        const id = String(d.loadTrackExternalId);
        for (const list of LISTS) {
          const expected = (d[wire[list]] as unknown[] | undefined)?.length ?? 0;
          // The browser that polled through the kills has every item, none twice (keys are unique).
          expect(view.get(id)?.[list].size ?? 0, `browser: load ${id} ${list}`).toBe(expected);
          for (const [n, answer] of answers.entries()) {
            const load = answer?.loads.map((l) => LoadView.parse(l)).find((l) => l.id === id);
            const keys = load?.[list].map((item) => item.key) ?? [];
            expect(keys.length, `instance ${n}: load ${id} ${list}`).toBe(expected);
            expect(new Set(keys).size).toBe(keys.length);
          }
        }
      }
    } finally {
      polling = false;
      await browser;
      await balancer.close();
    }
  }, 240_000);
});
