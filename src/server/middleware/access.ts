import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ROLES, type Role, type SessionState, type SessionUser } from '@/contract/proxy-api';
import type { AppEnv } from '../app-env';
import { clientAddress, requestProtocol, throttleKey } from '../auth/client-address';
import { createLoginThrottle, type ThrottlePolicy } from '../auth/login-throttle';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { createSession, endSession, findSession, type SessionPolicy } from '../auth/sessions';
import { anyUser, findCredentials, nameKey } from '../auth/users';
import { ProxyError, storeUnavailable } from '../errors';
import { recordAudit } from '../store/audit';
import type { Database } from '../store/database';
import { validate } from '../validation';
import { USERS_COMMAND } from '../users-command';

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

export interface AccessOptions {
  /** The store's database; without one (some tests) there are no users, so the demo stays open. */
  db?: Kysely<Database>;
  /** The address the server listens on (HOST): open mode needs a loopback one. */
  host: string;
  /** PUBLIC_ORIGIN: the origin browsers use, e.g. behind a TLS terminator. */
  publicOrigin?: string;
  /** TRUST_PROXY: how many proxies of our own stand in front (0: believe no X-Forwarded-* header). */
  trustProxy: number;
  sessions: SessionPolicy;
  throttle?: ThrottlePolicy;
  now?: () => number;
}

/** The session cookie, `view as` cookie of open mode, and the `__Host-` prefix when served over https. */
const COOKIE = 'haulview_session';
const VIEW_AS_COOKIE = 'haulview_view_as';

/**
 * While the store does not answer, a session it vouched for within this long still counts (and no
 * new login can start): the dashboard keeps showing loads through a short outage.
 */
const STORE_OUTAGE_GRACE_MS = 15 * 60_000;
/** Sessions remembered for that, at most (one per browser that used the dashboard lately). */
const VOUCHED_MAX = 10_000;

/** Open mode asks the store whether a user exists at most this often (the CLI may add one meanwhile). */
const USERS_CHECK_MS = 2000;

/** A hash to verify against when the name is unknown, so a wrong name takes as long as a wrong password. */
const decoy = hashPassword('not the password of anyone at all');

const unavailable = storeUnavailable('logins and sessions wait for it');

/**
 * Who may use `/api`. With users in the store, a login (`POST /api/session`) opens a session kept in the
 * store; every other `/api` call but health and readiness needs one. Without any user, on a loopback
 * HOST and with no PUBLIC_ORIGIN, the dashboard runs open: everyone acts as admin (or views as another
 * role), and `/api` answers only requests that name a loopback host. A page on another site whose name
 * was re-pointed at 127.0.0.1 (DNS rebinding) is same-origin with itself, so the Origin check alone
 * would let its script pull the partner's data through this machine's open dashboard; its Host header
 * still names its site.
 */
export function createAccess(o: AccessOptions) {
  const now = o.now ?? Date.now;
  const throttle = createLoginThrottle(o.throttle, now);
  const openPossible = isLoopback(o.host) && o.publicOrigin === undefined;
  let usersKnown: { any: boolean; at: number } | undefined;

  /** Whether the dashboard runs open now: possible here, and no user in the store. */
  const isOpen = async (): Promise<boolean> => {
    if (!openPossible) return false;
    if (o.db === undefined) return true;
    // Once a user exists, open mode is over for good: no need to ask again.
    if (usersKnown?.any) return false;
    if (usersKnown === undefined || now() - usersKnown.at >= USERS_CHECK_MS)
      usersKnown = { any: await anyUser(o.db).catch(unavailable), at: now() };
    return !usersKnown.any;
  };

  const secure = (c: Context) =>
    o.publicOrigin !== undefined
      ? o.publicOrigin.startsWith('https:')
      : requestProtocol(c, o.trustProxy) === 'https';
  // Browsers accept a `__Host-` cookie only when Secure: a plain-http demo keeps the bare name.
  const cookieName = (c: Context) => (secure(c) ? `__Host-${COOKIE}` : COOKIE);

  const viewAs = (c: Context): Role => {
    const wanted = getCookie(c, VIEW_AS_COOKIE);
    return ROLES.includes(wanted as Role) ? (wanted as Role) : 'admin';
  };

  const requireLoopbackName = (c: Context) => {
    const host = new URL(c.req.url).hostname;
    if (!isLoopbackName(host)) {
      throw new ProxyError(
        403,
        'host_not_allowed',
        `in open demo mode the dashboard answers only loopback names (localhost, *.localhost, 127.0.0.0/8, [::1]), not "${host.slice(0, 100)}"; add a user (${USERS_COMMAND} add) to log in from elsewhere`,
      );
    }
  };

  /** Sessions the store vouched for, and when: what an outage of the store may still trust. */
  const vouched = new Map<string, { user: SessionUser; at: number }>();
  const remember = (token: string, user: SessionUser, at: number) => {
    if (vouched.size >= VOUCHED_MAX) {
      for (const [key, entry] of vouched) if (at - entry.at >= STORE_OUTAGE_GRACE_MS) vouched.delete(key);
      if (vouched.size >= VOUCHED_MAX) vouched.clear();
    }
    vouched.set(token, { user, at });
  };

  /** The user this request acts as, or undefined when it has no session. */
  const userOf = async (c: Context, open: boolean): Promise<SessionUser | undefined> => {
    if (open) {
      requireLoopbackName(c);
      return { name: 'Demo', role: viewAs(c) };
    }
    const token = getCookie(c, cookieName(c));
    if (token === undefined || o.db === undefined || token.length > 200) return undefined;
    const t = now();
    try {
      const user = await findSession(o.db, token, o.sessions, t);
      if (user) remember(token, user, t);
      else vouched.delete(token);
      return user;
    } catch (error) {
      // The store is down: a session it vouched for lately still works, so the map and the board
      // (served by the proxy, not the store) keep going; what needs the store answers 503 itself.
      const known = vouched.get(token);
      if (known && t - known.at < STORE_OUTAGE_GRACE_MS) return known.user;
      return unavailable(error);
    }
  };

  const guard: MiddlewareHandler<AppEnv> = async (c, next) => {
    // Health and readiness are asked by balancers and monitors, which hold no session; the session
    // routes say themselves who is logged in.
    if (c.req.path === '/api/health' || c.req.path === '/api/ready' || c.req.path.startsWith('/api/session'))
      return next();
    const open = await isOpen();
    const user = await userOf(c, open);
    if (user === undefined) throw new ProxyError(401, 'login_required', 'log in first');
    c.set('user', user);
    c.set('open', open);
    await next();
  };

  const audit = (entry: Parameters<typeof recordAudit>[1]) =>
    o.db ? recordAudit(o.db, entry).catch(unavailable) : Promise.resolve();

  /** Opens a session for the user and sets its cookie on the answer; audited as a login. */
  const logIn = async (c: Context, user: { id: string; name: string }, address: string) => {
    if (o.db === undefined) throw new ProxyError(503, 'store_unavailable', 'this server has no store');
    const token = await createSession(o.db, user.id, o.sessions, now()).catch(unavailable);
    await audit({ actor: user.name, action: 'login', subject: user.name, details: { address } });
    setCookie(c, cookieName(c), token, {
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
      secure: secure(c),
      maxAge: Math.floor(o.sessions.absoluteMs / 1000),
    });
  };

  const Login = z.strictObject({
    username: z.string().min(1).max(200),
    password: z.string().min(1).max(1024),
  });

  const routes = new Hono<AppEnv>()
    .get('/', async (c) => {
      const open = await isOpen();
      const body: SessionState = { mode: open ? 'open' : 'users', user: (await userOf(c, open)) ?? null };
      return c.json(body);
    })
    // Open demo only: each role's view, one click away.
    .post('/view-as', validate('json', z.strictObject({ role: z.enum(ROLES) })), async (c) => {
      if (!(await isOpen()))
        throw new ProxyError(403, 'not_open_mode', 'viewing as another role is for the open demo only');
      requireLoopbackName(c);
      setCookie(c, VIEW_AS_COOKIE, c.req.valid('json').role, {
        httpOnly: true,
        sameSite: 'Strict',
        path: '/',
      });
      return c.body(null, 204);
    })
    .post('/', validate('json', Login), async (c) => {
      const input = c.req.valid('json');
      if (o.db === undefined || (await isOpen()))
        throw new ProxyError(401, 'wrong_credentials', 'there are no users yet: the demo is open to all');
      const address = clientAddress(c, o.trustProxy);
      const counted = throttleKey(address);
      const key = nameKey(input.username);
      const refusal = throttle.check(counted, key);
      if (refusal) {
        const seconds = Math.max(1, Math.ceil(refusal.retryAfterMs / 1000));
        const whose = {
          address: 'from this address',
          username: 'for this username',
          everyone: 'from everyone',
        }[refusal.scope];
        throw new ProxyError(
          429,
          'too_many_attempts',
          `too many failed logins ${whose}: try again in ${seconds} s`,
          { retryAfterSeconds: seconds },
          { 'Retry-After': String(seconds) },
        );
      }
      const found = await findCredentials(o.db, input.username).catch(unavailable);
      const usable = found !== undefined && found.user.disabledAt === null;
      const matches = await verifyPassword(input.password, usable ? found.passwordHash : await decoy);
      if (!usable || !matches) {
        throttle.failed(counted, key);
        await audit({
          actor: 'anonymous',
          action: 'login.failed',
          subject: input.username.slice(0, 64),
          details: { address },
        });
        throw new ProxyError(401, 'wrong_credentials', 'wrong username or password');
      }
      throttle.succeeded(counted, key);
      await logIn(c, found.user, address);
      return c.body(null, 204);
    })
    .delete('/', async (c) => {
      const token = getCookie(c, cookieName(c));
      if (token !== undefined && o.db !== undefined && token.length <= 200) {
        vouched.delete(token);
        const user = await findSession(o.db, token, o.sessions, now()).catch(unavailable);
        await endSession(o.db, token).catch(unavailable);
        if (user) await audit({ actor: user.name, action: 'logout', subject: user.name });
      }
      deleteCookie(c, cookieName(c), { path: '/', secure: secure(c) });
      deleteCookie(c, VIEW_AS_COOKIE, { path: '/' });
      return c.body(null, 204);
    });

  /**
   * A user was added here: open mode is over at once, not at the next check. The first one, added
   * from the open demo, is the person at this browser: they go on logged in as that user.
   */
  const userAdded = async (c: Context, user: { id: string; name: string }, wasOpen: boolean) => {
    usersKnown = { any: true, at: now() };
    if (wasOpen) {
      deleteCookie(c, VIEW_AS_COOKIE, { path: '/' });
      await logIn(c, user, clientAddress(c, o.trustProxy));
    }
  };

  return { guard, routes, userAdded };
}

/** Lets only these roles through (403 `forbidden_role` for the others); after the access guard. */
export function requireRole(...roles: Role[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const user = c.get('user');
    if (!roles.includes(user.role)) {
      throw new ProxyError(
        403,
        'forbidden_role',
        `your role (${user.role}) may not do this: it is for ${roles.join(' or ')}`,
      );
    }
    await next();
  };
}
