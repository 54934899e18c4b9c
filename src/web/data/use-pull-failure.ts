import { useState } from 'react';

interface PullTries {
  error: Error | null;
  failureReason: Error | null;
  dataUpdatedAt: number;
}

/**
 * What went wrong with a pull. Before its first answer, said from its first failed try (not once
 * its retries are spent, a minute against a slow service) until an answer comes: with no answer yet,
 * each new fetch clears the query's error and failure, and a service failing every time would be said
 * only in the gaps between fetches. Once there is data, a try that a retry mends is not said.
 */
export function usePullFailure(query: PullTries): Error | null {
  const now = query.error ?? (query.dataUpdatedAt === 0 ? query.failureReason : null);
  // Kept with the answer it came after: held until another answer comes. Set while rendering, as
  // React has state that follows a prop: an effect would draw the page once without it.
  const [held, setHeld] = useState<{ error: Error; after: number } | null>(null);
  if (now && (held?.error !== now || held.after !== query.dataUpdatedAt))
    setHeld({ error: now, after: query.dataUpdatedAt });
  if (now) return now;
  return held && held.after === query.dataUpdatedAt ? held.error : null;
}
