import { Hono } from 'hono';
import { ProxyError } from '../errors';

/** How long the store may take to answer a readiness probe. */
const PING_TIMEOUT_MS = 2000;

/**
 * `GET /api/ready`: 200 when the store answers, 503 `store_unavailable` when it does not, and 503
 * `draining` once the instance is shutting down (either way a balancer stops sending users here).
 * `/api/health` stays about liveness: a lost database is not a reason to restart the process.
 */
export function readyRoutes(
  ping: () => Promise<void>,
  draining: () => boolean = () => false,
  pullerRole?: () => string,
) {
  return new Hono().get('/', async (c) => {
    if (draining())
      throw new ProxyError(503, 'draining', 'this instance is shutting down; its requests in flight finish');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, fail) => {
      timer = setTimeout(() => fail(new Error('timed out')), PING_TIMEOUT_MS);
    });
    try {
      await Promise.race([ping(), late]);
    } catch {
      throw new ProxyError(503, 'store_unavailable', 'the store does not answer');
    } finally {
      clearTimeout(timer);
    }
    // Which instance pulls the service (TRACKS=store): `leader`, `standby` or `starting`.
    return c.json({ ready: true, ...(pullerRole && { puller: pullerRole() }) });
  });
}
