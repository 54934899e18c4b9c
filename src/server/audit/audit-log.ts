import type { Kysely } from 'kysely';
import type { AuditAnswer, AuditEntry } from '@/contract/admin-api';
import type { Database } from '../store/database';
import { isRecord } from '@/contract/records';

/**
 * A page of the audit log, the newest first: `limit` entries older than the entry `before` (ids grow
 * with time), of one action when given. `older` is the next page's `before`, null at the oldest.
 */
export async function readAuditLog(
  db: Kysely<Database>,
  page: { limit: number; before?: string; action?: string },
): Promise<AuditAnswer> {
  let query = db.selectFrom('audit_log').selectAll();
  if (page.before !== undefined) query = query.where('id', '<', page.before);
  if (page.action !== undefined) query = query.where('action', '=', page.action);
  // One more than asked: whether an older page exists, without counting.
  const rows = await query
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const shown = rows.slice(0, page.limit);
  const entries: AuditEntry[] = shown.map((row) => ({
    id: String(row.id),
    at: row.at.toISOString(),
    actor: row.actor,
    action: row.action,
    subject: row.subject,
    details: isRecord(row.details) ? row.details : {},
  }));
  const actions = await db.selectFrom('audit_log').select('action').distinct().orderBy('action').execute();
  return {
    entries,
    older: rows.length > page.limit ? (entries.at(-1)?.id ?? null) : null,
    actions: actions.map((a) => a.action),
  };
}
