import { sql, type Kysely } from 'kysely';
import type { LoadBy } from '@/domain/model';
import type { Database } from '../store/database';
import type { Store } from '../store/store';

/** The loads one change touched, and the cursor after it (the stream's event id). */
export interface ChangeEvent {
  id: string;
  loads: { by: LoadBy; id: string }[];
}

/**
 * What changed in the tracks, as it happens (`subscribe`) and after a cursor a browser held
 * (`since`: `'reset'` when that cursor cannot be read here, and the browser must pull in full).
 */
export interface ChangeFeed {
  subscribe(listener: (e: ChangeEvent) => void): () => void;
  since(lastEventId: string): Promise<ChangeEvent | 'reset'>;
  /** The cursor now, for a stream's first event; undefined while nothing is known yet. */
  head(): Promise<string | undefined>;
  /** Whether the feed cannot hear changes now (its store's connection lost); never, when absent. */
  down?(): boolean;
  /** Calls `listener` each time the feed stops hearing changes; the function stops that. */
  onDown?(listener: () => void): () => void;
  stop(): Promise<void>;
}

function listeners() {
  const set = new Set<(e: ChangeEvent) => void>();
  return {
    subscribe(listener: (e: ChangeEvent) => void) {
      set.add(listener);
      return () => void set.delete(listener);
    },
    emit(e: ChangeEvent) {
      for (const l of [...set]) l(e);
    },
  };
}

/** `<prefix>.<n>` → its parts; undefined when it is not of that form. */
function splitCursor(cursor: string): { prefix: string; n: number } | undefined {
  const dot = cursor.lastIndexOf('.');
  const text = cursor.slice(dot + 1);
  if (dot <= 0 || !/^\d{1,15}$/.test(text)) return undefined;
  return { prefix: cursor.slice(0, dot), n: Number(text) };
}

const refKey = (by: LoadBy, id: string) => `${by}\u0000${id}`;

/** Changes kept for replay by the memory feed: beyond them, a browser gets a reset. */
const MEMORY_KEPT = 2_000;

/**
 * One instance's track cache as a feed: the cache calls `notify` for each load it changes, and the
 * loads changed within one turn of the event loop (one answer merged) go out as one event.
 */
export function memoryChangeFeed() {
  const out = listeners();
  const kept: ChangeEvent[] = [];
  let epoch: string | undefined;
  let last = 0;
  /** The greatest cursor stamp among the events let go: a browser from before it gets a reset. */
  let dropped = 0;
  let pending: Map<string, { by: LoadBy; id: string }> | undefined;
  let pendingCursor = '';

  const flush = () => {
    const loads = [...(pending?.values() ?? [])];
    pending = undefined;
    const event = { id: pendingCursor, loads };
    kept.push(event);
    if (kept.length > MEMORY_KEPT) dropped = splitCursor(kept.shift()?.id ?? '')?.n ?? dropped;
    out.emit(event);
  };

  const feed: ChangeFeed & { notify: (by: LoadBy, id: string, cursor: string) => void } = {
    notify(by, id, cursor) {
      const at = splitCursor(cursor);
      if (!at) return;
      epoch = at.prefix;
      last = Math.max(last, at.n);
      pendingCursor = `${epoch}.${last}`;
      if (!pending) {
        pending = new Map();
        queueMicrotask(flush);
      }
      pending.set(refKey(by, id), { by, id });
    },
    subscribe: out.subscribe,
    async since(lastEventId) {
      const at = splitCursor(lastEventId);
      // Another process's cursor (a restart), or one older than what is kept: pull in full.
      if (!at || epoch === undefined || at.prefix !== epoch || at.n > last || at.n < dropped) return 'reset';
      const loads = new Map<string, { by: LoadBy; id: string }>();
      for (const e of kept)
        if ((splitCursor(e.id)?.n ?? 0) > at.n) for (const l of e.loads) loads.set(refKey(l.by, l.id), l);
      return { id: `${epoch}.${last}`, loads: [...loads.values()] };
    },
    head: async () => (epoch === undefined ? undefined : `${epoch}.${last}`),
    stop: async () => {},
  };
  return feed;
}

export interface StoreFeedOptions {
  store: Pick<Store, 'db' | 'listen'>;
  log: (line: string) => void;
  /** Wait before listening again after the connection was lost. */
  retryMs?: number;
}

export const TRACKS_CHANNEL = 'haulview_tracks';

/** Loads changed after `after`, and the greatest stamp among them. */
async function changedAfter(db: Kysely<Database>, after: number) {
  const rows = await sql<{ load_by: LoadBy; load_id: string; changed_seq: string | number }>`
    select load_by, load_id, changed_seq from track_loads where changed_seq > ${after}`.execute(db);
  let max = after;
  for (const r of rows.rows) max = Math.max(max, Number(r.changed_seq));
  return { loads: rows.rows.map((r) => ({ by: r.load_by, id: r.load_id })), max };
}

async function clockOf(db: Kysely<Database>) {
  const clock = await db.selectFrom('track_clock').select(['seq', 'store_id']).executeTakeFirstOrThrow();
  return { storeId: clock.store_id, seq: Number(clock.seq) };
}

/**
 * The tracks in PostgreSQL as a feed, on every instance: one connection LISTENs for the stamps
 * `storeDeltas` notifies at commit; each batch of notifications becomes one event with the loads
 * changed since the last one. A lost connection is listened on again, and what changed meanwhile
 * goes out then, with the same query.
 */
export async function storeChangeFeed(o: StoreFeedOptions): Promise<ChangeFeed> {
  const { db, listen } = o.store;
  if (!listen) throw new Error('this store cannot LISTEN');
  const out = listeners();
  const start = await clockOf(db);
  const storeId = start.storeId;
  let last = start.seq;
  let stopped = false;
  let unlisten: (() => Promise<void>) | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  // One read at a time; notifications during it ask for one more read after it.
  let reading: Promise<void> | undefined;
  let again = false;

  const read = (): Promise<void> => {
    if (reading) {
      again = true;
      return reading;
    }
    reading = (async () => {
      do {
        again = false;
        try {
          const { loads, max } = await changedAfter(db, last);
          if (max > last) {
            last = max;
            out.emit({ id: `${storeId}.${max}`, loads });
          }
        } catch (error) {
          if (!stopped) o.log(`change feed: reading changes failed (${(error as Error).message})`);
        }
      } while (again && !stopped);
      reading = undefined;
    })();
    return reading;
  };

  // Said once an outage, and once when it is over: a retry a second would fill the log.
  let down = false;
  const connect = async (): Promise<void> => {
    if (stopped) return;
    try {
      unlisten = await listen(TRACKS_CHANNEL, () => void read(), lost);
      if (down) o.log(`change feed: listening on ${TRACKS_CHANNEL} again`);
      down = false;
      // What was committed while nobody listened.
      await read();
    } catch (error) {
      lost(error);
    }
  };
  const downListeners = new Set<() => void>();
  function lost(error: unknown) {
    unlisten = undefined;
    if (stopped || retry) return;
    const fresh = !down;
    if (fresh)
      o.log(
        `change feed: LISTEN ${TRACKS_CHANNEL} lost (${(error as Error)?.message ?? error}); trying again until it listens`,
      );
    down = true;
    if (fresh) for (const l of [...downListeners]) l();
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, o.retryMs ?? 1_000);
    retry.unref?.();
  }

  await connect();
  return {
    subscribe: out.subscribe,
    async since(lastEventId) {
      const at = splitCursor(lastEventId);
      const clock = await clockOf(db);
      // Another store's cursor (a restored copy, a new database), or one from its future.
      if (!at || at.prefix !== clock.storeId || at.n > clock.seq) return 'reset';
      const { loads, max } = await changedAfter(db, at.n);
      return { id: `${clock.storeId}.${Math.max(max, at.n)}`, loads };
    },
    async head() {
      const clock = await clockOf(db);
      return `${clock.storeId}.${clock.seq}`;
    },
    down: () => down,
    onDown(listener) {
      downListeners.add(listener);
      return () => void downListeners.delete(listener);
    },
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await unlisten?.().catch(() => {});
      await reading;
    },
  };
}
