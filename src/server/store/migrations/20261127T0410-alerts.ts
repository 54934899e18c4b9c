import { sql, type Kysely } from 'kysely';

// Frozen once released, like every migration: tables by name, never through today's `Database` type.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('alert_rules')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) =>
      c.notNull().check(sql`kind in ('dark', 'at-risk', 'late', 'detention', 'pod-overdue')`),
    )
    // How long the condition must hold before the rule fires: the N of "dark longer than N minutes".
    .addColumn('min_minutes', 'integer', (c) => c.notNull().check(sql`min_minutes between 0 and 525600`))
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('webhook_url', 'text', (c) => c.check(sql`char_length(webhook_url) <= 500`))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createTable('alerts')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('rule_id', 'integer', (c) => c.notNull().references('alert_rules.id').onDelete('cascade'))
    .addColumn('load', 'text', (c) => c.notNull())
    .addColumn('occurrence', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('since', 'timestamptz')
    .addColumn('fired_at', 'timestamptz', (c) => c.notNull())
    // Once per rule, load and occurrence: the instance whose insert lands is the one that delivers.
    .addUniqueConstraint('alerts_once', ['rule_id', 'load', 'occurrence'])
    .execute();
  await db.schema.createIndex('alerts_fired_at').on('alerts').columns(['fired_at', 'id']).execute();
  await db.schema
    .createTable('alert_deliveries')
    .addColumn('alert_id', 'bigint', (c) => c.primaryKey().references('alerts.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('pending', 'delivered', 'failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // When the next attempt is due; an instance claims an attempt by moving it forward.
    .addColumn('next_at', 'timestamptz')
    .addColumn('last_error', 'text')
    // Each attempt: `{ at, status?, error? }`.
    .addColumn('log', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
  await db.schema
    .createIndex('alert_deliveries_due')
    .on('alert_deliveries')
    .columns(['state', 'next_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('alert_deliveries').execute();
  await db.schema.dropTable('alerts').execute();
  await db.schema.dropTable('alert_rules').execute();
}
