import { useState } from 'react';

const NONE: ReadonlySet<string> = new Set();

interface Seen {
  urls: readonly string[] | undefined;
  /** Every URL seen so far; null before the first list. */
  known: ReadonlySet<string> | null;
  arrived: ReadonlySet<string>;
}

/**
 * The documents (by URL) that arrived while this page was open: what the first list held is not new,
 * what came in any later list is, until the page closes. `urls` is undefined while loading.
 */
export function useArrivals(urls: readonly string[] | undefined): ReadonlySet<string> {
  const [seen, setSeen] = useState<Seen>(() => ({
    urls,
    known: urls ? new Set(urls) : null,
    arrived: NONE,
  }));
  // Derived from the previous render's list, the way React's docs store information from it.
  if (seen.urls !== urls && urls !== undefined) {
    if (seen.known === null) {
      setSeen({ urls, known: new Set(urls), arrived: NONE });
    } else {
      const known = seen.known;
      const fresh = urls.filter((u) => !known.has(u));
      setSeen({
        urls,
        known: fresh.length > 0 ? new Set([...known, ...fresh]) : known,
        arrived: fresh.length > 0 ? new Set([...seen.arrived, ...fresh]) : seen.arrived,
      });
    }
  }
  return seen.arrived;
}
