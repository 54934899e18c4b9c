import { sql, type Kysely } from 'kysely';

// Frozen once released, like every migration: tables by name, never through today's `Database` type.

export async function up(db: Kysely<unknown>): Promise<void> {
  // How many items the store holds of each load, kept with every write: a new puller's term sizes its
  // first pull of every watched load by it, and counting the items themselves reads the whole table.
  await db.schema
    .alterTable('track_loads')
    .addColumn('items', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`
    update track_loads l set items = c.items
    from (select load_by, load_id, count(*) as items from track_items group by load_by, load_id) c
    where l.load_by = c.load_by and l.load_id = c.load_id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('track_loads').dropColumn('items').execute();
}
