import { queryOptions } from '@tanstack/react-query';
import { ShareView } from '@/contract/share-api';
import { ApiError, apiGet } from '../../data/api-client';

/** Tokens this page has opened once: its later polls say so, and are not counted as views. */
const opened = new Set<string>();

/** Whether an error means the link no longer works (unknown, expired or revoked): polling ends. */
export const linkEnded = (error: unknown) => error instanceof ApiError && error.status === 404;

/** The shared loads behind a token, polled at the pace the server says. */
export const shareViewQueries = {
  view: (token: string) =>
    queryOptions({
      queryKey: ['share-view', token] as const,
      queryFn: async ({ signal }) => {
        const poll = opened.has(token);
        const view = await apiGet(
          `/api/share/${encodeURIComponent(token)}${poll ? '?poll=1' : ''}`,
          ShareView,
          signal,
        );
        opened.add(token);
        return view;
      },
      refetchInterval: (query) =>
        linkEnded(query.state.error) ? false : (query.state.data?.refreshSeconds ?? 30) * 1000,
      refetchIntervalInBackground: false,
      retry: (count, error) => !linkEnded(error) && count < 2,
    }),
};
