import { QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { sessionQueries } from './session-queries';

/** A QueryClient with the app's defaults; tests make a fresh one each. */
export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    // A session that ended (server restart, logout elsewhere) brings the login screen back.
    queryCache: new QueryCache({
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'login_required') {
          void client.invalidateQueries({ queryKey: sessionQueries.state().queryKey });
        }
      },
    }),
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
