import { useIsFetching } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { loadQueries } from '../../data/load-queries';

/**
 * False until the page has no pull of loads in flight and the browser has had an idle moment; then
 * true for good. For work that can wait for the page's own data: the nav's documents badge pulls
 * every watched load's documents, and on a big board that adds much to the first draw's work.
 */
export function useQuietStart(timeoutMs = 3000): boolean {
  const busy = useIsFetching({ queryKey: loadQueries.all() }) > 0;
  const [quiet, setQuiet] = useState(false);
  useEffect(() => {
    if (quiet || busy) return;
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(() => setQuiet(true), { timeout: timeoutMs });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(() => setQuiet(true), 0);
    return () => window.clearTimeout(id);
  }, [busy, quiet, timeoutMs]);
  return quiet;
}
