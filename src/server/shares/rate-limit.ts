/**
 * A fixed-window counter per key: at most `limit` requests per `windowMs`. `take` answers how long
 * to wait when the key is over its limit. Kept in memory per instance: behind a balancer each
 * instance limits on its own, which still bounds guessing to a few requests a second per address.
 */
export function createRateLimit(o: { limit: number; windowMs: number; maxKeys?: number }, now: () => number) {
  const windows = new Map<string, { start: number; count: number }>();
  const maxKeys = o.maxKeys ?? 100_000;
  return {
    take(key: string): number | undefined {
      const t = now();
      let w = windows.get(key);
      if (w === undefined || t - w.start >= o.windowMs) {
        // Many distinct keys (a spread of addresses) must not grow the map for ever.
        if (windows.size >= maxKeys) {
          for (const [k, old] of windows) if (t - old.start >= o.windowMs) windows.delete(k);
          if (windows.size >= maxKeys) windows.clear();
        }
        w = { start: t, count: 0 };
        windows.set(key, w);
      }
      w.count += 1;
      return w.count > o.limit ? w.start + o.windowMs - t : undefined;
    },
  };
}
