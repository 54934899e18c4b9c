// `npx tsx bench/run.ts instances`: several instances on one PostgreSQL (issue 35): how long the
// service goes unpulled when the puller's process dies (SIGKILL), and each instance's memory. Two
// built servers, TRACKS=store, a throwaway cluster from Debian's binaries (or DATABASE_URL's server).
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { startSimulator } from '@/simulator/start';
import { startPostgresCluster } from '@/testing/postgres-cluster';
import { productionInstall, runBuiltServer, type ServerProcess } from '@/testing/server-process';
import { TEST_CREDENTIALS } from '@/testing/stack';
import { siblingDatabaseUrl } from './team-figures';
import type { Figure } from './figures';
import { median } from './peer-figures';

const LOADS = 1000;
const LEASE_SECONDS = 15;
const REFRESH_SECONDS = 5;
const KILLS = 3;
const round = (n: number) => Math.round(n * 10) / 10;

/** A process's resident memory, from /proc (Linux). */
function rssMiB(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(status.match(/^VmRSS:\s+(\d+) kB/m)?.[1] ?? NaN);
  return round(kib / 1024);
}

export async function benchInstances(): Promise<Figure[]> {
  const given = process.env.DATABASE_URL;
  const cluster = given ? undefined : await startPostgresCluster();
  const serverUrl = (given ?? cluster?.url) as string;
  const name = `haulview_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const databaseUrl = siblingDatabaseUrl(serverUrl, name);
  const install = await productionInstall();
  const sim = await startSimulator({ port: 0, seed: 35, loads: LOADS, speed: 60, ...TEST_CREDENTIALS });
  const running: { process: ServerProcess; url: string }[] = [];
  const start = async () => {
    const process = runBuiltServer(install, {
      DATABASE_URL: databaseUrl,
      UPSTREAM_BASE_URL: sim.url,
      PARTNER_ID: String(TEST_CREDENTIALS.partnerId),
      ACCOUNT_ID: TEST_CREDENTIALS.accountId,
      HOST: '127.0.0.1',
      PORT: '0',
      REFRESH_SECONDS: String(REFRESH_SECONDS),
      LEASE_SECONDS: String(LEASE_SECONDS),
      MAX_IDS: String(LOADS),
    });
    const [, url] = await process.waitFor(/Haulview: (http:\/\/\S+)/, 60_000);
    running.push({ process, url: url as string });
  };
  const role = async (url: string) =>
    ((await (await fetch(`${url}/api/ready`)).json()) as { puller?: string }).puller;
  const leader = async () => {
    for (;;) {
      for (const r of running) if ((await role(r.url).catch(() => undefined)) === 'leader') return r;
      await sleep(50);
    }
  };
  const db = new pg.Client({ connectionString: databaseUrl });
  try {
    await start();
    await start();
    await db.connect();
    const clock = async () => Number((await db.query('select seq from track_clock')).rows[0].seq);
    const ids = sim.fleet.map((p) => String(p.externalId));
    // A browser's board on every instance: the loads are watched, and pulled by the one puller.
    for (const r of running) {
      const asked = await fetch(`${r.url}/api/pull/by-external-id`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'haulview' },
        body: JSON.stringify({ ids, include: { locations: false } }),
      });
      if (asked.status !== 200)
        throw new Error(`the board's pull answered ${asked.status}: ${await asked.text()}`);
    }
    const first = await leader();
    while ((await db.query('select count(*)::int as n from track_loads')).rows[0].n < LOADS) await sleep(200);
    await sleep(REFRESH_SECONDS * 1000);
    const leaderRss = rssMiB(first.process.pid);
    const standbyRss = rssMiB(running.find((r) => r !== first)?.process.pid);
    const pings = Number(
      (await db.query("select count(*)::int as n from track_items where list = 'pings'")).rows[0].n,
    );

    const takeovers: number[] = [];
    const stored: number[] = [];
    for (let k = 0; k < KILLS; k++) {
      const victim = await leader();
      const seqBefore = await clock();
      const died = performance.now();
      victim.process.signal('SIGKILL');
      await victim.process.exited;
      running.splice(running.indexOf(victim), 1);
      await leader();
      takeovers.push((performance.now() - died) / 1000);
      while ((await clock()) <= seqBefore) await sleep(20);
      stored.push((performance.now() - died) / 1000);
      await start();
    }
    return [
      {
        figure: `instances: failover, the puller SIGKILLed → another holds the lease (LEASE_SECONDS ${LEASE_SECONDS}), median of ${KILLS}`,
        value: round(median(takeovers)),
        unit: 's',
        goal: `<= ${LEASE_SECONDS + 1}`,
        pass: median(takeovers) <= LEASE_SECONDS + 1,
      },
      {
        figure: `instances: failover, the puller SIGKILLed → the next answer stored, ${LOADS.toLocaleString('en-US')} loads, median of ${KILLS}`,
        value: round(median(stored)),
        unit: 's',
        goal: '-',
        pass: true,
      },
      {
        figure: `instances: RSS of the puller's instance, ${LOADS.toLocaleString('en-US')} watched loads, ${pings.toLocaleString('en-US')} pings stored`,
        value: leaderRss,
        unit: 'MiB',
        goal: '-',
        pass: true,
      },
      {
        figure: `instances: RSS of a standby instance serving the same loads`,
        value: standbyRss,
        unit: 'MiB',
        goal: '-',
        pass: true,
      },
    ];
  } finally {
    for (const r of running) r.process.signal('SIGKILL');
    await Promise.all(running.map((r) => r.process.exited));
    await db.end().catch(() => undefined);
    await sim.close();
    install.remove();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    cluster?.stop();
  }
}
