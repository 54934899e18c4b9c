import { queryOptions } from '@tanstack/react-query';
import { OverdueAnswer, PaperworkAnswer, ReadyAnswer } from '@/contract/billing-api';
import { ApiError, apiGet } from './api-client';

/** Days of delivery, `YYYY-MM-DD`, both ends included; empty = open. */
export interface DayRange {
  from: string;
  to: string;
}

/** `/api/billing/ready` with the range, as JSON or as the CSV to download. */
export function readyPath(range: DayRange, format?: 'csv'): string {
  const params = new URLSearchParams();
  if (range.from) params.set('from', range.from);
  if (range.to) params.set('to', range.to);
  if (format) params.set('format', format);
  const query = params.toString();
  return `/api/billing/ready${query ? `?${query}` : ''}`;
}

// A store that does not answer, or a refused date, is said at once; "Try again" asks again.
const retry = (count: number, error: Error) =>
  count < 2 && !(error instanceof ApiError && (!error.transient || error.code === 'store_unavailable'));

/** Paperwork, ready to bill and overdue PODs over the loads the proxy holds. */
export const billingQueries = {
  all: () => ['billing'] as const,
  /** `flagged`: only the papers with a flag or not decided yet, and their loads (what the inbox shows). */
  paperwork: (scope: 'all' | 'flagged' = 'all') =>
    queryOptions({
      queryKey: [...billingQueries.all(), 'paperwork', scope],
      queryFn: ({ signal }) =>
        apiGet(`/api/billing/paperwork${scope === 'flagged' ? '?flagged=1' : ''}`, PaperworkAnswer, signal),
      retry,
    }),
  ready: (range: DayRange) =>
    queryOptions({
      queryKey: [...billingQueries.all(), 'ready', range],
      queryFn: ({ signal }) => apiGet(readyPath(range), ReadyAnswer, signal),
      retry,
    }),
  overdue: () =>
    queryOptions({
      queryKey: [...billingQueries.all(), 'overdue'],
      queryFn: ({ signal }) => apiGet('/api/billing/overdue', OverdueAnswer, signal),
      retry,
    }),
};
