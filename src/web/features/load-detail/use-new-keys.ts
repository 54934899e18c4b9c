import { useEffect, useState } from 'react';

const NONE: ReadonlySet<string> = new Set();

interface Seen {
  scope: string;
  keys: readonly string[] | undefined;
  /**
   * Every key seen so far in this scope; null before the first data. The first list is kept as it
   * came and made a set only when a second list is compared with it: a load with 25,000 items opens
   * without building a set nobody reads yet.
   */
  known: ReadonlySet<string> | readonly string[] | null;
  fresh: ReadonlySet<string>;
}

/**
 * The keys that appeared since the previous list, for `holdMs` after they came: live data that
 * arrives while one watches is briefly marked. The first list marks nothing, and neither does a
 * new `scope` (another load). Compares keys, so an item that merely changed is not new.
 */
export function useNewKeys(
  keys: readonly string[] | undefined,
  scope: string,
  holdMs = 20_000,
): ReadonlySet<string> {
  const [seen, setSeen] = useState<Seen>(() => ({
    scope,
    keys,
    known: keys ?? null,
    fresh: NONE,
  }));
  // Derived from the previous render's list, the way React's docs store information from it.
  if (seen.scope !== scope) {
    setSeen({ scope, keys, known: keys ?? null, fresh: NONE });
  } else if (seen.keys !== keys && keys !== undefined) {
    if (seen.known === null) {
      setSeen({ scope, keys, known: keys, fresh: NONE });
    } else {
      const known = seen.known instanceof Set ? seen.known : new Set(seen.known);
      const fresh = keys.filter((k) => !known.has(k));
      setSeen({
        scope,
        keys,
        known: fresh.length > 0 ? new Set([...known, ...fresh]) : known,
        fresh: fresh.length > 0 ? new Set(fresh) : seen.fresh,
      });
    }
  }
  const fresh = seen.scope === scope ? seen.fresh : NONE;
  useEffect(() => {
    if (fresh.size === 0) return;
    const timer = setTimeout(() => setSeen((s) => (s.fresh === fresh ? { ...s, fresh: NONE } : s)), holdMs);
    return () => clearTimeout(timer);
  }, [fresh, holdMs]);
  return fresh;
}
