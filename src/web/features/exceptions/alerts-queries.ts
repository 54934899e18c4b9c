import { queryOptions } from '@tanstack/react-query';
import { AlertsAnswer } from '@/contract/alerts-api';
import { apiGet } from '../../data/api-client';

/** The alerts the server fired, refreshed with the loads. */
export const alertQueries = {
  all: () => ['alerts'] as const,
  list: (refreshSeconds: number) =>
    queryOptions({
      queryKey: alertQueries.all(),
      queryFn: ({ signal }) => apiGet('/api/alerts', AlertsAnswer, signal),
      refetchInterval: refreshSeconds * 1000,
      refetchIntervalInBackground: false,
      placeholderData: (previous) => previous,
    }),
};
