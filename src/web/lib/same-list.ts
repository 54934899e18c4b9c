import { useState } from 'react';

const identical = (a: unknown, b: unknown) => a === b;

/** Whether two lists hold the same items (by identity, or by `same`) in the same order. */
export function sameItems<T>(
  a: readonly T[],
  b: readonly T[],
  same: (x: T, y: T) => boolean = identical,
): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!same(a[i] as T, b[i] as T)) return false;
  return true;
}

/**
 * A list derived again on every clock tick that mostly comes out the same (the board's rows, the
 * map's points): the previous list is returned while its items are the very same, so what depends on
 * the list by identity (sorting 10,000 rows, a cluster index) is not rebuilt. React's pattern for
 * keeping information from the previous render: state set while rendering. `same` may compare less
 * than identity: only what the consumer reads (a cluster index reads positions, not colours).
 */
export function useSameList<T>(list: T[], same: (x: T, y: T) => boolean = identical): T[] {
  const [kept, setKept] = useState(list);
  if (sameItems(kept, list, same)) return kept;
  setKept(list);
  return list;
}
