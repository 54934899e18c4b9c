import { sql, type Kysely } from 'kysely';

// Frozen once released, like every migration: tables by name, never through today's `Database` type.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('document_reviews')
    // One review per document address: a document belongs to one load, whoever looks at it.
    .addColumn('url', 'text', (c) => c.primaryKey())
    .addColumn('load', 'text', (c) => c.notNull())
    .addColumn('decision', 'text', (c) =>
      c.notNull().check(sql`decision in ('approved', 'rejected', 'pending')`),
    )
    .addColumn('reason', 'text', (c) =>
      c.check(
        sql`reason in ('blurry', 'cropped_or_incomplete', 'missing_pages', 'unsigned', 'wrong_load', 'damage_or_shortage', 'other')`,
      ),
    )
    .addColumn('note', 'text', (c) => c.check(sql`char_length(note) <= 500`))
    .addColumn('decided_by', 'text', (c) => c.notNull())
    .addColumn('decided_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    // A rejection says why; the other decisions carry no reason.
    .addCheckConstraint('document_reviews_reason', sql`(decision = 'rejected') = (reason is not null)`)
    .execute();
  // The load page lists one load's reviews.
  await db.schema.createIndex('document_reviews_load').on('document_reviews').column('load').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('document_reviews').execute();
}
