import type { PGlite } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/**
 * PGlite as the pool Kysely's own PostgresDialect expects: one connection, lent to one user at a
 * time, so a transaction never sees another caller's statements interleaved. PostgreSQL's driver,
 * compiler and transaction handling are then the same code on both stores. Chosen over
 * `kysely-pglite-dialect`, whose 1.3 accepts PGlite up to 0.4 only and reports 0 affected rows as
 * unknown. `end()` leaves PGlite open: the store closes it, then gives back its folder's lock.
 */
export function pglitePool(pglite: PGlite): PostgresPool {
  let busy = false;
  const waiting: (() => void)[] = [];
  const client: PostgresPoolClient = {
    query: (async (sql: string, parameters: readonly unknown[]) => {
      const result = await pglite.query(sql, [...parameters]);
      // The command tag, as pg gives it: Kysely counts affected rows and spots an aborted COMMIT by it.
      const command = (result.command ?? '') as PostgresQueryResult<unknown>['command'];
      return { command, rowCount: result.rowCount ?? 0, rows: result.rows };
    }) as PostgresPoolClient['query'],
    release: () => {
      const next = waiting.shift();
      if (next) next();
      else busy = false;
    },
  };
  return {
    connect: async () => {
      if (busy) await new Promise<void>((turn) => waiting.push(turn));
      busy = true;
      return client;
    },
    end: async () => {},
  };
}
