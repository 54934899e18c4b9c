import { setFlagsFromString } from 'node:v8';
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
