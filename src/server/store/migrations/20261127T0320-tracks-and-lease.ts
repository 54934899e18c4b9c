import { sql, type Kysely } from 'kysely';

// Frozen once released, like every migration: tables by name, never through today's `Database` type.

export async function up(db: Kysely<unknown>): Promise<void> {
  // One puller per partner account: whoever holds the row's unexpired lease; the epoch grows with
  // every new term, and every write of the puller checks it (src/server/puller/lease.ts).
  await db.schema
    .createTable('puller_leases')
    .addColumn('account', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('epoch', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();

  // The global change sequence of the tracks, and the last stamp committed: writers take their stamp
  // by updating the one row, so stamps are committed in order and a reader's cursor never skips one.
  await sql`create sequence track_seq as bigint`.execute(db);
  await db.schema
    .createTable('track_clock')
    .addColumn('id', 'smallint', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('seq', 'bigint', (c) => c.notNull())
    // Names this database in cursors: a cursor of another database (a restored copy) is refused.
    .addColumn('store_id', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into track_clock (id, seq, store_id) values (1, 0, md5(random()::text || clock_timestamp()::text))`.execute(
    db,
  );

  // A load's head: everything of a `Load` but its item lists, as JSON text (`json` keeps key order,
  // which the merge's comparison of two versions relies on).
  await db.schema
    .createTable('track_loads')
    .addColumn('load_by', 'text', (c) => c.notNull().check(sql`load_by in ('external-id', 'load-number')`))
    .addColumn('load_id', 'text', (c) => c.notNull())
    .addColumn('head', 'json', (c) => c.notNull())
    // Stamp of the last change to the head or to any of its items.
    .addColumn('changed_seq', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('track_loads_pk', ['load_by', 'load_id'])
    .execute();
  await db.schema
    .createTable('track_items')
    .addColumn('load_by', 'text', (c) => c.notNull())
    .addColumn('load_id', 'text', (c) => c.notNull())
    .addColumn('list', 'text', (c) =>
      c.notNull().check(sql`list in ('pings', 'events', 'comments', 'documents', 'readings')`),
    )
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('instant', 'double precision')
    .addColumn('item', 'json', (c) => c.notNull())
    // Stamp of the change that brought the kept version.
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('track_items_pk', ['load_by', 'load_id', 'list', 'key'])
    .addForeignKeyConstraint(
      'track_items_load',
      ['load_by', 'load_id'],
      'track_loads',
      ['load_by', 'load_id'],
      (f) => f.onDelete('cascade'),
    )
    .execute();
  // "What changed after S" for a load reads its items by stamp.
  await db.schema
    .createIndex('track_items_by_seq')
    .on('track_items')
    .columns(['load_by', 'load_id', 'seq'])
    .execute();

  // Loads something watches, each for a reason, until it expires: what the puller keeps pulling.
  await db.schema
    .createTable('watched_loads')
    .addColumn('load_by', 'text', (c) => c.notNull().check(sql`load_by in ('external-id', 'load-number')`))
    .addColumn('load_id', 'text', (c) => c.notNull())
    .addColumn('why', 'text', (c) => c.notNull().check(sql`why in ('session', 'board', 'share', 'alert')`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('watched_loads_pk', ['load_by', 'load_id', 'why'])
    .execute();
  await db.schema.createIndex('watched_loads_expiry').on('watched_loads').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('watched_loads').execute();
  await db.schema.dropTable('track_items').execute();
  await db.schema.dropTable('track_loads').execute();
  await db.schema.dropTable('track_clock').execute();
  await sql`drop sequence track_seq`.execute(db);
  await db.schema.dropTable('puller_leases').execute();
}
