import { mutationOptions, useMutation } from '@tanstack/react-query';
import { recordCreatedWebhook } from './created-webhooks-log';
import {
  createWebhook,
  type CreateWebhookInput,
  type CreatedWebhook,
  type WebhookRequestError,
} from './webhook-api';

/** The webhook mutations. There is no webhook query (the service lists none), so nothing to invalidate. */
export const webhookMutations = {
  all: () => ['webhooks'] as const,
  create: (timeoutMs?: number) =>
    mutationOptions<CreatedWebhook, WebhookRequestError | Error, CreateWebhookInput>({
      mutationKey: [...webhookMutations.all(), 'create'],
      mutationFn: (input) => createWebhook(input, { timeoutMs }),
      // Creating is not idempotent: never ask twice on our own (a retry is the user's choice).
      retry: false,
      // The variables hold the bearer token: drop them as soon as nothing shows this mutation.
      gcTime: 0,
      // Here, not in mutate()'s callbacks, so the log is written even if the page was left meanwhile.
      onSuccess: ({ webhook }, input) => {
        recordCreatedWebhook({
          uuid: webhook.uuid,
          eventType: webhook.eventType ?? input.eventType,
          clientUrl: webhook.clientUrl ?? input.clientUrl,
          createdAt: webhook.createdAt ?? new Date().toISOString(),
        });
      },
    }),
};

export function useCreateWebhook(timeoutMs?: number) {
  return useMutation(webhookMutations.create(timeoutMs));
}
