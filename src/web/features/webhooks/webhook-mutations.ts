import { mutationOptions, queryOptions, useMutation } from '@tanstack/react-query';
import { WebhooksAnswer } from '@/contract/admin-api';
import { ApiError, apiGet } from '../../data/api-client';
import {
  createWebhook,
  type CreateWebhookInput,
  type CreatedWebhook,
  type WebhookRequestError,
} from './webhook-api';

/** The webhooks created through Haulview, as the server records them for the whole team. */
export const webhookQueries = {
  all: () => ['webhooks'] as const,
  list: () =>
    queryOptions({
      queryKey: [...webhookQueries.all(), 'list'],
      queryFn: ({ signal }) => apiGet('/api/webhooks', WebhooksAnswer, signal),
      // A store that does not answer is said at once; "Try again" asks again.
      retry: (count, error) =>
        count < 2 && !(error instanceof ApiError && (!error.transient || error.code === 'store_unavailable')),
    }),
};

/** Creating a webhook; the server records it, so the list is read again after. */
export const webhookMutations = {
  create: (timeoutMs?: number) =>
    mutationOptions<CreatedWebhook, WebhookRequestError | Error, CreateWebhookInput>({
      mutationKey: [...webhookQueries.all(), 'create'],
      mutationFn: (input) => createWebhook(input, { timeoutMs }),
      // Creating is not idempotent: never ask twice on our own (a retry is the user's choice).
      retry: false,
      // The variables hold the bearer token: drop them as soon as nothing shows this mutation.
      gcTime: 0,
      // Here, not in mutate()'s callbacks, so the list is refreshed even if the page was left meanwhile.
      onSuccess: (_created, _input, _result, { client }) =>
        client.invalidateQueries({ queryKey: webhookQueries.list().queryKey }),
    }),
};

export function useCreateWebhook(timeoutMs?: number) {
  return useMutation(webhookMutations.create(timeoutMs));
}
