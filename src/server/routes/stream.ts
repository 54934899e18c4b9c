import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { streamSSE } from 'hono/streaming';
import { createHash } from 'node:crypto';
import { StreamQuery, type StreamChange } from '@/contract/stream-api';
import type { LoadBy } from '@/domain/model';
import { REF_PREFIX } from '@/domain/watch-text';
import type { AppEnv } from '../app-env';
import type { ChangeEvent, ChangeFeed } from '../stream/change-feed';
import { ProxyError } from '../errors';
import { validate } from '../validation';

/** Keys listed in one change at most: past it the page is told that everything may have changed. */
export const MAX_KEYS_PER_CHANGE = 1_000;
/** Loads remembered per session: a board's ids, a load page's, the documents'. */
const MAX_WATCHED_PER_SESSION = 20_000;
/** How long a page waits to open the stream again when the store did not answer. */
export const UNAVAILABLE_RETRY_MS = 15_000;
/** Sessions remembered at once; past it the least recently seen go first. */
const MAX_SESSIONS = 10_000;

export const loadKeyOf = (by: LoadBy, id: string) => `${REF_PREFIX[by]}:${id}`;

/**
 * The loads each session watches on this instance, learnt from its pulls and forgotten `ttlMs`
 * after its last pull of them: the stream names only those. Sessions are known by a hash of
 * their cookie, never by the cookie itself.
 */
export function createWatches(o: { ttlMs: number; now?: () => number }) {
  const now = o.now ?? Date.now;
  const sessions = new Map<string, Map<string, number>>();

  const forget = (watched: Map<string, number>, at: number) => {
    // Oldest renewal first (a renewed key moves to the end).
    for (const [key, until] of watched) {
      if (until > at && watched.size <= MAX_WATCHED_PER_SESSION) break;
      watched.delete(key);
    }
  };

  return {
    note(session: string, by: LoadBy, ids: readonly string[]) {
      let watched = sessions.get(session);
      if (watched) sessions.delete(session);
      else watched = new Map();
      sessions.set(session, watched);
      if (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string);
      const until = now() + o.ttlMs;
      for (const id of ids) {
        const key = loadKeyOf(by, id);
        watched.delete(key);
        watched.set(key, until);
      }
      forget(watched, now());
    },
    /** The keys of `loads` the session watches; undefined when it watches nothing (yet). */
    select(session: string, loads: ChangeEvent['loads']): string[] | undefined {
      const watched = sessions.get(session);
      if (watched) forget(watched, now());
      if (!watched || watched.size === 0) return undefined;
      const keys: string[] = [];
      for (const l of loads) {
        const key = loadKeyOf(l.by, l.id);
        if (watched.has(key)) keys.push(key);
      }
      return keys;
    },
  };
}
export type Watches = ReturnType<typeof createWatches>;

/** The session a request belongs to: its cookie, hashed; open demo mode's browsers share one. */
function sessionOf(c: Context<AppEnv>): string {
  const token = getCookie(c, '__Host-haulview_session') ?? getCookie(c, 'haulview_session');
  if (token === undefined) return `open:${c.get('user')?.name ?? ''}`;
  return createHash('sha256').update(token).digest('base64url');
}

/**
 * Remembers the loads a session's pulls ask for (`/api/pull/*`), after the pull answered: the
 * stream tells that session of changes to those loads.
 */
export function watchPulls(watches: Watches): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.res.status !== 200) return;
    const by: LoadBy | undefined = c.req.path.endsWith('/by-external-id')
      ? 'external-id'
      : c.req.path.endsWith('/by-load-number')
        ? 'load-number'
        : undefined;
    if (!by) return;
    // The body the validator read (Hono keeps it): valid, since the pull answered 200.
    const body = (await c.req.json().catch(() => undefined)) as { ids?: unknown } | undefined;
    if (!Array.isArray(body?.ids)) return;
    watches.note(
      sessionOf(c),
      by,
      body.ids.filter((id): id is string => typeof id === 'string'),
    );
  };
}

export interface StreamRouteOptions {
  feed: ChangeFeed;
  watches: Watches;
  /** A comment this often keeps proxies and balancers from closing a quiet stream. */
  heartbeatMs?: number;
}

/**
 * `GET /api/stream`: Server-Sent Events naming the loads that changed (`event: change`, the cursor
 * as its id); the page pulls them with its own cursor. `Last-Event-ID` replays what changed after
 * it, or sends `event: reset` when the id is not of this store (the page then pulls in full).
 * `closeAll` ends every open stream, for a server that drains.
 */
export function streamRoutes(o: StreamRouteOptions) {
  const app = new Hono<AppEnv>();
  const open = new Set<() => void>();
  let closing = false;

  app.get('/', validate('query', StreamQuery), (c) => {
    if (closing) throw new ProxyError(503, 'draining', 'this instance is shutting down');
    const header = c.req.header('Last-Event-ID');
    if (header !== undefined && header.length > 200)
      throw new ProxyError(400, 'bad_last_event_id', 'Last-Event-ID may hold at most 200 characters');
    const lastEventId = header ?? c.req.valid('query').lastEventId;
    const session = sessionOf(c);

    return streamSSE(c, async (stream) => {
      let writing = Promise.resolve();
      const write = (event: string, id: string | undefined, data: unknown) => {
        writing = writing
          .then(() => stream.writeSSE({ event, data: JSON.stringify(data), ...(id ? { id } : {}) }))
          .catch(() => undefined);
        return writing;
      };
      /** Writes the change, if it names a load of this session's; whether it did. */
      const sendChange = (e: ChangeEvent) => {
        const watched = o.watches.select(session, e.loads);
        const keys = watched ?? e.loads.map((l) => loadKeyOf(l.by, l.id));
        if (keys.length === 0) return false;
        const data: StreamChange = keys.length > MAX_KEYS_PER_CHANGE ? { all: true } : { loads: keys };
        void write('change', e.id, data);
        return true;
      };
      // Live changes wait while the replay is read, so none comes before what it follows.
      let held: ChangeEvent[] | undefined = [];
      const unsubscribe = o.feed.subscribe((e) => (held ? held.push(e) : sendChange(e)));
      let end = () => {};
      const ended = new Promise<void>((resolve) => (end = resolve));
      open.add(end);
      stream.onAbort(end);
      // An event, not an SSE comment: the page's EventSource sees only events, and takes a stream
      // silent past its heartbeats as gone.
      const heartbeat = setInterval(() => void write('heartbeat', undefined, {}), o.heartbeatMs ?? 15_000);
      // The store does not answer, or its change feed is lost: nothing would come, so the page is told
      // to poll, and comes back later with its last id (what changed meanwhile is replayed then), not
      // every 3 s from every page, nor after a reset that would have them all pull in full.
      const unavailable = async () => {
        writing = writing
          .then(() => stream.writeSSE({ event: 'unavailable', data: '{}', retry: UNAVAILABLE_RETRY_MS }))
          .catch(() => undefined);
        await writing;
        end();
      };
      const offDown = o.feed.onDown?.(() => void unavailable());
      try {
        try {
          if (o.feed.down?.()) throw new Error('the change feed is down');
          const replay = lastEventId === undefined ? undefined : await o.feed.since(lastEventId);
          if (replay === 'reset') await write('reset', await o.feed.head(), {});
          // Else a first id (or the replay's, when it named nothing), so that a reconnect replays from there.
          else if (!(replay && sendChange(replay)))
            await write('ready', replay?.id ?? (await o.feed.head()), {});
        } catch {
          await unavailable();
          return;
        }
        for (const e of held ?? []) sendChange(e);
        held = undefined;
        await ended;
        await writing;
      } finally {
        clearInterval(heartbeat);
        offDown?.();
        unsubscribe();
        open.delete(end);
      }
    });
  });

  return {
    app,
    /** Ends every open stream, and refuses new ones: the page's EventSource goes to another instance. */
    closeAll() {
      closing = true;
      for (const end of open) end();
      open.clear();
    },
  };
}
