import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BUILD_HEADER, type ClientConfig, type Health, type ProxyErrorBody } from '@/contract/proxy-api';
import type { AppEnv } from './app-env';
import { buildIdOf, withBuildMeta } from './build-id';
import { ProxyError } from './errors';
import { createAccess, requireRole, type AccessOptions } from './middleware/access';
import { requestLog, type LogSink } from './middleware/logging';
import { limitBody, maxBodyBytes, requireSameOriginPost, securityHeaders } from './middleware/security';
import { alertRoutes } from './routes/alerts';
import { auditRoutes } from './routes/audit';
import { billingRoutes } from './routes/billing';
import { configRoutes } from './routes/config';
import { diagnosticsRoutes } from './routes/diagnostics';
import { exceptionAckRoutes } from './routes/exception-acks';
import { healthRoutes } from './routes/health';
import { pullRoutes } from './routes/pull';
import { readyRoutes } from './routes/ready';
import { boardRoutes } from './routes/boards';
import { reviewRoutes } from './routes/reviews';
import { createWatches, streamRoutes, watchPulls } from './routes/stream';
import type { ChangeFeed } from './stream/change-feed';
import { publicShareRoutes, shareRoutes } from './routes/shares';
import { tripStopsRoutes } from './routes/trip-stops';
import { userRoutes } from './routes/users';
import { webhookRoutes } from './routes/webhooks';
import type { UpstreamClient } from './upstream-client';
import type { DriftReport } from './drift-report';
import type { TrackSource } from './track-cache';

export interface AppOptions {
  upstream: UpstreamClient;
  mode: Health['upstream']['mode'];
  clientConfig: ClientConfig;
  maxIds: number;
  cache: TrackSource;
  /** Built SPA to serve; none in dev, where Vite serves it. */
  distDir?: string;
  /** Extra image sources for the CSP (the tile host, the simulator's origin). */
  imageSources: string[];
  log: LogSink;
  /** Who may use `/api`: the store's users and sessions, or open demo mode. */
  access: AccessOptions;
  drift: DriftReport;
  /** Hours after delivery a load's POD is overdue (`POD_DUE_HOURS`); 24 when absent. */
  podDueHours?: number;
  /** Whether the store answers (`/api/ready`); without a store the route is not mounted. */
  storePing?: () => Promise<void>;
  /** Whether this instance is shutting down: `/api/ready` says 503 so a balancer stops sending. */
  draining?: () => boolean;
  /** This instance's part in pulling (TRACKS=store), said by `/api/ready`. */
  pullerRole?: () => string;
  /** Origins alert webhooks may post to despite a private address or http (`ALERT_WEBHOOK_ALLOW`). */
  alertWebhookAllow?: readonly string[];
  /** What changed in the tracks, for `GET /api/stream` (not mounted without it). */
  changeFeed?: ChangeFeed;
  /** How long a session's pulled loads are named by its stream after its last pull of them. */
  watchTtlMs?: number;
}

function errorBody(code: string, message: string, details?: unknown): ProxyErrorBody {
  return { error: { code, message, ...(details === undefined ? {} : { details }) } };
}

/** For files whose name changes with their content (Vite's hashed `/assets/*`): a year, never revalidated. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The built SPA's pages, each with the build's id in it. */
function builtPages(distDir: string) {
  const index = readFileSync(join(distDir, 'index.html'), 'utf8');
  const sharePath = join(distDir, 'share.html');
  const share = existsSync(sharePath) ? readFileSync(sharePath, 'utf8') : undefined;
  const build = buildIdOf(share === undefined ? [index] : [index, share]);
  return {
    build,
    indexHtml: withBuildMeta(index, build),
    shareHtml: share === undefined ? undefined : withBuildMeta(share, build),
  };
}

/** Routes only admins reach: the others get 403 `forbidden_role`. */
const adminOnly = (routes: Hono<AppEnv>) => new Hono<AppEnv>().use(requireRole('admin')).route('/', routes);

/** The proxy: `/api/*` routes, then the built SPA with its security headers. */
export function createApp(o: AppOptions) {
  const app = new Hono<AppEnv>();
  app.use(requestLog(o.log));
  app.use(securityHeaders(o.imageSources));

  const pages = o.distDir === undefined ? undefined : builtPages(o.distDir);
  const api = new Hono<AppEnv>();
  if (pages)
    api.use(async (c, next) => {
      await next();
      c.res.headers.set(BUILD_HEADER, pages.build);
    });
  const access = createAccess(o.access);
  api.use(requireSameOriginPost(o.access));
  api.use(limitBody(maxBodyBytes(o.maxIds)));
  // The customer's tracking page holds no session: its one read-only route answers before the guard.
  api.route(
    '/share',
    publicShareRoutes({
      db: o.access.db,
      cache: o.cache,
      trustProxy: o.access.trustProxy,
      now: o.access.now ?? Date.now,
      page: {
        refreshSeconds: o.clientConfig.refreshSeconds,
        tileUrl: o.clientConfig.tileUrl,
        tileAttribution: o.clientConfig.tileAttribution,
      },
    }),
  );
  api.use(access.guard);
  api.route('/session', access.routes);
  api.route('/diagnostics', adminOnly(diagnosticsRoutes(o.drift, o.upstream.stats, o.upstream.now)));
  const watches = createWatches({ ttlMs: o.watchTtlMs ?? 600_000, now: o.access.now });
  const stream = o.changeFeed && streamRoutes({ feed: o.changeFeed, watches });
  if (stream) api.use('/pull/*', watchPulls(watches));
  api.route('/pull', pullRoutes(o));
  if (stream) api.route('/stream', stream.app);
  api.route('/webhooks', adminOnly(webhookRoutes(o.upstream, o.access.db, o.drift)));
  api.route('/documents/reviews', reviewRoutes(o.access.db));
  api.route('/boards', boardRoutes(o.access.db));
  api.route('/exceptions/acks', exceptionAckRoutes(o.access.db, o.upstream.now));
  api.route('/shares', shareRoutes(o.access.db, o.access.now ?? Date.now));
  api.route('/billing', billingRoutes(o.cache, o.access.db, o.podDueHours ?? 24, o.upstream.now));
  api.route('/trips/stops', tripStopsRoutes(o.access.db));
  api.route('/alerts', alertRoutes(o.access.db, o.alertWebhookAllow ?? []));
  api.route('/audit', adminOnly(auditRoutes(o.access.db)));
  api.route('/users', adminOnly(userRoutes(o.access.db, access.userAdded)));
  api.route('/config', configRoutes(o.clientConfig));
  api.route('/health', healthRoutes(o.mode, o.upstream.stats));
  if (o.storePing) api.route('/ready', readyRoutes(o.storePing, o.draining, o.pullerRole));
  app.route('/api', api);
  app.all('/api/*', (c) => c.json(errorBody('not_found', `no API route ${c.req.method} ${c.req.path}`), 404));

  app.onError((error, c) => {
    if (error instanceof ProxyError) {
      if (error.headers) for (const [k, v] of Object.entries(error.headers)) c.header(k, v);
      return c.json(errorBody(error.code, error.message, error.details), error.status);
    }
    // Hono's own refusals, e.g. a body that is not JSON (the validator's 400).
    if (error instanceof HTTPException && error.status < 500) {
      const code = /json/i.test(error.message) ? 'invalid_json' : 'bad_request';
      return c.json(errorBody(code, error.message || 'bad request'), error.status);
    }
    o.log(
      JSON.stringify({
        t: new Date().toISOString(),
        level: 'error',
        path: c.req.path,
        error: error.name,
        message: error.message,
      }),
    );
    return c.json(errorBody('internal_error', 'the proxy failed unexpectedly'), 500);
  });

  if (o.distDir && pages) {
    const root = relative(process.cwd(), o.distDir) || '.';
    const { indexHtml, shareHtml } = pages;
    // Files outside /assets keep their names from build to build: browsers ask again each time.
    const files = serveStatic({ root, onFound: (_path, c) => c.header('Cache-Control', 'no-cache') });
    // Vite names what it puts in /assets by a hash of the content: a name never changes its bytes.
    const hashed = serveStatic({ root, onFound: (_path, c) => c.header('Cache-Control', IMMUTABLE) });
    app.use('/assets/*', hashed);
    // A tab of an earlier build asking for a chunk this build does not have gets a 404 its import
    // reports, not index.html as JavaScript (and no cache of that miss).
    app.get('/assets/*', (c) =>
      c.json(errorBody('not_found', `no file ${c.req.path} in this build`), 404, {
        'Cache-Control': 'no-store',
      }),
    );
    // dist/server/ holds the server's own build (`npm run build`): files for node, not for browsers.
    // Paths with `%`, `..` or a backslash never reach the disk (serveStatic refuses them); the case is
    // ignored for filesystems that ignore it.
    // The pages carry the build's id, so they are never served from the disk as they are.
    app.get('/', (c) => c.html(indexHtml, 200, { 'Cache-Control': 'no-cache' }));
    app.get('/index.html', (c) => c.html(indexHtml, 200, { 'Cache-Control': 'no-cache' }));
    if (shareHtml !== undefined)
      app.get('/share.html', (c) => c.html(shareHtml, 200, { 'Cache-Control': 'no-cache' }));
    app.use('*', (c, next) => (/^\/server(?:\/|$)/i.test(c.req.path) ? next() : files(c, next)));
    // A customer's tracking page: never indexed (the meta tag says it too).
    if (shareHtml !== undefined)
      app.get('/share/*', (c) => {
        c.header('X-Robots-Tag', 'noindex, nofollow');
        return c.html(shareHtml, 200, { 'Cache-Control': 'no-cache' });
      });
    // The SPA's own routes (/loads/…, /documents, /webhooks) all answer with index.html.
    app.get('*', (c) => c.html(indexHtml, 200, { 'Cache-Control': 'no-cache' }));
  }
  // A server that drains ends the streams first: an open one would hold it for the whole grace.
  return Object.assign(app, { closeStreams: () => stream?.closeAll() });
}
