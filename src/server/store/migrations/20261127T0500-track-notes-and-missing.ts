import { sql, type Kysely } from 'kysely';

// Frozen once released, like every migration: tables by name, never through today's `Database` type.

export async function up(db: Kysely<unknown>): Promise<void> {
  // A load's notes (what its answers had that was skipped or kept), served with it on every instance.
  await db.schema.alterTable('track_loads').addColumn('notes', 'json').execute();
  // The service's last full answer left it out: served as missing, not as pending, until it comes back.
  await db.schema
    .alterTable('track_loads')
    .addColumn('missing', 'boolean', (c) => c.notNull().defaultTo(sql`false`))
    .execute();
  // When the load last changed: retention removes tracks that no one watches and that have not changed
  // for RETENTION_DAYS (a delivered load's track stops changing).
  await db.schema
    .alterTable('track_loads')
    .addColumn('changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('track_loads_changed_at').on('track_loads').column('changed_at').execute();
  // Loads whose delta a puller took from the service but could not store (its term had ended): the
  // leader pulls them in full at its next round.
  await db.schema
    .createTable('track_resync')
    .addColumn('load_by', 'text', (c) => c.notNull())
    .addColumn('load_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('track_resync_pk', ['load_by', 'load_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('track_resync').execute();
  await db.schema.alterTable('track_loads').dropColumn('changed_at').execute();
  await db.schema.alterTable('track_loads').dropColumn('missing').execute();
  await db.schema.alterTable('track_loads').dropColumn('notes').execute();
}
