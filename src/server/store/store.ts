import { PGlite, types } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { join } from 'node:path';
import pg from 'pg';
import type { Database } from './database';
import { lockDataDir } from './data-dir-lock';
import { pglitePool } from './pglite-pool';

/** Where the store is: a PostgreSQL server (DATABASE_URL), or PGlite in DATA_DIR. */
export interface StoreOptions {
  databaseUrl?: string;
  dataDir: string;
}

export interface Store {
  db: Kysely<Database>;
  kind: 'postgres' | 'pglite';
  /** Where it is, for the start-up line: never a password. */
  where: string;
  /** Resolves when the database answers a query. */
  ping: () => Promise<void>;
  /** Closes the connections (and PGlite, and gives back DATA_DIR's lock). */
  close: () => Promise<void>;
  /**
   * `LISTEN channel` on a connection of its own: `onNotify` gets each payload, `onLost` is called
   * once when that connection fails (listen again to go on). Resolves with the way to stop.
   */
  listen?: (
    channel: string,
    onNotify: (payload: string) => void,
    onLost: (error: unknown) => void,
  ) => Promise<() => Promise<void>>;
}

/** A database that cannot be reached or opened at start: one line naming the variable to look at. */
export class StoreUnavailableError extends Error {}

/** PostgreSQL's server, without the user's password: host, port and database. */
export function describeDatabaseUrl(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
}

const reasonOf = (error: unknown) => {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' && message !== '' ? message : String(error);
  return typeof code === 'string' && !text.includes(code) ? `${code} ${text}` : text;
};

async function openPostgres(url: string): Promise<Store> {
  const where = describeDatabaseUrl(url);
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000 });
  // An idle connection the server dropped must not end the process: the next query fails instead,
  // and whoever needs the store answers 503.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const ping = async () => void (await sql`select 1`.execute(db));
  try {
    await ping();
  } catch (error) {
    await db.destroy().catch(() => {});
    throw new StoreUnavailableError(
      `DATABASE_URL: cannot reach PostgreSQL at ${where} (${reasonOf(error).replace(/\s+/g, ' ')}). ` +
        'Check that the server runs and the URL, user and password are right, or unset DATABASE_URL for the embedded store.',
    );
  }
  const listen: Store['listen'] = async (channel, onNotify, onLost) => {
    // Not from the pool: a LISTEN lasts as long as its connection, which the pool would lend out.
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
    let lost = false;
    const lose = (error: unknown) => {
      if (lost) return;
      lost = true;
      void client.end().catch(() => {});
      onLost(error);
    };
    client.on('error', lose);
    client.on('end', () => lose(new Error('the LISTEN connection ended')));
    client.on('notification', (n) => onNotify(n.payload ?? ''));
    await client.connect();
    await client.query(`listen ${pg.escapeIdentifier(channel)}`);
    return async () => {
      lost = true;
      await client.end().catch(() => {});
    };
  };
  return { db, kind: 'postgres', where: `PostgreSQL at ${where}`, ping, close: () => db.destroy(), listen };
}

async function openPGlite(dataDir: string): Promise<Store> {
  const lock = lockDataDir(dataDir);
  let pglite: PGlite;
  try {
    // int8 as text, as node-postgres gives it: PGlite would give a number, or a bigint when large.
    pglite = await PGlite.create({ dataDir: join(dataDir, 'pglite'), parsers: { [types.INT8]: (v) => v } });
  } catch (error) {
    lock.release();
    throw new StoreUnavailableError(
      `DATA_DIR=${dataDir}: cannot open the embedded store in ${join(dataDir, 'pglite')} (${reasonOf(error)}).`,
    );
  }
  const pool = pglitePool(pglite);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  let closed: Promise<void> | undefined;
  return {
    db,
    kind: 'pglite',
    where: `the embedded store in ${dataDir}`,
    ping: async () => void (await sql`select 1`.execute(db)),
    close: () =>
      (closed ??= (async () => {
        await db.destroy();
        await pglite.close();
        lock.release();
      })()),
    // One connection in-process: it is never lost. Taken from the pool so that the LISTEN does not
    // land inside another caller's transaction.
    listen: async (channel, onNotify) => {
      const turn = await pool.connect();
      try {
        const stop = await pglite.listen(channel, onNotify);
        return async () => {
          const again = await pool.connect();
          try {
            await stop();
          } finally {
            again.release();
          }
        };
      } finally {
        turn.release();
      }
    },
  };
}

/** Opens the store: PostgreSQL when `databaseUrl` is set, else PGlite keeping its files in `dataDir`. */
export function openStore(options: StoreOptions): Promise<Store> {
  return options.databaseUrl === undefined ? openPGlite(options.dataDir) : openPostgres(options.databaseUrl);
}
