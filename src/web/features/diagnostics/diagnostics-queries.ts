import { queryOptions } from '@tanstack/react-query';
import { Diagnostics } from '@/contract/diagnostics-api';
import { apiGet } from '../../data/api-client';

export const diagnosticsQueries = {
  report: () =>
    queryOptions({
      queryKey: ['diagnostics'],
      queryFn: ({ signal }) => apiGet('/api/diagnostics', Diagnostics, signal),
      refetchInterval: 30_000,
    }),
};
