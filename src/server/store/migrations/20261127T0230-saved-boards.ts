import { sql, type Kysely } from 'kysely';

// Frozen once released, like every migration: tables by name, never through today's `Database` type.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('saved_boards')
    .addColumn('id', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().check(sql`char_length(name) between 1 and 80`))
    // The user's name: a board is theirs to change; shared ones the team may open.
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('shared', 'boolean', (c) => c.notNull().defaultTo(false))
    // The board's address query (watch list, filter, sort), as the page writes it.
    .addColumn('search', 'text', (c) => c.notNull().check(sql`char_length(search) <= 16000`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // Saving under a name already used replaces that board.
    .addUniqueConstraint('saved_boards_owner_name', ['owner', 'name'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('saved_boards').execute();
}
