import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * V8's full collection, as code may ask for it: the process's own `gc` when started with
 * `--expose-gc`, else that of a context made once the flag is set (the main context stays as it was).
 */
export function exposedGc(): () => void {
  const own = (globalThis as { gc?: unknown }).gc;
  if (typeof own === 'function') return own as () => void;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

/** What the process holds that a collection can give back: V8's heap in use and array buffers. */
export function heldBytes(): number {
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

export interface HeapBoundOptions {
  /** Growth of `measure()` over the lowest it was seen at since the last collection that asks for one. */
  growthBytes: number;
  measure?: () => number;
  collect?: () => void;
  /** Runs the collection once the work at hand is done (after the caller's turn, not inside it). */
  schedule?: (run: () => void) => void;
  /** Each collection asked for: what was held before and after, and its pause. */
  onCollect?: (figures: { beforeBytes: number; afterBytes: number; ms: number }) => void;
}

/**
 * Asks V8 for a full collection when what the process holds grew past a bound, checked only where
 * the caller knows a large piece of work just ended (a full pull's answer stored). V8 left to itself
 * lets the old space grow to a multiple of what is live before it collects: the peak of a full pull.
 */
export function createHeapBound(o: HeapBoundOptions) {
  const measure = o.measure ?? heldBytes;
  const schedule = o.schedule ?? ((run: () => void) => void setImmediate(run));
  let collect = o.collect;
  let floor = Number.POSITIVE_INFINITY;
  let pending = false;
  let collections = 0;
  return {
    /** After a large piece of work: true when a collection was asked for. */
    check(): boolean {
      if (pending) return false;
      const level = measure();
      // A collection of V8's own lowers the level: the growth is counted from there.
      if (level < floor) floor = level;
      if (level - floor <= o.growthBytes) return false;
      pending = true;
      schedule(() => {
        const started = performance.now();
        collect ??= exposedGc();
        collect();
        const ms = performance.now() - started;
        pending = false;
        floor = measure();
        collections++;
        o.onCollect?.({ beforeBytes: level, afterBytes: floor, ms });
      });
      return true;
    },
    /** Collections asked for so far. */
    collections: () => collections,
  };
}

export type HeapBound = ReturnType<typeof createHeapBound>;
