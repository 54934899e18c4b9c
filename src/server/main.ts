import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { startSimulator } from '@/simulator/start';
import { DEMO_ACCOUNT_ID, DEMO_PARTNER_ID } from '@/simulator/demo';
import { demoToken } from '@/simulator/webhooks';
import { ConfigError, configWarnings, parseEnv, readProcessEnv, startRefusal, type Env } from './config';
import { isLoopback } from './middleware/access';
import { buildProxy, listen, listenProblem, PULLER_ROUND_MS, type Listening, type Upstream } from './start';
import { stamped, toStdout } from './middleware/logging';
import { remoteUpstream } from './upstream-setup';
import { openAndMigrate, StoreStartError } from './store/open-at-start';
import { rememberedSimPort, rememberSimPort } from './sim-port';
import type { Store } from './store/store';
import { anyUser } from './auth/users';
import { retentionPolicyOf, startRetention } from './store/retention';
import { every } from './alerts/alert-engine';
import { startKeepPulled } from './watch/keep-pulled';
import { storeChangeFeed } from './stream/change-feed';
import { tracksModeOf } from './config';
import { startPuller } from './puller/puller';
import { USERS_COMMAND } from './users-command';

/** Starts a server; a port it cannot have ends the process with one line and exit code 1, not a stack trace. */
async function listenOrExit<T>(
  start: () => Promise<T>,
  variable: 'PORT' | 'SIM_PORT',
  host: string,
  port: number,
): Promise<T> {
  try {
    return await start();
  } catch (error) {
    const problem = listenProblem(error, variable, host, port);
    if (problem === undefined) throw error;
    console.error(problem);
    process.exit(1);
  }
}

/**
 * Opens the store (PostgreSQL at DATABASE_URL, else PGlite in DATA_DIR) and migrates it. A database
 * that does not answer, or a DATA_DIR another process holds, ends the process with one line and
 * exit code 1.
 */
async function openStoreOrExit(env: Env): Promise<Store> {
  try {
    const { store, applied } = await openAndMigrate({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
    console.log(
      `Store: ${store.where}, ${applied.length === 0 ? 'schema up to date' : `applied ${applied.join(', ')}`}`,
    );
    return store;
  } catch (error) {
    if (!(error instanceof StoreStartError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

/**
 * Entry of `npm start` and `npm run dev` (`--dev`): reads the configuration, starts the embedded
 * simulator when no upstream is configured, and serves the SPA and `/api` from one process. In dev,
 * Vite serves the SPA with HMR and `/api` is the same proxy code.
 */
async function resolveUpstream(env: Env): Promise<Upstream> {
  const remote = remoteUpstream(env);
  if (remote) return remote;
  const partnerId = env.PARTNER_ID ?? DEMO_PARTNER_ID;
  const accountId = env.ACCOUNT_ID ?? DEMO_ACCOUNT_ID;
  const simulatorAt = (port: number) =>
    startSimulator({
      port,
      seed: env.SIM_SEED,
      loads: env.SIM_LOADS,
      speed: env.SIM_SPEED,
      longTrackPings: env.SIM_LONG_TRACK_PINGS,
      partnerId,
      accountId,
      jwtSecret: env.SIM_JWT_SECRET,
    });
  // Unset SIM_PORT: the port the last start in DATA_DIR took, so the documents keep their addresses
  // (and their reviews) across restarts; a free one when it is taken.
  const remembered = env.SIM_PORT === undefined ? rememberedSimPort(env.DATA_DIR) : undefined;
  let sim =
    remembered === undefined
      ? undefined
      : await simulatorAt(remembered).catch((error: unknown) => {
          if (listenProblem(error, 'SIM_PORT', '127.0.0.1', remembered) === undefined) throw error;
          return undefined;
        });
  const simPort = env.SIM_PORT ?? 0;
  sim ??= await listenOrExit(() => simulatorAt(simPort), 'SIM_PORT', '127.0.0.1', simPort);
  if (env.SIM_PORT === undefined) {
    const port = Number(new URL(sim.url).port);
    if (remembered !== undefined && port !== remembered)
      console.warn(
        `Simulator: port ${remembered}, kept in DATA_DIR from the last start, is in use: it listens on ${port} now. ` +
          "The demo documents' addresses changed with the port, so their earlier reviews no longer match.",
      );
    const failed = port === remembered ? undefined : rememberSimPort(env.DATA_DIR, port);
    if (failed !== undefined)
      console.warn(`Simulator: could not keep its port in DATA_DIR for the next start (${failed})`);
  }
  console.log(
    `Simulator: ${env.SIM_LOADS} demo loads at ${sim.url} (seed ${env.SIM_SEED}, speed ${env.SIM_SPEED}x)`,
  );
  const demoLoads = sim.fleet.slice(0, env.MAX_IDS);
  const token = await demoToken(env.SIM_JWT_SECRET);
  const upstream: Upstream = {
    baseUrl: sim.url,
    partnerId,
    accountId,
    mode: 'simulator',
    demo: {
      // A few loads are watched by load number, the rest by external id: the demo shows both ways.
      externalIds: demoLoads.slice(5).map((p) => String(p.externalId)),
      loadNumbers: demoLoads.slice(0, 5).map((p) => p.loadNumber),
      webhookToken: token,
    },
  };
  // The demo token lives a day; sign a fresh one every hour so a long-running demo keeps offering a valid one.
  setInterval(() => {
    void demoToken(env.SIM_JWT_SECRET).then((fresh) => {
      if (upstream.demo) upstream.demo.webhookToken = fresh;
    });
  }, 3_600_000).unref();
  return upstream;
}

/**
 * How people get in, said at start when it needs saying: open demo mode (and how to end it), or a
 * server nobody can log in to yet.
 */
async function accessLine(env: Env, store: Store): Promise<string | undefined> {
  if (await anyUser(store.db)) return undefined;
  if (isLoopback(env.HOST) && env.PUBLIC_ORIGIN === undefined)
    return 'Open demo mode: no users yet, so everyone on this machine acts as admin. Adding the first user on /admin/users ends it.';
  return `No users yet, so nobody can log in (HOST=${env.HOST}${env.PUBLIC_ORIGIN ? `, PUBLIC_ORIGIN=${env.PUBLIC_ORIGIN}` : ''}): add an admin with \`${USERS_COMMAND} add NAME --role admin\`.`;
}

async function main(): Promise<void> {
  let env: Env;
  try {
    env = parseEnv(readProcessEnv());
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  for (const warning of configWarnings(env, readProcessEnv())) console.warn(warning);
  const refusal = startRefusal(env);
  if (refusal !== undefined) {
    console.error(refusal);
    process.exit(2);
  }
  const dev = process.argv.includes('--dev');
  const distDir = resolve('dist');
  if (!dev && !existsSync(resolve(distDir, 'index.html'))) {
    console.error('No built app in dist/: run `npm run build` first (`npm start` does both).');
    process.exit(2);
  }
  const store = await openStoreOrExit(env);
  // What happens once the server runs: each line with its instant (the start-up lines above go without).
  const events = stamped(toStdout);
  const warnings = stamped((line) => console.warn(line));
  // Every instance runs it: its deletes are bounded by time, so running at once only shares the work.
  const retention = startRetention({ db: store.db, policy: retentionPolicyOf(env), log: events });
  const access = await accessLine(env, store);
  if (access) console.log(access);
  const upstream = await resolveUpstream(env);
  let draining = false;
  // Aborted when a shutdown's grace ends: the upstream calls still in flight are given up.
  const shutdown = new AbortController();
  let alertJob: ReturnType<typeof every> | undefined;
  // TRACKS=store: every instance hears of the puller's writes from the store (LISTEN), for its streams.
  const changeFeed =
    tracksModeOf(env) === 'store' ? await storeChangeFeed({ store, log: warnings }) : undefined;
  const app = buildProxy(env, upstream, {
    changeFeed,
    distDir: dev ? undefined : distDir,
    log: toStdout,
    events,
    store,
    draining: () => draining,
    shutdown: shutdown.signal,
    // Each instance judges the loads it holds; the store lets one of them fire each alert.
    alerts: (engine) => (alertJob = every(env.REFRESH_SECONDS * 1000, engine.tick)),
  });
  let server: Listening;
  const socketOptions = { socketIdleMs: env.SOCKET_IDLE_SECONDS * 1000 };
  if (dev) {
    const { createServer: createVite } = await import('vite');
    const devServer: { vite?: Awaited<ReturnType<typeof createVite>> } = {};
    server = await listenOrExit(
      () =>
        listen(
          app,
          env.HOST,
          env.PORT,
          (req, res) => {
            // A customer's tracking page is share.html's entry, not the dashboard's index.html.
            if (req.url?.startsWith('/share/')) req.url = '/share.html';
            devServer.vite?.middlewares(req, res);
          },
          socketOptions,
        ),
      'PORT',
      env.HOST,
      env.PORT,
    );
    devServer.vite = await createVite({
      server: { middlewareMode: true, hmr: { server: server.server } },
      appType: 'spa',
    });
  } else {
    server = await listenOrExit(
      () => listen(app, env.HOST, env.PORT, undefined, socketOptions),
      'PORT',
      env.HOST,
      env.PORT,
    );
  }
  // TRACKS=store: the one puller among the instances, while this one holds the lease.
  const puller =
    app.puller && startPuller(app.puller, { leaseSeconds: env.LEASE_SECONDS, roundMs: PULLER_ROUND_MS });
  // Loads that share links and saved boards watch keep being pulled with no browser open.
  const keepPulled = startKeepPulled({
    db: store.db,
    cache: app.trackCache,
    maxLoads: app.puller ? env.PULLER_MAX_LOADS : env.CACHE_MAX_LOADS,
    everyMs: env.REFRESH_SECONDS * 1000,
    log: events,
  });
  console.log(
    `Haulview: ${server.url}  (upstream: ${upstream.mode === 'simulator' ? 'embedded simulator' : 'remote'})`,
  );
  // A deploy's SIGTERM (or Ctrl-C): refuse new connections and start no new pull; let the requests
  // and the pull in flight finish within the grace, then give up the upstream calls still waiting
  // (nothing of them is stored: the next holder pulls those loads in full), release the lease,
  // close the store and exit 0. A second signal stops waiting.
  let hurry: (() => void) | undefined;
  const stop = (signal: NodeJS.Signals) => {
    if (hurry) {
      hurry();
      return;
    }
    draining = true;
    const graceMs = env.SHUTDOWN_GRACE_SECONDS * 1000;
    const drain = server.drain(graceMs);
    const giveUp = setTimeout(() => shutdown.abort(), graceMs);
    hurry = () => {
      drain.hurry();
      shutdown.abort();
    };
    events(
      `${signal}: no new connections; waiting up to ${env.SHUTDOWN_GRACE_SECONDS} s for ${server.inFlight()} requests in flight`,
    );
    retention.stop();
    keepPulled.stop();
    alertJob?.stop();
    // Gives the lease up once its round is over: another instance takes over at its next renewal,
    // not after the expiry.
    const background = Promise.all([
      retention.running(),
      keepPulled.running(),
      alertJob?.running(),
      puller?.stop(),
    ]);
    void Promise.all([drain.done, background])
      .then(([{ cut }]) => {
        clearTimeout(giveUp);
        if (cut > 0) warnings(`${cut} requests still in flight were cut off`);
        // A cut request's call to the service waits still: it is given up too, not left to the exit.
        if (shutdown.signal.aborted || cut > 0) {
          shutdown.abort();
          warnings('The grace is over: upstream calls still in flight were given up');
        }
      })
      .then(() => changeFeed?.stop())
      .then(() => store.close())
      .then(() => {
        events('Haulview stopped.');
        process.exit(0);
      });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
