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
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('track_loads').dropColumn('missing').execute();
  await db.schema.alterTable('track_loads').dropColumn('notes').execute();
}
