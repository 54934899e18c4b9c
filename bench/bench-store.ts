import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openAndMigrate } from '@/server/store/open-at-start';
import type { Store } from '@/server/store/store';
import { siblingDatabaseUrl } from './team-figures';

/**
 * A store as the server opens it at start, in a place of its own: a temporary DATA_DIR, or a new
 * database beside `serverUrl` (dropped with `drop`).
 */
export async function benchStore(
  kind: 'pglite' | 'postgres',
  serverUrl = process.env.DATABASE_URL,
): Promise<{ store: Store; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'haulview-bench-'));
    const { store } = await openAndMigrate({ dataDir });
    return {
      store,
      drop: async () => {
        await store.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  if (!serverUrl) throw new Error('a PostgreSQL bench store needs a server (DATABASE_URL)');
  const name = `haulview_bench_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  // siblingDatabaseUrl checks the name: an identifier cannot be a parameter.
  const url = siblingDatabaseUrl(serverUrl, name);
  await admin(`create database ${name}`);
  const { store } = await openAndMigrate({ databaseUrl: url, dataDir: '/unused' });
  return {
    store,
    drop: async () => {
      await store.close();
      await admin(`drop database if exists ${name} with (force)`);
    },
  };
}
