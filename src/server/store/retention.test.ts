import { Kysely, PostgresDialect } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSession, findSession } from '../auth/sessions';
import { parseEnv } from '../config';
import { recordAudit } from './audit';
import type { Database } from './database';
import { migrateToLatest } from './migrate';
import { applyRetention, RETENTION_EVERY_MS, retentionPolicyOf, startRetention } from './retention';
import { openStore, type Store } from './store';
import { manualClock } from '@/testing/stack';
import type { Load } from '@/domain/model';
import { createLease } from '../puller/lease';
import { storeDeltas, watchLoads } from '../tracks/track-store';
import { keepTripStops } from '../tracks/trip-stops';
import { createTestDatabase, openMigratedTestStore, STORE_KINDS } from '@/testing/test-store';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const policy = retentionPolicyOf(
  parseEnv({ RETENTION_DAYS: '30', SESSION_IDLE_MINUTES: '60', SESSION_MAX_HOURS: '24' }),
);

describe('retentionPolicyOf', () => {
  it('reads RETENTION_DAYS and the session limits', () => {
    expect(policy).toEqual({ auditDays: 30, sessions: { idleMs: HOUR, absoluteMs: 24 * HOUR } });
    expect(retentionPolicyOf(parseEnv({})).auditDays).toBe(365);
  });
});

describe.each(STORE_KINDS)('retention on %s', (kind) => {
  let store: Store;
  let close: () => Promise<void>;
  let userId: string;
  const clock = manualClock();
  beforeAll(async () => {
    ({ store, close } = await openMigratedTestStore(kind));
    const user = await store.db
      .insertInto('users')
      .values({ name: 'Ana', name_key: 'ana', role: 'broker', password_hash: 'not used here' })
      .returning('id')
      .executeTakeFirstOrThrow();
    userId = user.id;
  }, 60_000);
  afterAll(async () => {
    await close?.();
  });
  beforeEach(async () => {
    clock.set(Date.parse('2026-11-27T12:00:00Z'));
    await store.db.deleteFrom('audit_log').execute();
    await store.db.deleteFrom('sessions').execute();
    await store.db.deleteFrom('document_reviews').execute();
    await store.db.deleteFrom('exception_acks').execute();
    await store.db.deleteFrom('alert_rules').execute();
  });

  it('removes tracks no one watches that have not changed for the retention, and ended watches', async () => {
    const lease = createLease(store.db, { account: `retention-${kind}`, seconds: 600 });
    const state = await lease.acquire();
    if (!state.held) throw new Error('the lease should be free');
    const load = (id: string): Load =>
      ({
        by: 'external-id',
        id,
        externalId: id,
        extras: {},
        pings: [],
        events: [],
        comments: [],
        documents: [],
        readings: [],
      }) as unknown as Load;
    await storeDeltas(store.db, state.fence, [load('r-old'), load('r-watched')]);
    const watched = { by: 'external-id' as const, id: 'r-watched' };
    // Watched for a year from the database's clock; another watch ended two days ago.
    await watchLoads(store.db, [watched], 'board', { minutes: 365 * 24 * 60 });
    await watchLoads(
      store.db,
      [{ by: 'external-id', id: 'r-ended' }],
      'session',
      new Date(Date.now() - 2 * DAY),
    );
    // Trips' stops of both tracks, and of a load whose track the store never held (TRACKS=memory).
    const trip = {
      from: 1_000,
      stops: [{ order: 1, progress: 'departed' as const, status: 'on-time' as const }],
    };
    for (const id of ['r-old', 'r-watched', 'r-memory'])
      await keepTripStops(store.db, 'external-id', id, trip, Date.now());
    // Within the retention: kept.
    expect(await applyRetention(store.db, policy, Date.now() + 29 * DAY)).toMatchObject({
      tracks: 0,
      tripStops: 0,
    });
    // Past it: the unwatched track goes with its items and its trips' stops; the watched one stays.
    expect(await applyRetention(store.db, policy, Date.now() + 31 * DAY)).toMatchObject({
      tracks: 1,
      tripStops: 2,
    });
    const stopsLeft = await store.db
      .selectFrom('trip_stops')
      .select('load_id')
      .where('load_id', 'like', 'r-%')
      .execute();
    expect(stopsLeft.map((r) => r.load_id)).toEqual(['r-watched']);
    const left = await store.db
      .selectFrom('track_loads')
      .select('load_id')
      .where('load_id', 'like', 'r-%')
      .execute();
    expect(left.map((r) => r.load_id)).toEqual(['r-watched']);
    const watches = await store.db
      .selectFrom('watched_loads')
      .select('load_id')
      .where('load_id', 'like', 'r-%')
      .execute();
    expect(watches.map((r) => r.load_id)).toEqual(['r-watched']);
  });

  const auditActors = async () =>
    (await store.db.selectFrom('audit_log').select('actor').orderBy('actor').execute()).map((r) => r.actor);
  const audit = (actor: string, ageMs: number) =>
    recordAudit(store.db, {
      actor,
      action: 'login',
      details: { address: '10.0.0.7' },
      at: new Date(clock.now() - ageMs),
    });

  it('deletes audit entries older than RETENTION_DAYS and keeps the rest, the boundary included', async () => {
    await audit('a-year-old', 365 * DAY);
    await audit('31-days-old', 31 * DAY);
    await audit('just-past', 30 * DAY + 1);
    await audit('exactly-30-days', 30 * DAY);
    await audit('yesterday', DAY);
    await audit('now', 0);
    expect(await applyRetention(store.db, policy, clock.now())).toEqual({
      auditEntries: 3,
      exceptionAcks: 0,
      alerts: 0,
      sessions: 0,
      tracks: 0,
      tripStops: 0,
    });
    expect(await auditActors()).toEqual(['exactly-30-days', 'now', 'yesterday']);
    // A day later, the next pass takes the ones that aged past the limit meanwhile.
    clock.advance(DAY);
    expect(await applyRetention(store.db, policy, clock.now())).toEqual({
      auditEntries: 1,
      exceptionAcks: 0,
      alerts: 0,
      sessions: 0,
      tracks: 0,
      tripStops: 0,
    });
    expect(await auditActors()).toEqual(['now', 'yesterday']);
  });

  it('deletes sessions past their idle or absolute limit; a live one still logs in', async () => {
    const start = clock.now();
    const idle = await createSession(store.db, userId, policy.sessions, start);
    const active = await createSession(store.db, userId, policy.sessions, start);
    const fresh = await createSession(store.db, userId, policy.sessions, start + 23.5 * HOUR);
    // `active` is used every 50 minutes: never idle, but past its 24 hours in the end.
    for (let t = 50; t < 24 * 60; t += 50) {
      clock.set(start + t * 60_000);
      expect(await findSession(store.db, active, policy.sessions, clock.now())).toBeDefined();
    }
    clock.set(start + 2 * HOUR);
    expect(await applyRetention(store.db, policy, clock.now())).toEqual({
      auditEntries: 0,
      exceptionAcks: 0,
      alerts: 0,
      sessions: 1,
      tracks: 0,
      tripStops: 0,
    });
    expect(await store.db.selectFrom('sessions').select('id').execute()).toHaveLength(2);
    clock.set(start + 24 * HOUR);
    expect(await applyRetention(store.db, policy, clock.now())).toEqual({
      auditEntries: 0,
      exceptionAcks: 0,
      alerts: 0,
      sessions: 1,
      tracks: 0,
      tripStops: 0,
    });
    expect(await findSession(store.db, fresh, policy.sessions, clock.now())).toEqual({
      name: 'Ana',
      role: 'broker',
    });
    expect(await findSession(store.db, idle, policy.sessions, clock.now())).toBeUndefined();
  });

  it('leaves document reviews alone, however old: they are the record of each document', async () => {
    await store.db
      .insertInto('document_reviews')
      .values({
        url: 'https://files.example.com/pod/1.jpg',
        load: 'e:9001',
        decision: 'approved',
        decided_by: 'Ana',
        decided_at: new Date(clock.now() - 3 * 365 * DAY),
      })
      .execute();
    await applyRetention(store.db, policy, clock.now());
    expect(await store.db.selectFrom('document_reviews').select('decided_by').execute()).toEqual([
      { decided_by: 'Ana' },
    ]);
  });

  it('deletes acknowledgements and snoozes decided before RETENTION_DAYS; a running snooze stays', async () => {
    const ack = (load: string, ageMs: number, until?: number) =>
      store.db
        .insertInto('exception_acks')
        .values({
          load,
          kind: 'late',
          state: until === undefined ? 'acknowledged' : 'snoozed',
          until: until === undefined ? null : new Date(until),
          occurrence: 'stop 2',
          note: 'called the driver',
          acted_by: 'Ana',
          acted_at: new Date(clock.now() - ageMs),
        })
        .execute();
    const loads = async () =>
      (await store.db.selectFrom('exception_acks').select('load').orderBy('load').execute()).map(
        (r) => r.load,
      );
    await ack('e:1-a-year-old', 365 * DAY);
    await ack('e:2-just-past', 30 * DAY + 1);
    await ack('e:3-exactly-30-days', 30 * DAY);
    await ack('e:4-yesterday', DAY);
    await ack('e:5-snooze-ended', 31 * DAY, clock.now() - 23 * DAY);
    // Decided before the limit (retention may be shorter than a snooze), still running: kept.
    await ack('e:6-snooze-running', 31 * DAY, clock.now() + HOUR);
    expect(await applyRetention(store.db, policy, clock.now())).toEqual({
      auditEntries: 0,
      exceptionAcks: 3,
      alerts: 0,
      sessions: 0,
      tracks: 0,
      tripStops: 0,
    });
    expect(await loads()).toEqual(['e:3-exactly-30-days', 'e:4-yesterday', 'e:6-snooze-running']);
    clock.advance(HOUR);
    expect((await applyRetention(store.db, policy, clock.now())).exceptionAcks).toBe(2);
    expect(await loads()).toEqual(['e:4-yesterday']);
  });

  it('deletes alerts fired before RETENTION_DAYS, with their deliveries; keeps the rules', async () => {
    const rule = await store.db
      .insertInto('alert_rules')
      .values({ kind: 'late', min_minutes: 0, enabled: true, created_by: 'Ana', updated_by: 'Ana' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const fire = async (load: string, ageMs: number) => {
      const alert = await store.db
        .insertInto('alerts')
        .values({
          rule_id: rule.id,
          load,
          occurrence: 'stop 2',
          kind: 'late',
          text: `${load} is late`,
          fired_at: new Date(clock.now() - ageMs),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await store.db
        .insertInto('alert_deliveries')
        .values({
          alert_id: alert.id,
          url: 'https://hooks.example.com/x',
          state: 'delivered',
          next_at: null,
          last_error: null,
        })
        .execute();
    };
    await fire('e:1-a-year-old', 365 * DAY);
    await fire('e:2-just-past', 30 * DAY + 1);
    await fire('e:3-exactly-30-days', 30 * DAY);
    await fire('e:4-yesterday', DAY);
    expect(await applyRetention(store.db, policy, clock.now())).toMatchObject({ alerts: 2 });
    expect(
      (await store.db.selectFrom('alerts').select('load').orderBy('load').execute()).map((r) => r.load),
    ).toEqual(['e:3-exactly-30-days', 'e:4-yesterday']);
    expect(await store.db.selectFrom('alert_deliveries').select('alert_id').execute()).toHaveLength(2);
    expect(await store.db.selectFrom('alert_rules').select('id').execute()).toHaveLength(1);
  });

  it('several passes at once share the work: each old row deleted once, the rest kept', async () => {
    for (let i = 0; i < 40; i++) await audit(`old-${String(i).padStart(2, '0')}`, 40 * DAY + i);
    await audit('kept', DAY);
    for (let i = 0; i < 10; i++)
      await createSession(store.db, userId, policy.sessions, clock.now() - 2 * HOUR);
    const results = await Promise.all([1, 2, 3].map(() => applyRetention(store.db, policy, clock.now())));
    expect(results.reduce((n, r) => n + r.auditEntries, 0)).toBe(40);
    expect(results.reduce((n, r) => n + r.sessions, 0)).toBe(10);
    expect(await auditActors()).toEqual(['kept']);
  });

  describe('the hourly job', () => {
    beforeEach(() => {
      // Only the interval is faked: the database's own I/O keeps its real timers.
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('runs at start and then every hour, saying what it deleted in one line', async () => {
      const lines: string[] = [];
      await audit('old', 31 * DAY);
      const job = startRetention({ db: store.db, policy, now: clock.now, log: (l) => lines.push(l) });
      try {
        await job.running();
        expect(await auditActors()).toEqual([]);
        expect(lines).toEqual([
          'Retention: deleted 1 audit entries, 0 exception acknowledgements and 0 alerts older than 30 days, and 0 expired sessions',
        ]);
        // Nothing to delete: nothing said.
        vi.advanceTimersByTime(RETENTION_EVERY_MS);
        await job.running();
        expect(lines).toHaveLength(1);
        await audit('aging', 29 * DAY);
        clock.advance(2 * DAY);
        vi.advanceTimersByTime(RETENTION_EVERY_MS - 1);
        await job.running();
        expect(await auditActors()).toEqual(['aging']);
        vi.advanceTimersByTime(1);
        await job.running();
        expect(await auditActors()).toEqual([]);
        expect(lines).toHaveLength(2);
        job.stop();
        await audit('after-stop', 31 * DAY);
        vi.advanceTimersByTime(10 * RETENTION_EVERY_MS);
        await job.running();
        expect(await auditActors()).toEqual(['after-stop']);
      } finally {
        job.stop();
      }
    });
  });
});

describe('the hourly job, on a store that stops answering', () => {
  it('says so in one line and does not end the process', async () => {
    // A pool whose server is gone: every connection refused, as pg says it.
    const gone = new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: {
          connect: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432\n')),
          end: () => Promise.resolve(),
        },
      }),
    });
    const lines: string[] = [];
    const job = startRetention({ db: gone, policy, log: (l) => lines.push(l) });
    job.stop();
    await job.running();
    expect(lines).toEqual([
      'Retention: the store did not answer (connect ECONNREFUSED 127.0.0.1:5432); trying again later',
    ]);
  });
});

describe('PostgreSQL', () => {
  it('instances running the job at once delete each old row once', async () => {
    const database = await createTestDatabase('postgres');
    const stores = await Promise.all([1, 2, 3].map(() => openStore(database.options)));
    try {
      const [first] = stores;
      await migrateToLatest(first!.db);
      const now = Date.parse('2026-11-27T12:00:00Z');
      await first!.db
        .insertInto('audit_log')
        .values(
          Array.from({ length: 500 }, (_, i) => ({
            actor: `old-${i}`,
            action: 'login',
            subject: null,
            at: new Date(now - 31 * DAY - i * 1000),
          })),
        )
        .execute();
      await recordAudit(first!.db, { actor: 'kept', action: 'login', at: new Date(now - DAY) });
      const results = await Promise.all(stores.map((s) => applyRetention(s.db, policy, now)));
      expect(results.reduce((n, r) => n + r.auditEntries, 0)).toBe(500);
      const left = await first!.db.selectFrom('audit_log').select('actor').execute();
      expect(left).toEqual([{ actor: 'kept' }]);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
      await database.drop();
    }
  }, 30_000);
});
