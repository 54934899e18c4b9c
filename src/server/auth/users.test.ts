import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedTestStore, STORE_KINDS } from '@/testing/test-store';
import type { Store } from '../store/store';
import { verifyPassword } from './passwords';
import {
  addUser,
  disableUser,
  findCredentials,
  findUser,
  listUsers,
  setPassword,
  setRole,
  UserError,
} from './users';

const PASSWORD = 'a long enough password';

/** What a call was refused with: its UserError's kind, field and message. */
async function refusal(promise: Promise<unknown>) {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UserError);
  const { kind, field, message } = error as UserError;
  return { kind, field, message };
}

describe.each(STORE_KINDS)('users on %s', (kind) => {
  let store: Store;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await openMigratedTestStore(kind));
  }, 60_000);
  afterAll(() => close?.());

  const hashOf = async (name: string) => (await findCredentials(store.db, name))?.passwordHash ?? '';
  const auditOf = (subject: string) =>
    store.db
      .selectFrom('audit_log')
      .select(['actor', 'action', 'subject', 'details'])
      .where('subject', '=', subject)
      .orderBy('id')
      .execute();

  it('adds users and lists them by name, never with their hash', async () => {
    const ana = await addUser(store.db, { name: 'ana', role: 'dispatcher', password: PASSWORD }, 'cli');
    expect(ana).toEqual({
      id: expect.any(String),
      name: 'ana',
      role: 'dispatcher',
      disabledAt: null,
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
    });
    await addUser(store.db, { name: 'Bo', role: 'broker', password: PASSWORD }, 'cli');
    const users = await listUsers(store.db);
    expect(users.map((u) => [u.name, u.role])).toEqual([
      ['ana', 'dispatcher'],
      ['Bo', 'broker'],
    ]);
    expect(JSON.stringify(users)).not.toContain('scrypt');
    expect(await verifyPassword(PASSWORD, await hashOf('ana'))).toBe(true);
    expect(await findUser(store.db, 'BO')).toMatchObject({ name: 'Bo', role: 'broker' });
    expect(await findUser(store.db, 'nobody')).toBeUndefined();
    expect(await auditOf('ana')).toEqual([
      { actor: 'cli', action: 'user.add', subject: 'ana', details: { role: 'dispatcher' } },
    ]);
  });

  it('refuses a name taken, whatever its case, and writes nothing', async () => {
    await addUser(store.db, { name: 'Élise', role: 'admin', password: PASSWORD }, 'cli');
    for (const name of ['Élise', 'élise', 'ÉLISE', 'E\u0301lise']) {
      expect(await refusal(addUser(store.db, { name, role: 'broker', password: PASSWORD }, 'cli'))).toEqual({
        kind: 'duplicate',
        field: 'name',
        message:
          name.normalize('NFC') === 'Élise'
            ? 'name: a user named "Élise" already exists'
            : 'name: a user named "Élise" already exists (names that differ only in case are one)',
      });
    }
    expect((await listUsers(store.db)).filter((u) => u.name.toLowerCase() === 'élise')).toHaveLength(1);
    expect(await auditOf('Élise')).toHaveLength(1);
    expect(await auditOf('élise')).toEqual([]);
  });

  it('refuses a bad role, name or password, naming the field', async () => {
    const add = (name: unknown, role: unknown, password: unknown = PASSWORD) =>
      refusal(addUser(store.db, { name, role, password }, 'cli'));
    expect(await add('cy', 'owner')).toEqual({
      kind: 'invalid',
      field: 'role',
      message: 'role: must be one of dispatcher, broker, admin',
    });
    expect((await add('', 'broker')).message).toBe('name: must be 1 to 64 characters (got 0)');
    expect((await add('x'.repeat(65), 'broker')).message).toBe('name: must be 1 to 64 characters (got 65)');
    for (const name of ['a\u0000b', 'a\nb', 'a\u200bb', 'a\u202eb'])
      expect((await add(name, 'broker')).message).toBe('name: must not hold control or invisible characters');
    expect((await add(' cy', 'broker')).message).toBe('name: must not start or end with a space');
    expect((await add(42, 'broker')).message).toBe('name: must be text');
    expect(await add('cy', 'broker', 'short')).toEqual({
      kind: 'invalid',
      field: 'password',
      message: 'password: must be at least 12 characters',
    });
    expect((await refusal(setRole(store.db, 'ana', 'root', 'cli'))).field).toBe('role');
    expect(await findUser(store.db, 'cy')).toBeUndefined();
    // What is allowed: 64 characters (not UTF-16 units), spaces inside, any script, SQL-looking text.
    for (const name of ['😀'.repeat(64), 'Cy Young', '山田', "x'); drop table users; --"])
      await addUser(store.db, { name, role: 'broker', password: PASSWORD }, 'cli');
    expect(await findUser(store.db, "x'); drop table users; --")).toBeDefined();
  });

  it('changes a role, recording from which; the same role again changes nothing', async () => {
    const before = await findUser(store.db, 'Bo');
    const after = await setRole(store.db, 'bo', 'admin', 'cli');
    expect(after).toMatchObject({ name: 'Bo', role: 'admin' });
    expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(before!.updatedAt.getTime());
    await setRole(store.db, 'Bo', 'admin', 'cli');
    expect((await auditOf('Bo')).slice(1)).toEqual([
      { actor: 'cli', action: 'user.role', subject: 'Bo', details: { from: 'broker', to: 'admin' } },
    ]);
  });

  it('sets a password: the old one no longer verifies, and the audit never holds either', async () => {
    await setPassword(store.db, 'Bo', 'a brand new password', 'cli');
    const stored = await hashOf('Bo');
    expect(await verifyPassword('a brand new password', stored)).toBe(true);
    expect(await verifyPassword(PASSWORD, stored)).toBe(false);
    const entries = await auditOf('Bo');
    expect(entries.at(-1)).toEqual({ actor: 'cli', action: 'user.password', subject: 'Bo', details: {} });
    expect(JSON.stringify(entries)).not.toMatch(/scrypt|brand new|long enough/);
    expect((await refusal(setPassword(store.db, 'Bo', 'short', 'cli'))).field).toBe('password');
  });

  it('disables a user and ends their sessions; disabling again changes nothing', async () => {
    const ana = await findUser(store.db, 'ana');
    await store.db
      .insertInto('sessions')
      .values({ id: 'token-hash-1', user_id: ana!.id, expires_at: new Date(Date.now() + 3_600_000) })
      .execute();
    const disabled = await disableUser(store.db, 'ANA', 'cli');
    expect(disabled.disabledAt).toBeInstanceOf(Date);
    expect(await store.db.selectFrom('sessions').selectAll().execute()).toEqual([]);
    const again = await disableUser(store.db, 'ana', 'cli');
    expect(again.disabledAt).toEqual(disabled.disabledAt);
    expect((await auditOf('ana')).map((e) => e.action)).toEqual(['user.add', 'user.disable']);
    expect((await listUsers(store.db)).find((u) => u.name === 'ana')?.disabledAt).toEqual(
      disabled.disabledAt,
    );
  });

  it('refuses to change a user that does not exist', async () => {
    for (const change of [
      () => disableUser(store.db, 'zed', 'cli'),
      () => setRole(store.db, 'zed', 'admin', 'cli'),
      () => setPassword(store.db, 'zed', PASSWORD, 'cli'),
    ]) {
      expect(await refusal(change())).toEqual({
        kind: 'not_found',
        field: 'name',
        message: 'name: no user named "zed"',
      });
    }
    expect(await auditOf('zed')).toEqual([]);
  });

  it('adds each name once when two adds race', async () => {
    const results = await Promise.allSettled(
      ['Dee', 'DEE', 'dee'].map((name) =>
        addUser(store.db, { name, role: 'broker', password: PASSWORD }, 'cli'),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected'))
      expect((r.reason as UserError).kind).toBe('duplicate');
  });
});
