/**
 * `list.map(fn)` for a list that comes again and again with most items the very same objects in the
 * same places (10,000 loads, of which a refresh replaces a thousand): an item that is the one the
 * last list had at its index keeps the result it had, without `fn` or a lookup by key. Results for
 * items at other places are computed again. Make a new cache when `fn` would answer differently.
 */
export function indexCache<T, U>(fn: (item: T) => U): (list: readonly T[]) => U[] {
  let lastIn: readonly T[] = [];
  let lastOut: U[] = [];
  return (list) => {
    if (list === lastIn) return lastOut;
    const out = new Array<U>(list.length);
    for (let i = 0; i < list.length; i++) {
      const item = list[i] as T;
      out[i] = i < lastIn.length && item === lastIn[i] ? (lastOut[i] as U) : fn(item);
    }
    lastIn = list;
    lastOut = out;
    return out;
  };
}
