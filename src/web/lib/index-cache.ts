/**
 * `list.map(fn)` for a list that comes again and again with most items the very same objects in the
 * same places (10,000 loads, of which a refresh replaces a thousand), for results that depend on the
 * item and on a level it has at a time (a load's staleness now). An item that is the one the last
 * list had at its index keeps the result it had, without `fn` or a lookup by key; items at other
 * places are built again. When only the time moves on (the clock crossed a threshold), an item in
 * its place keeps its result unless its level changed: a level is a subtraction and two
 * comparisons, where the result (a board row, a marker) is a build. When the list changes at the
 * same time, the items in their places keep their level without it being judged again.
 *
 * A list of another length (a load added to the watch list or taken off, which shifts the others)
 * looks its items up in the last list by identity, so they keep their results too. A list of the
 * same length is a refresh: an item not in its place is a new object, which no lookup would find.
 * This is the only cache of the results: one kept per item in a WeakMap would cost a refresh an entry
 * per moved load, and the garbage collector a weak entry per load to trace.
 */
export function levelCache<T, L, U>(
  levelOf: (item: T, now: number) => L,
  fn: (item: T, level: L, now: number) => U,
): (list: readonly T[], now: number) => U[] {
  let lastIn: readonly T[] = [];
  let lastNow = Number.NaN;
  let lastLevels: L[] = [];
  let lastOut: U[] = [];
  return (list, now) => {
    if (list === lastIn && now === lastNow) return lastOut;
    const out = new Array<U>(list.length);
    const levels = new Array<L>(list.length);
    // Made only when the list changed length, and then once.
    let placeOf: Map<T, number> | undefined;
    const shifted = list.length !== lastIn.length && lastIn.length > 0;
    for (let i = 0; i < list.length; i++) {
      const item = list[i] as T;
      const kept = i < lastIn.length && item === lastIn[i];
      if (kept) {
        const level = now === lastNow ? (lastLevels[i] as L) : levelOf(item, now);
        levels[i] = level;
        out[i] = level === lastLevels[i] ? (lastOut[i] as U) : fn(item, level, now);
        continue;
      }
      const level = levelOf(item, now);
      levels[i] = level;
      const was = shifted ? (placeOf ??= new Map(lastIn.map((x, j) => [x, j]))).get(item) : undefined;
      out[i] = was !== undefined && lastLevels[was] === level ? (lastOut[was] as U) : fn(item, level, now);
    }
    lastIn = list;
    lastNow = now;
    lastLevels = levels;
    lastOut = out;
    return out;
  };
}
