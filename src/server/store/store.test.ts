import { Migrator, NO_MIGRATIONS, sql, type Kysely } from 'kysely';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusingUrl } from '@/testing/fake-upstream';
import { createTestDatabase, STORE_KINDS, type TestDatabase } from '@/testing/test-store';
import { listExceptionAcks } from '../exceptions/exception-acks';
import { migrateToLatest } from './migrate';
import { MIGRATIONS } from './migrations';
import { openStore, StoreUnavailableError, type Store } from './store';

const ALL = Object.keys(MIGRATIONS);
const TABLES = [
  'alert_deliveries',
  'alert_rules',
  'alerts',
  'audit_log',
  'document_reviews',
  'exception_acks',
  'puller_leases',
  'saved_boards',
  'sessions',
  'share_links',
  'track_clock',
  'track_items',
  'track_loads',
  'track_resync',
  'trip_stops',
  'users',
  'watched_loads',
  'webhooks',
];

async function tables<DB>(db: Kysely<DB>): Promise<string[]> {
  const rows = await db.introspection.getTables({ withInternalKyselyTables: false });
  return rows.map((t) => t.name).sort();
}

async function migrationRows<DB>(db: Kysely<DB>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.map((r) => r.name);
}

describe('the migrations folder', () => {
  it('holds exactly the listed migrations, named by timestamp, listed oldest first', () => {
    const files = readdirSync(new URL('./migrations', import.meta.url))
      .filter((f) => !f.endsWith('.test.ts'))
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    expect(ALL).toEqual(files);
    for (const name of ALL) expect(name).toMatch(/^\d{8}T\d{4}-[a-z0-9]+(-[a-z0-9]+)*$/);
  });
});

describe.each(STORE_KINDS)('the store on %s', (kind) => {
  let database: TestDatabase;
  let store: Store;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    store = await openStore(database.options);
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('migrates an empty database to the latest schema', async () => {
    expect(await tables(store.db)).toEqual([]);
    expect(await migrateToLatest(store.db)).toEqual(ALL);
    expect(await tables(store.db)).toEqual(TABLES);
    expect(await migrationRows(store.db)).toEqual(ALL);
  });

  it('migrating again applies nothing', async () => {
    expect(await migrateToLatest(store.db)).toEqual([]);
    expect(await migrationRows(store.db)).toEqual(ALL);
  });

  it('keeps audit entries: generated id and time, jsonb details', async () => {
    const before = Date.now();
    const inserted = await store.db
      .insertInto('audit_log')
      .values({ actor: 'ana', action: 'login', subject: null, details: JSON.stringify({ from: '10.0.0.7' }) })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(inserted).toMatchObject({
      actor: 'ana',
      action: 'login',
      subject: null,
      details: { from: '10.0.0.7' },
    });
    expect(typeof inserted.id).toBe('string');
    expect(inserted.at).toBeInstanceOf(Date);
    expect(inserted.at.getTime()).toBeGreaterThanOrEqual(before - 5000);
    // A value that looks like SQL is a parameter like any other.
    const odd = "x'); drop table audit_log; --";
    await store.db
      .insertInto('audit_log')
      .values({ actor: odd, action: 'review', subject: 'e:9001' })
      .execute();
    const rows = await store.db.selectFrom('audit_log').selectAll().where('actor', '=', odd).execute();
    expect(rows).toMatchObject([{ actor: odd, subject: 'e:9001', details: {} }]);
    const deleted = await store.db.deleteFrom('audit_log').where('actor', '=', 'nobody').executeTakeFirst();
    expect(deleted.numDeletedRows).toBe(0n);
  });

  it('rolls back a failed transaction whole', async () => {
    const count = async () =>
      Number(
        (
          await store.db
            .selectFrom('audit_log')
            .select((e) => e.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    await expect(
      store.db.transaction().execute(async (trx) => {
        await trx.insertInto('audit_log').values({ actor: 'bo', action: 'review', subject: null }).execute();
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await count()).toBe(before);
  });

  it('keeps concurrent transactions apart (PGlite has one connection: each waits its turn)', async () => {
    const failing = store.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('audit_log')
        .values({ actor: 'concurrent-a', action: 'review', subject: null })
        .execute();
      await new Promise((r) => setTimeout(r, 50));
      throw new Error('rolled back');
    });
    const committing = store.db
      .transaction()
      .execute((trx) =>
        trx
          .insertInto('audit_log')
          .values({ actor: 'concurrent-b', action: 'review', subject: null })
          .execute(),
      );
    const [a, b] = await Promise.allSettled([failing, committing]);
    expect(a.status).toBe('rejected');
    expect(b.status).toBe('fulfilled');
    const actors = await store.db
      .selectFrom('audit_log')
      .select('actor')
      .where('actor', 'like', 'concurrent-%')
      .execute();
    expect(actors).toEqual([{ actor: 'concurrent-b' }]);
  });

  it('goes back down to nothing and up again (each migration has a working down)', async () => {
    const migrator = new Migrator({ db: store.db, provider: { getMigrations: async () => MIGRATIONS } });
    const down = await migrator.migrateTo(NO_MIGRATIONS);
    expect(down.error).toBeUndefined();
    expect(await tables(store.db)).toEqual([]);
    expect(await migrateToLatest(store.db)).toEqual(ALL);
    expect(await tables(store.db)).toEqual(TABLES);
  });

  it('upgrades from the version before the item counts, keeping its rows', async () => {
    const migrator = new Migrator({ db: store.db, provider: { getMigrations: async () => MIGRATIONS } });
    const previous = ALL[ALL.indexOf('20261127T2000-item-counts') - 1] ?? NO_MIGRATIONS;
    expect((await migrator.migrateTo(previous)).error).toBeUndefined();
    // That version's tables: the audit log and reviews kept, none the latest lacks.
    const before = await tables(store.db);
    expect(before).toContain('audit_log');
    expect(before).toContain('document_reviews');
    expect(before.every((t) => TABLES.includes(t))).toBe(true);
    await store.db
      .insertInto('audit_log')
      .values({ actor: 'kept', action: 'review', subject: null })
      .execute();
    await sql`insert into document_reviews (url, load, decision, decided_by) values ('https://x.example/kept.jpg', 'e:1', 'approved', 'kept')`.execute(
      store.db,
    );
    // A track stored before: its items are counted once, as the upgrade keeps the counts from then on.
    await sql`insert into track_loads (load_by, load_id, head, changed_seq) values ('external-id', 'kept', '{}', 1), ('external-id', 'empty', '{}', 1)`.execute(
      store.db,
    );
    await sql`insert into track_items (load_by, load_id, list, key, item, seq) values ('external-id', 'kept', 'pings', 'a', '{}', 1), ('external-id', 'kept', 'events', 'b', '{}', 1)`.execute(
      store.db,
    );
    // An acknowledgement stored before still holds after the upgrade: none was seen ending.
    await sql`insert into exception_acks (load, kind, state, occurrence, acted_by) values ('e:kept', 'late', 'acknowledged', 'stop 2', 'kept')`.execute(
      store.db,
    );
    expect(await migrateToLatest(store.db)).toEqual(ALL.slice(ALL.indexOf('20261127T2000-item-counts')));
    expect(await tables(store.db)).toEqual(TABLES);
    expect((await listExceptionAcks(store.db)).map((a) => [a.load, a.by])).toEqual([['e:kept', 'kept']]);
    const counted = await store.db
      .selectFrom('track_loads')
      .select(['load_id', 'items'])
      .where('load_id', 'in', ['kept', 'empty'])
      .orderBy('load_id')
      .execute();
    expect(counted.map((r) => [r.load_id, Number(r.items)])).toEqual([
      ['empty', 0],
      ['kept', 2],
    ]);
    const kept = await store.db.selectFrom('audit_log').select('actor').where('actor', '=', 'kept').execute();
    expect(kept).toEqual([{ actor: 'kept' }]);
    // A review from before gets a change number, so a page's next `?since=` is well defined.
    const review = await store.db
      .selectFrom('document_reviews')
      .select(['decided_by', 'change', 'replaced_by'])
      .where('url', '=', 'https://x.example/kept.jpg')
      .executeTakeFirstOrThrow();
    expect(review).toMatchObject({ decided_by: 'kept', replaced_by: null });
    expect(Number(review.change)).toBeGreaterThan(0);
  });

  it('answers a ping', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
  });
});

describe('PostgreSQL', () => {
  it('two instances migrating the same empty database at once apply each migration once', async () => {
    const database = await createTestDatabase('postgres');
    const stores = await Promise.all([1, 2, 3].map(() => openStore(database.options)));
    try {
      const applied = await Promise.all(stores.map((s) => migrateToLatest(s.db)));
      expect(applied.flat().sort()).toEqual(ALL);
      expect(await migrationRows(stores[0]!.db)).toEqual(ALL);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
      await database.drop();
    }
  }, 30_000);

  it('a server that does not answer: one line naming DATABASE_URL, never the password', async () => {
    const port = new URL(await refusingUrl()).port;
    const url = `postgres://haulview:s3cret-pass@127.0.0.1:${port}/haulview`;
    const error: unknown = await openStore({ databaseUrl: url, dataDir: '/unused' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    const message = (error as Error).message;
    expect(message).toMatch(
      new RegExp(
        `^DATABASE_URL: cannot reach PostgreSQL at 127\\.0\\.0\\.1:${port}/haulview \\([^)]*ECONNREFUSED`,
      ),
    );
    expect(message).not.toContain('\n');
    expect(message).not.toContain('s3cret');
  });
});
