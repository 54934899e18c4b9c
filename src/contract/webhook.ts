import * as z from 'zod/mini';
import { privateAddressReason } from './client-url';
import { orAbsent, text } from './mini-fields';
import { isRecord } from './records';
import './zod-locale';

/** The only event type the upstream accepts for self-service webhooks (4.4). */
export const WEBHOOK_EVENT_TYPES = ['PdvRequestCompleted'] as const;

/** The longest client URL Haulview relays: longer is no address a receiver is reached at. */
export const CLIENT_URL_MAX_LENGTH = 2048;

/**
 * A valid `https://` URL, as 4.4 requires of `clientUrl`, that names no address of this machine or a
 * private network (`privateAddressReason`).
 */
export const HttpsUrl = z.string().check(
  z.trim(),
  z.minLength(1, 'enter the address that is to receive notifications'),
  z.maxLength(CLIENT_URL_MAX_LENGTH, `an address of at most ${CLIENT_URL_MAX_LENGTH} characters`),
  // Browsers' URL parsers take a space in the host name (Chromium makes it %20), Node's and the
  // service's do not: refused here, so the form says so before anything is sent.
  z.refine((v) => !/\s/.test(v), 'an address has no spaces'),
  z.refine((v) => URL.canParse(v), 'not a valid URL'),
  z.refine(
    (v) => !URL.canParse(v) || new URL(v).protocol === 'https:',
    'the address must start with https://',
  ),
  z.superRefine((v, ctx) => {
    const reason = privateAddressReason(v);
    if (reason) ctx.addIssue({ code: 'custom', message: reason, input: v });
  }),
);

/** 4.4 request body: what we send, strict. */
export const WebhookCreateRequest = z.strictObject({
  eventType: z.enum(WEBHOOK_EVENT_TYPES),
  clientUrl: HttpsUrl,
});
export type WebhookCreateRequest = z.infer<typeof WebhookCreateRequest>;

/** A text field that is only shown: an odd value is absent, not a refusal of the whole subscription. */
const shownText = z.catch(text, () => undefined);

/**
 * 2.7 webhook subscription, the 201 body: read leniently. Only the uuid is needed (it names the
 * subscription); an integer one becomes text, as pulls' ids do.
 */
export const Webhook = z.looseObject({
  uuid: z.pipe(
    z.union([z.string().check(z.minLength(1)), z.int()]),
    z.transform((v: string | number) => String(v)),
  ),
  eventType: shownText,
  clientUrl: shownText,
  isActive: z.catch(orAbsent(z.boolean()), () => undefined),
  createdAt: shownText,
});
export type Webhook = z.infer<typeof Webhook>;

/**
 * The subscription a 201 created, read as leniently as the service may send it: as documented, or
 * wrapped one level deeper (`{"webhook": {…}}`), and with its uuid taken from the `Location` header
 * (`/api/v1/webhooks/<uuid>`) when the body has none that reads. Undefined when neither names it:
 * then no subscription can be recorded.
 */
export function readCreatedWebhook(body: unknown, location: string | undefined): Webhook | undefined {
  const documented = Webhook.safeParse(body);
  if (documented.success) return documented.data;
  const objects = isRecord(body) && !Object.hasOwn(body, 'uuid') ? Object.values(body).filter(isRecord) : [];
  const inner = objects.length === 1 ? (objects[0] as Record<string, unknown>) : body;
  if (inner !== body) {
    const wrapped = Webhook.safeParse(inner);
    if (wrapped.success) return wrapped.data;
  }
  const named = location && /\/webhooks\/([^/?#]+)\/?$/.exec(location)?.[1];
  if (!named) return undefined;
  let uuid: string;
  try {
    uuid = decodeURIComponent(named);
  } catch {
    return undefined;
  }
  const fields = isRecord(inner) ? inner : {};
  const withUuid = Webhook.safeParse({ ...fields, uuid });
  return withUuid.success ? withUuid.data : undefined;
}
