import { sql, type Kysely } from 'kysely';

// Frozen once released, like every migration: tables by name, never through today's `Database` type.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    // The service's uuid: one row per webhook it accepted. No token column: the token is never kept.
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('client_url', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // The admins' list reads the newest first.
  await db.schema.createIndex('webhooks_created_at').on('webhooks').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhooks').execute();
}
