import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

/** A QueryClient with the app's defaults; tests make a fresh one each. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A 4xx will not change by asking again; a network blip or 5xx may.
        retry: (count, error) =>
          count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
        refetchOnWindowFocus: true,
      },
    },
  });
}
