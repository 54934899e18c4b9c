import { Migrator, type Kysely } from 'kysely';
import { MIGRATIONS } from './migrations';

export class MigrationError extends Error {}

/**
 * Brings the schema up to date and returns the names of the migrations it applied (none when it
 * was). Kysely's Migrator holds a PostgreSQL advisory lock meanwhile and applies each migration in
 * a transaction, so instances starting together apply each one once, and a failed one leaves no
 * half-made table.
 */
export async function migrateToLatest<DB>(db: Kysely<DB>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(MIGRATIONS) } });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results.find((r) => r.status === 'Error')?.migrationName;
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError(
      failed === undefined
        ? `migrating the store failed: ${reason}`
        : `migration ${failed} failed: ${reason}`,
      { cause: error },
    );
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
