import * as z from 'zod/mini';
import { orAbsent, text } from './mini-fields';
import './zod-locale';

/** The only event type the upstream accepts for self-service webhooks (4.4). */
export const WEBHOOK_EVENT_TYPES = ['PdvRequestCompleted'] as const;

/** A valid `https://` URL, as 4.4 requires of `clientUrl`. */
export const HttpsUrl = z.string().check(
  z.trim(),
  z.minLength(1, 'enter the address that is to receive notifications'),
  z.refine((v) => URL.canParse(v), 'not a valid URL'),
  z.refine(
    (v) => !URL.canParse(v) || new URL(v).protocol === 'https:',
    'the address must start with https://',
  ),
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
  isActive: orAbsent(z.boolean()),
  createdAt: text,
});
export type Webhook = z.infer<typeof Webhook>;
