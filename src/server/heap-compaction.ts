import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = () => void;
let collector: Collect | null | undefined;

/** V8's full collection: the global one under `--expose-gc`, else one taken from a context of its own. */
function fullCollection(): Collect | undefined {
  if (collector !== undefined) return collector ?? undefined;
  const own = (globalThis as { gc?: unknown }).gc;
  if (typeof own === 'function') return (collector = own as Collect);
  try {
    // Only a context made while the flag is on gets `gc`: this process's own global stays without it.
    setFlagsFromString('--expose-gc');
    const made = runInNewContext('gc') as unknown;
    collector = typeof made === 'function' ? (made as Collect) : null;
  } catch {
    collector = null;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  return collector ?? undefined;
}

/**
 * A full collection that also compacts the old space, so V8 gives back the pages a burst of work
 * (a large pull) left nearly empty: a plain full collection frees the objects but keeps the pages
 * their survivors are scattered over, and V8's memory reducer never starts while refreshes keep
 * allocating. Blocks the event loop for about one marking of the live heap. False when V8 offers
 * no full collection.
 */
export function compactHeap(): boolean {
  const collect = fullCollection();
  if (!collect) return false;
  setFlagsFromString('--compact-on-every-full-gc');
  try {
    collect();
  } finally {
    setFlagsFromString('--no-compact-on-every-full-gc');
  }
  return true;
}

export interface OldSpaceKeeperOptions {
  /** Compacts when the old space holds more than this many times what it used after the last compaction… */
  factor: number;
  /** …and at least this many bytes more: a small heap is not compacted for a few pages. */
  slackBytes: number;
  /**
   * The most of the time compactions may take: after one that took d ms, none for d / busyShare ms
   * (while pulls promote faster than that, the next would only be filled again at once).
   */
  busyShare: number;
  /** Milliseconds, for the pauses' share. */
  now?: () => number;
  /** V8's old space: bytes held (its pages) and used (by objects, garbage included). */
  read?: () => { held: number; used: number };
  compact?: () => boolean;
}

/** V8's old space, as `getHeapSpaceStatistics` reads it. */
export function oldSpace(): { held: number; used: number } {
  const space = getHeapSpaceStatistics().find((s) => s.space_name === 'old_space');
  return { held: space?.space_size ?? 0, used: space?.space_used_size ?? 0 };
}

/**
 * Keeps V8's old space near what is live: `check()` (at a quiet moment, such as the end of a puller
 * round) compacts the heap once the old space grew past `factor` times what it used after the last
 * compaction. What grows it is garbage promoted by the pulls (answers held across their store
 * writes), which V8 would collect but not give back. Whether it compacted.
 */
export function createOldSpaceKeeper(o: OldSpaceKeeperOptions) {
  const read = o.read ?? oldSpace;
  const compact = o.compact ?? compactHeap;
  const now = o.now ?? (() => performance.now());
  let live = 0;
  let quietUntil = Number.NEGATIVE_INFINITY;
  return {
    check(): boolean {
      const start = now();
      if (start < quietUntil) return false;
      const { held } = read();
      if (held <= Math.max(live * o.factor, live + o.slackBytes)) return false;
      if (!compact()) return false;
      quietUntil = start + (now() - start) / o.busyShare;
      live = read().used;
      return true;
    },
  };
}
