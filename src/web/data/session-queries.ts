import { queryOptions } from '@tanstack/react-query';
import { SessionState } from '@/contract/proxy-api';
import { apiGet } from './api-client';

/** Whether the dashboard needs a login (DASHBOARD_TOKEN) and whether this browser has a session. */
export const sessionQueries = {
  state: () =>
    queryOptions({
      queryKey: ['session'],
      queryFn: ({ signal }) => apiGet('/api/session', SessionState, signal),
      staleTime: Infinity,
    }),
};
