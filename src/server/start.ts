import { createHash } from 'node:crypto';
import { getRequestListener } from '@hono/node-server';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import net from 'node:net';
import type { Env } from './config';
import { outlookOptionsOf, tileAttributionOf } from './config';
import { noiseRules } from '@/domain/noise-rules';
import { createApp } from './app';
import { createAlertEngine, type AlertEngine } from './alerts/alert-engine';
import { createDriftReport } from './drift-report';
import { createTrackCache, type TrackCacheOptions, type TrackSource } from './track-cache';
import { tracksModeOf } from './config';
import { createLease } from './puller/lease';
import { createPuller, type Puller } from './puller/puller';
import { createStoreTracks } from './tracks/store-tracks';
import { keepTripStops } from './tracks/trip-stops';
import { memoryChangeFeed, type ChangeFeed } from './stream/change-feed';
import { isLoopbackName } from './middleware/access';
import type { LogSink } from './middleware/logging';
import { createUpstreamClient } from './upstream-client';
import { retentionPolicyOf } from './store/retention';
import type { Store } from './store/store';

export interface Upstream {
  baseUrl: string;
  partnerId: number;
  accountId: string;
  mode: 'simulator' | 'remote';
  /** Demo mode: the fleet the first screen shows. */
  demo: { externalIds: string[]; loadNumbers: string[]; webhookToken: string | null } | null;
}

function tileOrigin(tileUrl: string): string[] {
  if (tileUrl === 'none') return [];
  const u = new URL(tileUrl.replace(/\{s\}/g, 'a').replace(/\{[a-z]\}/g, '0'));
  const host = tileUrl.includes('{s}')
    ? `${u.protocol}//*.${u.host.split('.').slice(1).join('.')}`
    : u.origin;
  return [host];
}

/**
 * Document hosts that serve plain http and may still show pictures: the simulator's own origin, in
 * demo mode or run alone on loopback (`npm run simulator`). Any other document host needs https.
 */
export function documentOrigins(upstream: Pick<Upstream, 'mode' | 'baseUrl'>): string[] {
  const u = new URL(upstream.baseUrl);
  const loopbackHttp = u.protocol === 'http:' && isLoopbackName(u.hostname);
  return upstream.mode === 'simulator' || loopbackHttp ? [u.origin] : [];
}

/** Builds the proxy for a parsed environment and an upstream. */
export function buildProxy(
  env: Env,
  upstream: Upstream,
  options: {
    distDir?: string;
    /** The request log's lines. */
    log: LogSink;
    /** The runtime's lines of words (the puller, trip stops); the request log's sink when absent. */
    events?: LogSink;
    now?: () => number;
    /** The team's store: users and sessions (without one, the dashboard can only run open). */
    store?: Pick<Store, 'db' | 'ping'>;
    /** The store's ping alone, for `/api/ready` in tests without users. */
    storePing?: () => Promise<void>;
    /** Whether this instance is shutting down (`/api/ready` answers 503 then). */
    draining?: () => boolean;
    /** Given the alert evaluator (with a store): main runs it on a timer, tests step it by hand. */
    alerts?: (engine: AlertEngine) => void;
    /** The stream's feed of the tracks in the store; the track cache's own when absent. */
    changeFeed?: ChangeFeed;
    /** Aborted when the grace of a shutdown ends: the upstream calls still in flight are given up. */
    shutdown?: AbortSignal;
  },
) {
  // Several instances learn of changes from the store's feed (main.ts makes it); one from its cache.
  const memoryFeed =
    options.changeFeed || (tracksModeOf(env) === 'store' && options.store) ? undefined : memoryChangeFeed();
  const client = createUpstreamClient({
    baseUrl: upstream.baseUrl,
    partnerId: upstream.partnerId,
    accountId: upstream.accountId,
    timeoutMs: env.UPSTREAM_TIMEOUT_MS,
    maxBytes: env.UPSTREAM_MAX_BYTES,
    now: options.now,
    signal: options.shutdown,
  });
  const drift = createDriftReport();
  const { store } = options;
  const now = options.now ?? Date.now;
  const events = options.events ?? options.log;
  const cacheOptions: TrackCacheOptions = {
    pull: (by, ids, sendNewData, seen) => client.pull(by, ids, undefined, sendNewData, seen),
    chunkSize: env.UPSTREAM_MAX_IDS,
    maxItems: env.UPSTREAM_MAX_ITEMS,
    maxBytes: env.UPSTREAM_MAX_BYTES,
    maxInFlight: 4,
    freshMs: (env.REFRESH_SECONDS * 1000) / 2,
    resyncMs: env.RESYNC_MINUTES * 60_000,
    maxLoads: env.CACHE_MAX_LOADS,
    onAnswer: (by, answer) => drift.record(by, answer.issues),
    onTooLarge: (by, id, note) =>
      drift.note(by, [{ ...note, path: 'details[]', message: `load ${id}: ${note.message}` }]),
    now: options.now,
    outlook: outlookOptionsOf(env, upstream.mode),
    onChange: memoryFeed?.notify,
    hideCredentials: client.hide.value,
    keepTripStops:
      store && tripStopsKeeper((by, id, trip) => keepTripStops(store.db, by, id, trip, now()), events),
  };
  const tracks = tracksOf(env, upstream, cacheOptions, options.store, events);
  if (options.store && options.alerts)
    options.alerts(
      createAlertEngine({
        db: options.store.db,
        // With several instances the puller judges: it holds the whole tracks, and pulls as data arrives.
        loads: () =>
          tracks.puller ? (tracks.puller.isLeader() ? tracks.puller.cache.held() : []) : tracks.source.held(),
        now: options.now ?? Date.now,
        thresholds: {
          staleAfterMinutes: env.STALE_AFTER_MINUTES,
          silentAfterMinutes: env.SILENT_AFTER_MINUTES,
        },
        // Its lines are JSON with their own instant, as the request log's.
        log: options.log,
      }),
    );
  const app = createApp({
    upstream: client,
    mode: upstream.mode,
    maxIds: env.MAX_IDS,
    cache: tracks.source,
    distDir: options.distDir,
    log: options.log,
    access: {
      db: options.store?.db,
      host: env.HOST,
      publicOrigin: env.PUBLIC_ORIGIN,
      trustProxy: env.TRUST_PROXY,
      sessions: retentionPolicyOf(env).sessions,
      now: options.now,
    },
    drift,
    podDueHours: env.POD_DUE_HOURS,
    alertWebhookAllow: env.ALERT_WEBHOOK_ALLOW,
    storePing: options.store?.ping ?? options.storePing,
    draining: options.draining,
    pullerRole: tracks.puller?.role,
    changeFeed: options.changeFeed ?? memoryFeed,
    watchTtlMs: Math.max(600_000, env.REFRESH_SECONDS * 4000),
    imageSources: [...tileOrigin(env.TILE_URL), ...documentOrigins(upstream)],
    clientConfig: {
      tileUrl: env.TILE_URL === 'none' ? null : env.TILE_URL,
      tileAttribution: tileAttributionOf(env),
      refreshSeconds: env.REFRESH_SECONDS,
      maxIds: env.MAX_IDS,
      staleAfterMinutes: env.STALE_AFTER_MINUTES,
      silentAfterMinutes: env.SILENT_AFTER_MINUTES,
      excursionTolerance: env.EXCURSION_TOLERANCE,
      lowConfidenceMeters: env.LOW_CONFIDENCE_METERS,
      noiseRules: noiseRules({
        builtIn: env.NOISE_RULES_BUILT_IN,
        contains: env.NOISE_RULES,
        containsWithoutCode: env.NOISE_RULES_WITHOUT_CODE,
      }),
      demo: upstream.demo,
    },
  });
  // The tracks go with the app: main.ts keeps watched loads pulled through them and runs the puller.
  return Object.assign(app, { trackCache: tracks.source, puller: tracks.puller });
}

/**
 * Where the track cache keeps each trip's stops (both modes: whoever merges the service's answers).
 * A store that fails is said once, until a write gets through again.
 */
function tripStopsKeeper(
  keep: (...a: Parameters<NonNullable<TrackCacheOptions['keepTripStops']>>) => Promise<unknown>,
  log: LogSink,
): NonNullable<TrackCacheOptions['keepTripStops']> {
  let failing = false;
  return async (by, id, trip) => {
    try {
      await keep(by, id, trip);
      failing = false;
    } catch (error) {
      if (!failing)
        log(`Trip stops: could not keep a trip's stops (${(error as Error).message}); tried again`);
      failing = true;
      throw error;
    }
  };
}

/** A puller round's period: it pulls only the loads that are due, so it may come often. */
export const PULLER_ROUND_MS = 1000;

/**
 * Items the puller writes to the store in one transaction: a full answer (up to UPSTREAM_MAX_ITEMS)
 * is written in parts as it is read, each part's loads, texts and parameters small enough to die in
 * V8's young generation instead of being promoted, and the old space growing by what the pull keeps.
 */
export const PULLER_STORE_ITEMS = 5_000;

/**
 * The tracks the routes read: this process's track cache (TRACKS=memory), or the track store fed by
 * the one puller among the instances (TRACKS=store), whose cache pulls each load once a refresh.
 */
function tracksOf(
  env: Env,
  upstream: Upstream,
  cacheOptions: TrackCacheOptions,
  store: Pick<Store, 'db'> | undefined,
  log: LogSink,
): { source: TrackSource; puller?: Puller } {
  if (tracksModeOf(env) === 'memory' || store === undefined)
    return { source: createTrackCache(cacheOptions) };
  const puller = createPuller({
    db: store.db,
    lease: createLease(store.db, {
      // The account id is a credential: the store keeps a hash that tells accounts apart, not the id.
      account: createHash('sha256')
        .update(`${upstream.partnerId}:${upstream.accountId}`)
        .digest('hex')
        .slice(0, 32),
      seconds: env.LEASE_SECONDS,
    }),
    makeCache: (persist, fenced) =>
      createTrackCache({
        ...cacheOptions,
        // Written under the lease's term, as the answers are.
        keepTripStops:
          cacheOptions.keepTripStops &&
          tripStopsKeeper(
            (by, id, trip) =>
              fenced((trx) => keepTripStops(trx, by, id, trip, (cacheOptions.now ?? Date.now)())),
            log,
          ),
        // A round every second finds each load due once a refresh, not at half of it.
        freshMs: env.REFRESH_SECONDS * 1000 - PULLER_ROUND_MS / 2,
        // Its answers are written one at a time: a second call fetches the next while one is
        // written; more would only hold more answers in memory, waiting.
        maxInFlight: 2,
        // A full answer is the most a pull holds, and two read at once wait on each other's
        // writes: one at a time, a full pull holds one answer's bytes, tree and part.
        maxFullInFlight: 1,
        storeItems: PULLER_STORE_ITEMS,
        maxLoads: env.PULLER_MAX_LOADS,
        persist,
        // The stream's cursors are the store's: its feed tells of changes, not this cache.
        onChange: undefined,
      }),
    maxLoads: env.PULLER_MAX_LOADS,
    log,
  });
  const source = createStoreTracks({
    db: store.db,
    watchMinutes: env.WATCH_MINUTES,
    pullNow: async (by, ids) => (puller.isLeader() ? puller.pullLoads(by, ids) : undefined),
    answersKeptBytes: env.ANSWER_CACHE_MB * 2 ** 20,
    now: cacheOptions.now,
  });
  return { source, puller };
}

export interface Listening {
  url: string;
  server: ReturnType<typeof createServer>;
  close: () => Promise<void>;
  /**
   * Stops accepting connections and lets the requests in flight finish, for at most `graceMs` (or
   * until `hurry()`); then ends every connection left. Resolves with how many requests were cut.
   */
  drain: (graceMs: number) => { done: Promise<{ cut: number }>; hurry: () => void };
  /** Requests being answered now. */
  inFlight: () => number;
}

/**
 * Listens with the proxy on `host:port`. `fallback`, in dev, takes what is not `/api` (Vite's
 * middleware with HMR); in production the proxy serves the built SPA itself.
 */
export function listen(
  app: ReturnType<typeof buildProxy>,
  host: string,
  port: number,
  fallback?: (req: IncomingMessage, res: ServerResponse) => void,
  options: { socketIdleMs?: number } = {},
): Promise<Listening> {
  const proxy: RequestListener = getRequestListener(app.fetch);
  let inFlight = 0;
  let draining = false;
  let idle: (() => void) | undefined;
  const server = createServer((req, res) => {
    inFlight++;
    res.once('close', () => {
      inFlight--;
      if (inFlight === 0) idle?.();
    });
    // A kept-alive connection is told to go: the client's next request opens one to another instance.
    if (draining) res.setHeader('Connection', 'close');
    // Browsers send a path; a full URL in the request line is for forward proxies, which this is not
    // (and a URL with user info made building the request fail with a 500).
    if (!(req.url ?? '').startsWith('/')) {
      res.writeHead(400, { 'Content-Type': 'application/json', 'X-Content-Type-Options': 'nosniff' });
      res.end(
        JSON.stringify({
          error: { code: 'bad_request_target', message: 'the request target must be a path' },
        }),
      );
      return;
    }
    if (fallback && !(req.url ?? '/').startsWith('/api/')) fallback(req, res);
    else void proxy(req, res);
  });
  // Node ends a socket idle this long (no byte read, none written out): a client that stops reading
  // leaves the answer's bytes unwritten, and they would stay in this process while it stays connected.
  // Upgraded sockets (Vite's HMR) and the live stream's heartbeats are not cut by it.
  server.timeout = options.socketIdleMs ?? 0;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      const actual = typeof address === 'object' && address ? address.port : port;
      resolve({
        url: `http://${host.includes(':') ? `[${host}]` : host}:${actual}`,
        server,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
        inFlight: () => inFlight,
        drain: (graceMs) => {
          draining = true;
          let hurry = () => {};
          app.closeStreams();
          const done = new Promise<{ cut: number }>((finish) => {
            let ended = false;
            const end = () => {
              if (ended) return;
              ended = true;
              clearTimeout(timer);
              const cut = inFlight;
              server.closeAllConnections();
              finish({ cut });
            };
            const timer = setTimeout(end, graceMs);
            hurry = end;
            idle = end;
            // Refuses new connections. net.Server's close, not http.Server's: that one also ends the idle
            // kept-alive connections, and a balancer's probe on one should hear /api/ready say 503.
            net.Server.prototype.close.call(server);
            if (inFlight === 0) end();
          });
          return { done, hurry };
        },
      });
    });
  });
}

/**
 * A failed listen an operator can act on, as one line naming the variable to change; undefined for
 * other failures, which keep their stack trace.
 */
export function listenProblem(
  error: unknown,
  variable: 'PORT' | 'SIM_PORT',
  host: string,
  port: number,
): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const at = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (code === 'EADDRINUSE') {
    const unset = variable === 'SIM_PORT' ? ', or leave it unset for a free one' : '';
    return `${variable}=${port} is taken: another process listens on ${at}. Stop it, or set ${variable} to a free port${unset}.`;
  }
  if (code === 'EACCES')
    return `${variable}=${port} is not allowed: listening on ${at} needs privileges. Set ${variable} to a port above 1023.`;
  if (code === 'EADDRNOTAVAIL')
    return `HOST=${host} is not an address of this machine: cannot listen on ${at}. Set HOST to one of its addresses.`;
  // HOST is looked up before listening: a misspelt name, or a name server that did not answer.
  if (code === 'ENOTFOUND')
    return `HOST=${host} is not a name this machine can look up: cannot listen on it. Set HOST to an address of this machine (127.0.0.1, or 0.0.0.0 for every interface).`;
  if (code === 'EAI_AGAIN')
    return `HOST=${host} could not be looked up (the name server did not answer): cannot listen on it. Set HOST to an address of this machine (127.0.0.1, or 0.0.0.0 for every interface), or try again.`;
  return undefined;
}
