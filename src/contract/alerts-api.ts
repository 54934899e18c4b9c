import * as z from 'zod/mini';
import './zod-locale';

/**
 * Alerts (issue 36 part 5): the rules an admin sets (`/api/alerts/rules`), the alerts they fired
 * (`GET /api/alerts`) and their webhook deliveries. What the server answers and the SPA parses.
 */

/**
 * What a rule watches: a load dark (no recent ping), its next stop at risk or late, detention started
 * at a stop, no POD after delivery.
 */
export const ALERT_KINDS = ['dark', 'at-risk', 'late', 'detention', 'pod-overdue'] as const;
export const AlertKind = z.enum(ALERT_KINDS);
export type AlertKind = z.infer<typeof AlertKind>;

/** A year: a longer wait is a rule that never fires. */
export const ALERT_MAX_MINUTES = 365 * 24 * 60;
export const ALERT_URL_MAX_LENGTH = 500;

/**
 * A rule as an admin sends it. `minMinutes`: how long the condition must hold before it fires (the N
 * of "dark longer than N minutes"; for `pod-overdue`, the hours since delivery × 60). `webhookUrl`:
 * where a Slack-compatible `{ "text" }` is posted, or null for the in-app list only; the server
 * refuses addresses of this machine and of private networks.
 */
export const AlertRuleInput = z.strictObject({
  kind: AlertKind,
  minMinutes: z
    .int('the time before it alerts is a whole number of minutes')
    .check(
      z.gte(0, 'the time before it alerts is 0 or more'),
      z.lte(ALERT_MAX_MINUTES, 'the time before it alerts is at most a year'),
    ),
  enabled: z.boolean(),
  webhookUrl: z.nullable(
    z.string().check(
      z.maxLength(ALERT_URL_MAX_LENGTH, `a webhook URL is at most ${ALERT_URL_MAX_LENGTH} characters`),
      z.refine(
        (v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol),
        'a webhook URL is an https:// URL',
      ),
      // fetch refuses such an address, and the page shows a webhook by its host alone: a secret
      // belongs in the path, as Slack's and Teams' addresses keep theirs.
      z.refine(
        (v) => !URL.canParse(v) || (new URL(v).username === '' && new URL(v).password === ''),
        'a webhook URL has no user name or password (put a secret in its path)',
      ),
    ),
  ),
});
export type AlertRuleInput = z.infer<typeof AlertRuleInput>;

/** `PUT /api/alerts/rules/:id`: the whole rule again, with the version it was read at. */
export const AlertRuleUpdate = z.strictObject({
  ...AlertRuleInput.shape,
  version: z.int('version is a whole number').check(z.gte(1, 'version is 1 or more')),
});
export type AlertRuleUpdate = z.infer<typeof AlertRuleUpdate>;

/** A webhook delivery's state and the last attempt's failure, for the admin. */
export const AlertDeliveryState = z.object({
  alertId: z.string(),
  load: z.string(),
  text: z.string(),
  state: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number(),
  /** ISO 8601: when the next attempt is due (pending only). */
  nextAt: z.nullable(z.string()),
  lastError: z.nullable(z.string()),
  firedAt: z.string(),
});
export type AlertDeliveryState = z.infer<typeof AlertDeliveryState>;

export const AlertRule = z.object({
  id: z.number(),
  kind: AlertKind,
  minMinutes: z.number(),
  enabled: z.boolean(),
  webhookUrl: z.nullable(z.string()),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedBy: z.string(),
  updatedAt: z.string(),
  version: z.number(),
});
export type AlertRule = z.infer<typeof AlertRule>;

/** `GET /api/alerts/rules` (admins): the rules, and the webhook deliveries not delivered, newest first. */
export const AlertRulesAnswer = z.object({
  rules: z.array(AlertRule),
  failing: z.array(AlertDeliveryState),
});
export type AlertRulesAnswer = z.infer<typeof AlertRulesAnswer>;

/** One alert as every user reads it. */
export const Alert = z.object({
  id: z.string(),
  ruleId: z.number(),
  kind: AlertKind,
  load: z.string(),
  occurrence: z.string(),
  /** In a dispatcher's words: what, which load, since when. */
  text: z.string(),
  /** ISO 8601: since when the condition held, when known. */
  since: z.nullable(z.string()),
  /** ISO 8601. */
  firedAt: z.string(),
});
export type Alert = z.infer<typeof Alert>;

export const ALERTS_LIMIT = 100;

/** `GET /api/alerts`: the latest alerts, newest first (at most `ALERTS_LIMIT`). */
export const AlertsAnswer = z.object({ alerts: z.array(Alert) });
export type AlertsAnswer = z.infer<typeof AlertsAnswer>;

/** What a rule kind says, in an admin's words. */
export const ALERT_KIND_TEXT: Record<AlertKind, string> = {
  dark: 'Dark (no recent ping)',
  'at-risk': 'Next stop at risk',
  late: 'Late for the next stop',
  detention: 'Detention started',
  'pod-overdue': 'No POD after delivery',
};
