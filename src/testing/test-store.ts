import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { migrateToLatest } from '@/server/store/migrate';
import { openStore, type Store, type StoreOptions } from '@/server/store/store';

/** The two stores every store test runs on: a real server (DATABASE_URL), and the embedded default. */
export const STORE_KINDS = ['postgres', 'pglite'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

export interface TestDatabase {
  options: StoreOptions;
  /** Drops the database (or removes PGlite's folder). */
  drop: () => Promise<void>;
}

/** Runs SQL on the test cluster as its superuser, not through a store's own pool (an outage's). */
export async function asClusterAdmin(text: string): Promise<void> {
  await asAdmin((client) => client.query(text));
}

async function asAdmin<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('postgresUrl') });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/**
 * An empty database of that kind: a new database with a random name on the run's PostgreSQL
 * cluster (src/testing/postgres-global-setup.ts), or a fresh DATA_DIR for PGlite. Only for test
 * files of the `store` project, which starts the cluster.
 */
export async function createTestDatabase(kind: StoreKind): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'haulview-store-'));
    return { options: { dataDir }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  // A name made here from hex digits: an identifier cannot be a parameter.
  const name = `haulview_test_${randomBytes(6).toString('hex')}`;
  await asAdmin((c) => c.query(`create database ${name}`));
  const url = new URL(inject('postgresUrl'));
  url.pathname = `/${name}`;
  return {
    options: { databaseUrl: url.href, dataDir: '/nonexistent-unused' },
    drop: () => asAdmin(async (c) => void (await c.query(`drop database if exists ${name} with (force)`))),
  };
}

/**
 * A store on an empty database of that kind, migrated to the latest schema, for a test file's
 * tests: open it in beforeAll and `close` it in afterAll (that closes the store and drops the database).
 */
export async function openMigratedTestStore(
  kind: StoreKind,
): Promise<{ store: Store; close: () => Promise<void> }> {
  const database = await createTestDatabase(kind);
  const store = await openStore(database.options);
  await migrateToLatest(store.db);
  return {
    store,
    close: async () => {
      await store.close();
      await database.drop();
    },
  };
}
