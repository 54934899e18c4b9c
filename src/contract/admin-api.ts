import * as z from 'zod/mini';
import './zod-locale';

/**
 * The admins' records on the proxy (`/api/webhooks`, `/api/audit`): what the server answers and the
 * SPA parses. Beside proxy-api.ts, whose other shapes they do not share.
 */

/** A webhook created through Haulview, as the registry keeps it: never the bearer token. */
export const RecordedWebhook = z.object({
  uuid: z.string(),
  eventType: z.string(),
  clientUrl: z.string(),
  /** The user who created it. */
  createdBy: z.string(),
  /** ISO 8601: when the service accepted it. */
  createdAt: z.string(),
});
export type RecordedWebhook = z.infer<typeof RecordedWebhook>;

/** `GET /api/webhooks`: the newest first. */
export const WebhooksAnswer = z.object({ webhooks: z.array(RecordedWebhook) });
export type WebhooksAnswer = z.infer<typeof WebhooksAnswer>;

export const AUDIT_LIMIT_DEFAULT = 50;
export const AUDIT_LIMIT_MAX = 200;

/** An action's name as stored: `login`, `login.failed`, `user.role`, `webhook.create`. */
export const AuditAction = z
  .string()
  .check(
    z.maxLength(64),
    z.regex(
      /^[a-z][a-z_]*(?:\.[a-z_]+)*$/,
      'an action is lower-case words joined by dots, e.g. webhook.create',
    ),
  );

/** `GET /api/audit` parameters, as a query string gives them. */
export const AuditQuery = z.strictObject({
  limit: z.optional(
    z.string().check(
      z.regex(/^\d{1,4}$/, `a whole number from 1 to ${AUDIT_LIMIT_MAX}`),
      z.refine((v) => Number(v) >= 1 && Number(v) <= AUDIT_LIMIT_MAX, `from 1 to ${AUDIT_LIMIT_MAX}`),
    ),
  ),
  /** An entry's id: the entries older than it. */
  before: z.optional(z.string().check(z.regex(/^[1-9]\d{0,17}$/, 'an entry id (a positive whole number)'))),
  action: z.optional(AuditAction),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

/** One entry of the audit log: who did what to what, when. */
export const AuditEntry = z.object({
  /** Ascending with time; `?before=` pages by it. */
  id: z.string(),
  /** ISO 8601. */
  at: z.string(),
  actor: z.string(),
  action: z.string(),
  subject: z.nullable(z.string()),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/**
 * `GET /api/audit`: a page of entries, the newest first; `older` is the `?before=` of the next page
 * (null when this one reaches the oldest); `actions` every action the log holds, for the filter.
 */
export const AuditAnswer = z.object({
  entries: z.array(AuditEntry),
  older: z.nullable(z.string()),
  actions: z.array(z.string()),
});
export type AuditAnswer = z.infer<typeof AuditAnswer>;

/**
 * Set on a 201 of `POST /api/webhooks` whose webhook the registry could not record: the service
 * created it, the team's list lacks it.
 */
export const NOT_RECORDED_HEADER = 'Haulview-Not-Recorded';
