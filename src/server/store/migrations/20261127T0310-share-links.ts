import { sql, type Kysely } from 'kysely';

// Frozen once released, like every migration: tables by name, never through today's `Database` type.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('share_links')
    .addColumn('id', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey())
    // SHA-256 of the token (hex): a look-up by it needs no secret comparison; the token is never kept.
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    // Load references as `e:ID` / `n:ID`, a JSON array.
    .addColumn('loads', 'jsonb', (c) => c.notNull())
    .addColumn('show_map', 'boolean', (c) => c.notNull())
    .addColumn('show_status', 'boolean', (c) => c.notNull())
    .addColumn('show_stops', 'boolean', (c) => c.notNull())
    .addColumn('show_pod', 'boolean', (c) => c.notNull())
    // The latest the link works; with `after_delivery_days`, it ends earlier once every load is delivered.
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('after_delivery_days', 'integer')
    // The customer's name for the shipment: when set, the page shows it instead of our ids.
    .addColumn('reference', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revoked_by', 'text')
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_view_at', 'timestamptz')
    .execute();
  // The live links' loads are listed often (the puller keeps them pulled).
  await db.schema
    .createIndex('share_links_live')
    .on('share_links')
    .column('expires_at')
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('share_links').execute();
}
