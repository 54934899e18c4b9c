import { parseEnv, tracksModeOf } from '@/server/config';
import { storeChangeFeed, type ChangeFeed } from '@/server/stream/change-feed';
import { buildProxy, listen, type Listening, type Upstream } from '@/server/start';
import { DEMO_ACCOUNT_ID, DEMO_PARTNER_ID } from '@/simulator/demo';
import type { FaultOptions } from '@/simulator/faults';
import { startSimulator, type RunningSimulator } from '@/simulator/start';
import type { Store } from '@/server/store/store';
import type { TrackSource } from '@/server/track-cache';
import type { AlertEngine } from '@/server/alerts/alert-engine';
import type { Puller } from '@/server/puller/puller';

/** A clock tests move by hand. */
export function manualClock(start = Date.parse('2026-11-22T15:00:00Z')) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms), set: (t: number) => (now = t) };
}

export interface Stack {
  sim: RunningSimulator;
  proxy: Listening;
  /** The proxy's track cache (what browsers' pulls go through). */
  cache: TrackSource;
  logs: string[];
  /** With a store: the alert evaluator, stepped by the test (`tick`), never on a timer. */
  alerts?: AlertEngine;
  /** TRACKS=store: this instance's puller, stepped by the test (`renew`, `pull`), never on a timer. */
  puller?: Puller;
  /** Another Haulview instance on the same store and upstream (several instances behind a balancer). */
  addInstance: () => Promise<{ proxy: Listening; puller?: Puller; cache: TrackSource }>;
  /** POST to the proxy as the SPA does. */
  post: (path: string, body: unknown, headers?: Record<string, string>) => Promise<Response>;
  /** Haulview restarted on the same store and the same upstream (which a restart does not change). */
  restartProxy: () => Promise<void>;
  close: () => Promise<void>;
}

export const TEST_CREDENTIALS = { partnerId: DEMO_PARTNER_ID, accountId: DEMO_ACCOUNT_ID };

/** The simulator and the proxy on free loopback ports, talking over real HTTP. */
export async function startStack(
  options: {
    loads?: number;
    env?: Record<string, string>;
    now?: () => number;
    upstream?: Partial<Upstream>;
    faults?: FaultOptions;
    /** The simulator's first load gets this many pings (SIM_LONG_TRACK_PINGS): a huge answer. */
    longTrackPings?: number;
    /** Pull credentials of both the simulator and the proxy (the demo pair when absent). */
    credentials?: { partnerId: number; accountId: string };
    /** A built SPA to serve (a folder with index.html). */
    distDir?: string;
    /** The store's ping, for `/api/ready` (not mounted without it). */
    storePing?: () => Promise<void>;
    /** The team's store: users and sessions (without one the dashboard runs open). */
    store?: Pick<Store, 'db' | 'ping' | 'listen'>;
  } = {},
): Promise<Stack> {
  const credentials = options.credentials ?? TEST_CREDENTIALS;
  const sim = await startSimulator({
    port: 0,
    seed: 7,
    loads: options.loads ?? 12,
    speed: 60,
    ...credentials,
    now: options.now,
    faults: options.faults,
    longTrackPings: options.longTrackPings,
  });
  const env = parseEnv({ TILE_URL: 'none', ...options.env });
  const logs: string[] = [];
  let alerts: AlertEngine | undefined;
  const upstream: Upstream = {
    baseUrl: sim.url,
    ...credentials,
    mode: 'simulator',
    demo: { externalIds: sim.fleet.map((p) => String(p.externalId)), loadNumbers: [], webhookToken: null },
    ...options.upstream,
  };
  const feeds: ChangeFeed[] = [];
  const openProxy = async () => {
    // Each instance hears of the store's changes on a connection of its own, as in production.
    const changeFeed =
      tracksModeOf(env) === 'store' && options.store
        ? await storeChangeFeed({ store: options.store, log: (l) => logs.push(l) })
        : undefined;
    if (changeFeed) feeds.push(changeFeed);
    const app = buildProxy(env, upstream, {
      changeFeed,
      log: (l) => logs.push(l),
      now: options.now,
      distDir: options.distDir,
      storePing: options.storePing,
      store: options.store,
      alerts: (engine) => (alerts = engine),
    });
    return { proxy: await listen(app, '127.0.0.1', 0), cache: app.trackCache, alerts, puller: app.puller };
  };
  const others: Listening[] = [];
  const stack: Stack = {
    sim,
    ...(await openProxy()),
    logs,
    post: (path, body, headers = {}) =>
      fetch(`${stack.proxy.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'haulview', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    addInstance: async () => {
      const other = await openProxy();
      others.push(other.proxy);
      return other;
    },
    restartProxy: async () => {
      await stack.proxy.close();
      Object.assign(stack, await openProxy());
    },
    close: async () => {
      await Promise.all(others.map((o) => o.close()));
      await stack.proxy.close();
      await Promise.all(feeds.map((f) => f.stop()));
      await sim.close();
    },
  };
  return stack;
}
