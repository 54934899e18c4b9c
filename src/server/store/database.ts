import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/**
 * The store's tables as Kysely sees them: the one place their columns are typed. A migration in
 * `migrations/` changes a table; this file follows it (the migration tests read the columns back).
 */
export interface Database {
  audit_log: AuditLogTable;
}

/** Who did what, when: one row per login, review, webhook or user change (issue 34). */
export interface AuditLogTable {
  id: Generated<string>;
  /** Set by the database (`now()`) unless given. */
  at: ColumnType<Date, Date | undefined, never>;
  /** The user's name, or `system` for what Haulview does on its own. */
  actor: string;
  /** What was done, e.g. `login`, `review`, `webhook.create`. */
  action: string;
  /** What it was done to (a user's name, a document's address), when there is one. */
  subject: string | null;
  details: ColumnType<unknown, string | undefined, never>;
}

export type AuditEntry = Selectable<AuditLogTable>;
export type NewAuditEntry = Insertable<AuditLogTable>;
