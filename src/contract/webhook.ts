import * as z from 'zod/mini';
import { privateAddressReason } from './client-url';
import { orAbsent, text } from './mini-fields';
import type { ParseIssue, ParseIssueKind } from './parse-issue';
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

/** What a 201's body said of the subscription: the subscription when it is named, and its departures. */
export interface CreatedWebhook {
  webhook: Webhook | undefined;
  issues: ParseIssue[];
}

const SHOWN_FIELDS = ['eventType', 'clientUrl', 'isActive', 'createdAt'] as const;

/** A field's departure from the documented type, by what was sent in its place. */
const kindOf = (value: unknown): ParseIssueKind =>
  value === null ? 'null_where_required' : value === undefined ? 'missing' : 'wrong_type';

/**
 * The subscription a 201 created, read as leniently as the service may send it: as documented, or
 * wrapped one level deeper (`{"webhook": {…}}`), and with its uuid taken from the `Location` header
 * (`/api/v1/webhooks/<uuid>`) when the body has none that reads. `webhook` is undefined when neither
 * names it: then no subscription can be recorded. Every departure is in `issues`, for the drift report.
 */
export function readCreatedWebhook(body: unknown, location: string | undefined): CreatedWebhook {
  const issues: ParseIssue[] = [];
  const read = (fields: unknown, path: string): Webhook | undefined => {
    const parsed = Webhook.safeParse(fields);
    if (!parsed.success || !isRecord(fields)) return undefined;
    const at = (field: string) => (path ? `${path}.${field}` : field);
    if (typeof fields.uuid === 'number')
      issues.push(kept(at('uuid'), 'wrong_type', 'an integer uuid, read as text'));
    for (const field of SHOWN_FIELDS)
      if (Object.hasOwn(fields, field) && parsed.data[field] === undefined && fields[field] !== undefined)
        issues.push(kept(at(field), kindOf(fields[field]), `${field} unreadable, not shown`));
    return parsed.data;
  };
  const documented = read(body, '');
  if (documented) return { webhook: documented, issues };
  const wrappers = isRecord(body) && !Object.hasOwn(body, 'uuid') ? Object.entries(body) : [];
  const objects = wrappers.filter(([, value]) => isRecord(value));
  const [wrapper, inner] = objects.length === 1 ? objects[0]! : ['', body];
  if (inner !== body) {
    issues.push({
      path: wrapper,
      kind: 'wrapped_item',
      message: `the subscription wrapped in "${wrapper}", read from inside`,
      skipped: false,
    });
    const wrapped = read(inner, wrapper);
    if (wrapped) return { webhook: wrapped, issues };
  }
  const uuidPath = wrapper ? `${wrapper}.uuid` : 'uuid';
  const sentUuid = isRecord(inner) ? inner.uuid : undefined;
  const named = location && /\/webhooks\/([^/?#]+)\/?$/.exec(location)?.[1];
  let uuid: string | undefined;
  try {
    uuid = named ? decodeURIComponent(named) : undefined;
  } catch {
    uuid = undefined;
  }
  const fields = isRecord(inner) ? inner : {};
  const webhook = uuid === undefined ? undefined : read({ ...fields, uuid }, wrapper);
  issues.push(
    webhook
      ? kept(uuidPath, kindOf(sentUuid), 'no uuid that reads in the body: taken from the Location header')
      : {
          path: uuidPath,
          kind: kindOf(sentUuid),
          message: 'no uuid in the body nor in the Location header: the subscription is not recorded',
          skipped: true,
        },
  );
  return { webhook, issues };
}

/** A departure that cost one field, the subscription kept. */
const kept = (path: string, kind: ParseIssueKind, message: string): ParseIssue => ({
  path,
  kind,
  message,
  skipped: false,
  keptItem: true,
});
