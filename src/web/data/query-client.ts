import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import type { SessionState } from '@/contract/proxy-api';
import { ApiError } from './api-client';
import { noteSessionEnded, sessionQueries } from './session-queries';

/** A QueryClient with the app's defaults; tests make a fresh one each. */
export function createQueryClient(): QueryClient {
  // A session that ended (server restart, logout elsewhere) brings the login screen back, which
  // says why when someone was logged in: a read or an action refused alike.
  const sessionGone = (error: unknown) => {
    if (!(error instanceof ApiError) || error.code !== 'login_required') return;
    const key = sessionQueries.state().queryKey;
    // Not after the user's own logout, which marks the session stale before its last polls come back.
    if (client.getQueryData<SessionState>(key)?.user && !client.getQueryState(key)?.isInvalidated)
      noteSessionEnded();
    void client.invalidateQueries({ queryKey: key });
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: sessionGone }),
    mutationCache: new MutationCache({ onError: sessionGone }),
    defaultOptions: {
      queries: {
        // A 4xx or an unreadable answer will not change by asking again; a network blip or 5xx may.
        retry: (count, error) => count < 2 && !(error instanceof ApiError && !error.transient),
        refetchOnWindowFocus: true,
      },
    },
  });
  return client;
}
