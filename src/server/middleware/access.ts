import type { MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { Hono } from 'hono';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { ProxyError } from '../errors';
import { validate } from '../validation';

const COOKIE = 'haulview_session';
const SESSION_MS = 12 * 60 * 60 * 1000;
/** Failed logins allowed per minute, for the whole process: a token cannot be guessed by brute force. */
const MAX_FAILURES_PER_MINUTE = 10;

/** A loopback address to listen on: `localhost`, 127.0.0.0/8, ::1. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * A loopback name in a Host header, as the URL parser gives it (lower case, IPv6 in brackets and
 * shortest form, 127.1 as 127.0.0.1): the addresses above, and `*.localhost`, which browsers keep on
 * loopback; a trailing dot (`localhost.`) is the same name.
 */
export function isLoopbackName(hostname: string): boolean {
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  return isLoopback(name) || name.endsWith('.localhost');
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * Access to the dashboard when `DASHBOARD_TOKEN` is set: `POST /api/session` exchanges the token for an
 * HttpOnly, SameSite=Strict session cookie; every other `/api` call (but health) needs that session.
 * Without a token the dashboard runs open, which main.ts allows on loopback only; then `/api` answers
 * only requests that name a loopback host. A page on another site whose name was re-pointed at
 * 127.0.0.1 (DNS rebinding) is same-origin with itself, so the Origin check alone would let its script
 * pull the partner's data through this machine's open dashboard; its Host header still names its site.
 */
export function createAccess(token: string | undefined, now: () => number = Date.now) {
  const sessions = new Map<string, number>();
  let failures: number[] = [];
  const expected = token === undefined ? undefined : digest(token);

  const valid = (id: string | undefined): boolean => {
    if (id === undefined) return false;
    const until = sessions.get(id);
    if (until === undefined) return false;
    if (until < now()) {
      sessions.delete(id);
      return false;
    }
    return true;
  };

  const guard: MiddlewareHandler = async (c, next) => {
    if (expected === undefined) {
      const host = new URL(c.req.url).hostname;
      if (!isLoopbackName(host)) {
        throw new ProxyError(
          403,
          'host_not_allowed',
          `without DASHBOARD_TOKEN the dashboard answers only loopback names (localhost, *.localhost, 127.0.0.0/8, [::1]), not "${host.slice(0, 100)}"`,
        );
      }
      return next();
    }
    // Health and readiness are asked by balancers and monitors, which hold no session.
    if (c.req.path === '/api/session' || c.req.path === '/api/health' || c.req.path === '/api/ready')
      return next();
    if (!valid(getCookie(c, COOKIE)))
      throw new ProxyError(401, 'login_required', 'log in with the dashboard token first');
    await next();
  };

  const routes = new Hono()
    .get('/', (c) =>
      c.json({
        required: expected !== undefined,
        active: expected === undefined || valid(getCookie(c, COOKIE)),
      }),
    )
    .post('/', validate('json', z.strictObject({ token: z.string().min(1).max(1000) })), (c) => {
      if (expected === undefined) return c.json({ active: true });
      const t = now();
      failures = failures.filter((f) => f > t - 60_000);
      if (failures.length >= MAX_FAILURES_PER_MINUTE) {
        throw new ProxyError(429, 'too_many_attempts', 'too many failed logins; wait a minute', undefined, {
          'Retry-After': '60',
        });
      }
      if (!timingSafeEqual(digest(c.req.valid('json').token), expected)) {
        failures.push(t);
        throw new ProxyError(401, 'wrong_token', 'that is not the dashboard token');
      }
      const id = randomBytes(32).toString('base64url');
      sessions.set(id, t + SESSION_MS);
      setCookie(c, COOKIE, id, {
        httpOnly: true,
        sameSite: 'Strict',
        path: '/',
        secure: new URL(c.req.url).protocol === 'https:',
        maxAge: SESSION_MS / 1000,
      });
      return c.json({ active: true });
    })
    .delete('/', (c) => {
      const id = getCookie(c, COOKIE);
      if (id) sessions.delete(id);
      deleteCookie(c, COOKIE, { path: '/' });
      return c.json({ active: false });
    });

  return { guard, routes };
}
