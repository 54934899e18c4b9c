/**
 * Deterministic randomness for the fleet: every value is a pure function of the seed and a few
 * integers, so any item of any load can be recomputed alone, in any order, with the same result.
 */

/** A 32-bit hash of integers (a variant of murmur3's finalizer, applied per input). */
export function hash32(...values: number[]): number {
  let h = 0x9e3779b9;
  for (const v of values) {
    let k = Math.imul(v | 0, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A number in [0, 1) determined by the inputs. */
export function unit(...values: number[]): number {
  return hash32(...values) / 4294967296;
}

/** A random source for one purpose: `next()` walks a sequence fixed by the seed and the stream. */
export function stream(...seed: number[]): {
  next: () => number;
  int: (n: number) => number;
  pick: <T>(a: readonly T[]) => T;
} {
  let i = 0;
  const next = () => unit(...seed, i++);
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (a) => a[Math.floor(next() * a.length)] as (typeof a)[number],
  };
}
