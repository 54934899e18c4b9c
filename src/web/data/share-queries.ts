import { mutationOptions, queryOptions } from '@tanstack/react-query';
import { ShareCreated, ShareLink, SharesAnswer, type CreateShareRequest } from '@/contract/share-api';
import { apiGet, apiSend } from './api-client';

/**
 * The team's customer share links (`/api/shares`): made from a load's page, listed and revoked on
 * the share links page. Here, not in a feature, because both features use it.
 */
export const shareQueries = {
  all: () => ['shares'] as const,
  list: () =>
    queryOptions({
      queryKey: [...shareQueries.all(), 'list'],
      queryFn: ({ signal }) => apiGet('/api/shares', SharesAnswer, signal),
    }),
};

export const shareMutations = {
  create: () =>
    mutationOptions({
      mutationKey: [...shareQueries.all(), 'create'],
      mutationFn: (input: CreateShareRequest) => apiSend('POST', '/api/shares', input, ShareCreated),
    }),
  revoke: () =>
    mutationOptions({
      mutationKey: [...shareQueries.all(), 'revoke'],
      mutationFn: (id: string) =>
        apiSend('DELETE', `/api/shares/${encodeURIComponent(id)}`, undefined, ShareLink),
    }),
};

/** The address a customer opens: this dashboard's origin and the link's path. */
export const shareUrl = (path: string) => `${window.location.origin}${path}`;
