import type { Kysely } from 'kysely';
import type { Database } from './database';

/** One entry of the audit log: who (a user's name, `cli`, `anonymous`), did what, to what. */
export interface AuditInput {
  actor: string;
  action: string;
  subject?: string | null;
  details?: Record<string, unknown>;
  /** When it happened; the database's clock when absent. */
  at?: Date;
}

/** Writes an entry, in the caller's transaction when given one (so the change and its entry go together). */
export async function recordAudit(db: Kysely<Database>, entry: AuditInput): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor: entry.actor,
      action: entry.action,
      subject: entry.subject ?? null,
      details: JSON.stringify(entry.details ?? {}),
      ...(entry.at ? { at: entry.at } : {}),
    })
    .execute();
}
