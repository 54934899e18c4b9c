import type { Query, QueryClient } from '@tanstack/react-query';
import { StreamChange } from '@/contract/stream-api';
import type { LoadBy } from '@/domain/model';
import { parseLoadParam } from '../lib/load-ref';
import { setLiveState } from './live-state';

/** What the stream needs of the browser's EventSource (a stand-in in tests). */
export interface EventSourceLike {
  readonly readyState: number;
  onopen: ((e: Event) => void) | null;
  onerror: ((e: Event) => void) | null;
  addEventListener(type: string, listener: (e: MessageEvent<string>) => void): void;
  close(): void;
}

const OPEN = 1;
const CLOSED = 2;

/**
 * A stream that has said nothing for this long is taken as gone (its instance paused, or a
 * balancer holding a dead connection): the server sends a heartbeat every 15 s.
 */
export const STREAM_SILENT_MS = 40_000;

/** `<prefix>.<n>` of the pull cursors and the stream's event ids. */
function cursorParts(cursor: unknown): { prefix: string; n: number } | undefined {
  if (typeof cursor !== 'string') return undefined;
  const dot = cursor.lastIndexOf('.');
  const n = Number(cursor.slice(dot + 1));
  return dot > 0 && Number.isInteger(n) ? { prefix: cursor.slice(0, dot), n } : undefined;
}

/** Whether a view's answer, pulled at `cursor`, already holds the change of event `id`. */
function holds(cursor: unknown, id: string | undefined): boolean {
  const a = cursorParts(cursor);
  const b = cursorParts(id);
  return a !== undefined && b !== undefined && a.prefix === b.prefix && a.n >= b.n;
}

/** The load (one id) or loads (a list) a query of `loadQueries` is about: its key's last two parts. */
function loadsOf(query: Query): { by: LoadBy; ids: string | readonly string[] } | undefined {
  const key = query.queryKey;
  if (key[0] !== 'loads' || key.length < 4) return undefined;
  const by = key[2];
  const ids = key[3];
  if (by !== 'external-id' && by !== 'load-number') return undefined;
  if (typeof ids !== 'string' && !Array.isArray(ids)) return undefined;
  return { by, ids: ids as string | readonly string[] };
}

/**
 * Opens `/api/stream` and pulls, through the views' own queries (each asks from its cursor), the
 * views that show a load a change names. The queries keep polling meanwhile: a stream that is down
 * costs only the wait for the next poll. EventSource reconnects by itself with `Last-Event-ID`; a
 * stream the server refused (closed) is opened again after `retryMs`.
 */
export function startLiveStream(
  client: QueryClient,
  o: {
    retryMs: number;
    makeSource?: (url: string) => EventSourceLike;
    /** Silence after which an open stream is dropped and opened again (`STREAM_SILENT_MS`). */
    silentMs?: number;
  },
): () => void {
  const make =
    o.makeSource ??
    (typeof EventSource === 'undefined'
      ? undefined
      : (url: string) => new EventSource(url) as unknown as EventSourceLike);
  if (!make) return () => {};
  let source: EventSourceLike | undefined;
  let lastId: string | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let dropped = false;
  const silentMs = o.silentMs ?? STREAM_SILENT_MS;
  /** When the stream last said anything (opened, an event, a heartbeat). */
  let heard = Date.now();

  const active = (match: (query: Query) => boolean) =>
    client.getQueryCache().findAll({ type: 'active', predicate: match });

  /** Pulls each query; one that was pulling already is pulled again after, unless it then holds `id`. */
  const bring = (queries: Query[], id: string | undefined) => {
    for (const query of queries) {
      if (holds((query.state.data as { cursor?: unknown } | undefined)?.cursor, id)) continue;
      const wasFetching = query.state.fetchStatus === 'fetching';
      void query.fetch(undefined, { cancelRefetch: false }).then(
        () => {
          const cursor = (query.state.data as { cursor?: unknown } | undefined)?.cursor;
          if (wasFetching && !holds(cursor, id)) void query.fetch(undefined, { cancelRefetch: false });
        },
        () => undefined,
      );
    }
  };
  const bringAll = () =>
    bring(
      active((q) => loadsOf(q) !== undefined),
      undefined,
    );

  const open = () => {
    const url = lastId ? `/api/stream?lastEventId=${encodeURIComponent(lastId)}` : '/api/stream';
    const s = (source = make(url));
    heard = Date.now();
    s.onopen = () => {
      heard = Date.now();
      setLiveState('live');
      // Back after a break: what changed meanwhile, in case the server could not replay it.
      if (dropped) bringAll();
      dropped = false;
    };
    s.onerror = () => {
      setLiveState('polling');
      dropped = true;
      if (s.readyState !== CLOSED || stopped) return;
      clearTimeout(retry);
      retry = setTimeout(open, o.retryMs);
    };
    const remember = (e: MessageEvent<string>) => {
      heard = Date.now();
      if (e.lastEventId) lastId = e.lastEventId;
    };
    s.addEventListener('heartbeat', () => (heard = Date.now()));
    s.addEventListener('ready', remember);
    // The server could not read the store: it ends the stream, and says when to come back.
    s.addEventListener('unavailable', () => setLiveState('polling'));
    s.addEventListener('reset', (e) => {
      remember(e);
      bringAll();
    });
    s.addEventListener('change', (e) => {
      remember(e);
      let data: StreamChange;
      try {
        data = StreamChange.parse(JSON.parse(e.data));
      } catch {
        // A change it cannot read still means something changed.
        bringAll();
        return;
      }
      if ('all' in data) return bringAll();
      const changed: Record<LoadBy, Set<string>> = { 'external-id': new Set(), 'load-number': new Set() };
      for (const key of data.loads) {
        const ref = parseLoadParam(key);
        if (ref) changed[ref.by].add(ref.id);
      }
      const shown = active((q) => {
        const about = loadsOf(q);
        if (!about) return false;
        const set = changed[about.by];
        return typeof about.ids === 'string' ? set.has(about.ids) : about.ids.some((id) => set.has(id));
      });
      bring(shown, e.lastEventId || undefined);
    });
  };
  open();
  // A stream open but silent past its heartbeats says "Live" while nothing can come: it is dropped
  // (the views poll meanwhile) and opened again, which a balancer sends to an instance that answers.
  const watchdog = setInterval(
    () => {
      if (stopped || source?.readyState !== OPEN || Date.now() - heard <= silentMs) return;
      setLiveState('polling');
      dropped = true;
      source.close();
      clearTimeout(retry);
      open();
    },
    Math.max(10, silentMs / 4),
  );
  return () => {
    stopped = true;
    clearTimeout(retry);
    clearInterval(watchdog);
    source?.close();
    setLiveState('off');
  };
}
