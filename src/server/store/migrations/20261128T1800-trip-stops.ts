import { sql, type Kysely } from 'kysely';

// Frozen once released, like every migration: tables by name, never through today's `Database` type.

export async function up(db: Kysely<unknown>): Promise<void> {
  // Each trip's stops as last seen while it was current: the service sends only the trip under way's,
  // and a load dispatched again under the same ids still bills, shares and replays its earlier trips.
  await db.schema
    .createTable('trip_stops')
    .addColumn('load_by', 'text', (c) => c.notNull().check(sql`load_by in ('external-id', 'load-number')`))
    .addColumn('load_id', 'text', (c) => c.notNull())
    // Epoch ms of the trip's first planning status (a track's first trip without one: the earliest Date).
    .addColumn('trip_from', 'double precision', (c) => c.notNull())
    .addColumn('stops', 'jsonb', (c) => c.notNull())
    // When they last changed: retention removes them with their load's track.
    .addColumn('seen_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('trip_stops_pk', ['load_by', 'load_id', 'trip_from'])
    .execute();
  await db.schema.createIndex('trip_stops_seen_at').on('trip_stops').column('seen_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('trip_stops').execute();
}
