import { sql, type Kysely } from 'kysely';

// Frozen once released, like every migration: tables by name, never through today's `Database` type.

export async function up(db: Kysely<unknown>): Promise<void> {
  // A number per change, so a page asks for the reviews changed since the last it saw (`?since=`).
  await sql`create sequence document_review_changes`.execute(db);
  await db.schema
    .alterTable('document_reviews')
    // Existing rows get a number each from the default.
    .addColumn('change', 'bigint', (c) => c.notNull().defaultTo(sql`nextval('document_review_changes')`))
    // The decision of another user this one replaced, so that user's inbox can say so.
    .addColumn('replaced_decision', 'text', (c) =>
      c.check(sql`replaced_decision in ('approved', 'rejected', 'pending')`),
    )
    .addColumn('replaced_reason', 'text')
    .addColumn('replaced_by', 'text')
    .addColumn('replaced_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('document_reviews_change').on('document_reviews').column('change').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('document_reviews_change').execute();
  await db.schema
    .alterTable('document_reviews')
    .dropColumn('change')
    .dropColumn('replaced_decision')
    .dropColumn('replaced_reason')
    .dropColumn('replaced_by')
    .dropColumn('replaced_at')
    .execute();
  await sql`drop sequence document_review_changes`.execute(db);
}
