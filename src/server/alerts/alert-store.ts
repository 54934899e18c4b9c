import { sql, type Kysely, type Selectable } from 'kysely';
import {
  ALERTS_LIMIT,
  type Alert,
  type AlertDeliveryState,
  type AlertKind,
  type AlertRule,
  type AlertRuleInput,
} from '@/contract/alerts-api';
import { ProxyError } from '../errors';
import { recordAudit } from '../store/audit';
import type { AlertRulesTable, Database, DeliveryAttempt } from '../store/database';

const iso = (d: Date | null) => d?.toISOString() ?? null;

const toRule = (row: Selectable<AlertRulesTable>): AlertRule => ({
  id: row.id,
  kind: row.kind,
  minMinutes: row.min_minutes,
  enabled: row.enabled,
  webhookUrl: row.webhook_url,
  createdBy: row.created_by,
  createdAt: row.created_at.toISOString(),
  updatedBy: row.updated_by,
  updatedAt: row.updated_at.toISOString(),
  version: row.version,
});

const ruleDetails = (r: AlertRuleInput) => ({
  kind: r.kind,
  minMinutes: r.minMinutes,
  enabled: r.enabled,
  // The address may carry a secret (Slack's do): the audit says only whether there is one.
  webhook: r.webhookUrl !== null,
});

/** Adds a rule, audited (`alert.rule.create`) in the same transaction. */
export async function createRule(
  db: Kysely<Database>,
  input: AlertRuleInput,
  actor: string,
): Promise<AlertRule> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('alert_rules')
      .values({
        kind: input.kind,
        min_minutes: input.minMinutes,
        enabled: input.enabled,
        webhook_url: input.webhookUrl,
        created_by: actor,
        updated_by: actor,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      actor,
      action: 'alert.rule.create',
      subject: `rule ${row.id}`,
      details: ruleDetails(input),
    });
    return toRule(row);
  });
}

/**
 * Replaces a rule if it is still at `version` (else 409: another admin changed it first), audited
 * (`alert.rule.update`) in the same transaction; 404 when there is no such rule.
 */
export async function updateRule(
  db: Kysely<Database>,
  id: number,
  input: AlertRuleInput & { version: number },
  actor: string,
): Promise<AlertRule> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('alert_rules')
      .set({
        kind: input.kind,
        min_minutes: input.minMinutes,
        enabled: input.enabled,
        webhook_url: input.webhookUrl,
        updated_by: actor,
        updated_at: sql<Date>`clock_timestamp()`,
        version: sql<number>`version + 1`,
      })
      .where('id', '=', id)
      .where('version', '=', input.version)
      .returningAll()
      .executeTakeFirst();
    if (!row) {
      const exists = await trx
        .selectFrom('alert_rules')
        .select('version')
        .where('id', '=', id)
        .executeTakeFirst();
      if (!exists) throw new ProxyError(404, 'not_found', `no alert rule ${id}`);
      throw new ProxyError(
        409,
        'version_conflict',
        `rule ${id} was changed meanwhile (now version ${exists.version}): reload it`,
      );
    }
    await recordAudit(trx, {
      actor,
      action: 'alert.rule.update',
      subject: `rule ${id}`,
      details: ruleDetails(input),
    });
    return toRule(row);
  });
}

/** Deletes a rule and its alerts, audited (`alert.rule.delete`); 404 when there is none. */
export async function deleteRule(db: Kysely<Database>, id: number, actor: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx.deleteFrom('alert_rules').where('id', '=', id).returning('kind').executeTakeFirst();
    if (!row) throw new ProxyError(404, 'not_found', `no alert rule ${id}`);
    await recordAudit(trx, {
      actor,
      action: 'alert.rule.delete',
      subject: `rule ${id}`,
      details: { kind: row.kind },
    });
  });
}

export async function listRules(db: Kysely<Database>): Promise<AlertRule[]> {
  const rows = await db.selectFrom('alert_rules').selectAll().orderBy('id').execute();
  return rows.map(toRule);
}

/** An alert about to be stored: one rule's condition on one occurrence of one load. */
export interface FiringAlert {
  ruleId: number;
  kind: AlertKind;
  load: string;
  occurrence: string;
  text: string;
  since: number | undefined;
  webhookUrl: string | null;
}

/**
 * Stores the alert unless it was stored before (by this instance or another): the unique key on
 * (rule, load, occurrence) decides, so of several instances exactly one gets the row back and owns
 * its delivery. Its webhook delivery is queued, due at once, in the same transaction.
 */
export async function fireAlert(
  db: Kysely<Database>,
  a: FiringAlert,
  now: number,
): Promise<string | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('alerts')
      .values({
        rule_id: a.ruleId,
        load: a.load,
        occurrence: a.occurrence,
        kind: a.kind,
        text: a.text,
        since: a.since === undefined ? null : new Date(a.since),
        fired_at: new Date(now),
      })
      .onConflict((c) => c.columns(['rule_id', 'load', 'occurrence']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) return undefined;
    if (a.webhookUrl !== null)
      await trx
        .insertInto('alert_deliveries')
        .values({ alert_id: row.id, url: a.webhookUrl, state: 'pending', next_at: new Date(now) })
        .execute();
    return String(row.id);
  });
}

export const firedKey = (ruleId: number, load: string, occurrence: string) =>
  `${ruleId}\u0000${load}\u0000${occurrence}`;

export async function listAlerts(db: Kysely<Database>): Promise<Alert[]> {
  const rows = await db
    .selectFrom('alerts')
    .selectAll()
    .orderBy('fired_at', 'desc')
    .orderBy('id', 'desc')
    .limit(ALERTS_LIMIT)
    .execute();
  return rows.map((r) => ({
    id: String(r.id),
    ruleId: r.rule_id,
    kind: r.kind,
    load: r.load,
    occurrence: r.occurrence,
    text: r.text,
    since: iso(r.since),
    firedAt: r.fired_at.toISOString(),
  }));
}

/** A delivery an instance claimed: it alone makes this attempt. */
export interface ClaimedDelivery {
  alertId: string;
  url: string;
  text: string;
  attempts: number;
}

/**
 * Claims the deliveries due at `now`: each is moved `holdMs` ahead in one conditional update, so an
 * instance that reads it at the same time gets no row and leaves it alone.
 */
export async function claimDueDeliveries(
  db: Kysely<Database>,
  now: number,
  holdMs: number,
  limit = 50,
): Promise<ClaimedDelivery[]> {
  const due = await db
    .selectFrom('alert_deliveries')
    .innerJoin('alerts', 'alerts.id', 'alert_deliveries.alert_id')
    .select(['alert_id', 'url', 'text', 'attempts', 'next_at'])
    .where('state', '=', 'pending')
    .where('next_at', '<=', new Date(now))
    .orderBy('next_at')
    .limit(limit)
    .execute();
  const claimed: ClaimedDelivery[] = [];
  for (const d of due) {
    const won = await db
      .updateTable('alert_deliveries')
      .set({ next_at: new Date(now + holdMs) })
      .where('alert_id', '=', d.alert_id)
      .where('state', '=', 'pending')
      .where('next_at', '=', d.next_at)
      .returning('alert_id')
      .executeTakeFirst();
    if (won) claimed.push({ alertId: String(d.alert_id), url: d.url, text: d.text, attempts: d.attempts });
  }
  return claimed;
}

/**
 * Records one attempt: delivered, or failed with the next attempt at `retryAt` (undefined: no more
 * tries, the delivery has failed for good).
 */
export async function recordAttempt(
  db: Kysely<Database>,
  alertId: string,
  attempt: DeliveryAttempt,
  outcome: { delivered: true } | { delivered: false; retryAt: number | undefined },
): Promise<void> {
  await db
    .updateTable('alert_deliveries')
    .set({
      attempts: sql<number>`attempts + 1`,
      state: outcome.delivered ? 'delivered' : outcome.retryAt === undefined ? 'failed' : 'pending',
      next_at: outcome.delivered || outcome.retryAt === undefined ? null : new Date(outcome.retryAt),
      last_error: outcome.delivered ? null : (attempt.error ?? `HTTP ${attempt.status}`),
      log: sql`log || ${JSON.stringify([attempt])}::jsonb`,
    })
    .where('alert_id', '=', alertId)
    .execute();
}

/** The deliveries not delivered (failing and retried, or given up), newest first, for the admin. */
export async function undeliveredAlerts(db: Kysely<Database>): Promise<AlertDeliveryState[]> {
  const rows = await db
    .selectFrom('alert_deliveries')
    .innerJoin('alerts', 'alerts.id', 'alert_deliveries.alert_id')
    .select(['alert_id', 'load', 'text', 'state', 'attempts', 'next_at', 'last_error', 'fired_at'])
    .where('state', '!=', 'delivered')
    .where('attempts', '>', 0)
    .orderBy('fired_at', 'desc')
    .limit(ALERTS_LIMIT)
    .execute();
  return rows.map((r) => ({
    alertId: String(r.alert_id),
    load: r.load,
    text: r.text,
    state: r.state,
    attempts: r.attempts,
    nextAt: iso(r.next_at),
    lastError: r.last_error,
    firedAt: r.fired_at.toISOString(),
  }));
}
