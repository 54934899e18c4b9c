import { sql, type Kysely } from 'kysely';

// Frozen once released, like every migration: tables by name, never through today's `Database` type.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('exception_acks')
    // `e:9001` or `n:ABC`, and the exception's kind: one row per load and kind, the latest action.
    .addColumn('load', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) =>
      c.notNull().check(sql`kind in ('late', 'dark-moving', 'detention', 'at-risk', 'stale')`),
    )
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('acknowledged', 'snoozed', 'cleared')`),
    )
    .addColumn('until', 'timestamptz')
    .addColumn('occurrence', 'text', (c) => c.check(sql`char_length(occurrence) <= 120`))
    .addColumn('note', 'text', (c) => c.check(sql`char_length(note) <= 500`))
    .addColumn('acted_by', 'text', (c) => c.notNull())
    .addColumn('acted_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addPrimaryKeyConstraint('exception_acks_pkey', ['load', 'kind'])
    // A snooze ends at a time; the other states have none.
    .addCheckConstraint('exception_acks_until', sql`(state = 'snoozed') = (until is not null)`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('exception_acks').execute();
}
