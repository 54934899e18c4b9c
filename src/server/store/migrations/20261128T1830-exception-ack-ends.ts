import type { Kysely } from 'kysely';

// Frozen once released, like every migration: tables by name, never through today's `Database` type.

export async function up(db: Kysely<unknown>): Promise<void> {
  // When the server saw an acknowledged exception end (the load's exception became another): the
  // acknowledgement no longer holds, even when the same kind and stop come back later.
  await db.schema.alterTable('exception_acks').addColumn('ended_at', 'timestamptz').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('exception_acks').dropColumn('ended_at').execute();
}
