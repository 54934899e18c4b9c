import { z } from 'zod';
import { text } from './fields';

/** The only event type the upstream accepts for self-service webhooks (4.4). */
export const WEBHOOK_EVENT_TYPES = ['PdvRequestCompleted'] as const;

/** A valid `https://` URL, as 4.4 requires of `clientUrl`. */
export const HttpsUrl = z
  .string()
  .trim()
  .min(1, 'enter the address that is to receive notifications')
  .refine((v) => URL.canParse(v), 'not a valid URL')
  .refine(
    (v) => !URL.canParse(v) || new URL(v).protocol === 'https:',
    'the address must start with https://',
  );

/** 4.4 request body: what we send, strict. */
export const WebhookCreateRequest = z.strictObject({
  eventType: z.enum(WEBHOOK_EVENT_TYPES),
  clientUrl: HttpsUrl,
});
export type WebhookCreateRequest = z.infer<typeof WebhookCreateRequest>;

/** 2.7 webhook subscription, the 201 body: read leniently. */
export const Webhook = z.looseObject({
  uuid: z.string(),
  eventType: text,
  clientUrl: text,
  isActive: z
    .boolean()
    .nullish()
    .transform((v) => v ?? undefined),
  createdAt: text,
});
export type Webhook = z.infer<typeof Webhook>;
