import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { ROLES, type Role } from '@/contract/proxy-api';
import type { Database, UsersTable } from '../store/database';
import { recordAudit } from '../store/audit';
import { hashPassword } from './passwords';

export { ROLES, type Role };

export const NAME_MAX_LENGTH = 64;
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 1024;

/** A user as shown: never the password's hash. */
export interface User {
  id: string;
  name: string;
  role: Role;
  disabledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Why a change to the users was refused, in one line that starts with the field it is about:
 * `invalid` input (a 400, exit code 2), a `duplicate` name (409), no such user (`not_found`, 404).
 */
export class UserError extends Error {
  constructor(
    readonly kind: 'invalid' | 'duplicate' | 'not_found',
    readonly field: 'name' | 'role' | 'password' | 'disabled',
    problem: string,
  ) {
    super(`${field}: ${problem}`);
  }
}

/** Who changed the users, in the audit log: a user's name, or `cli` for `npm run users`. */
export type Actor = string;

const COLUMNS = ['id', 'name', 'role', 'disabled_at', 'created_at', 'updated_at'] as const;
type UserRow = Pick<Selectable<UsersTable>, (typeof COLUMNS)[number]>;

const toUser = (row: UserRow): User => ({
  id: row.id,
  name: row.name,
  role: row.role,
  disabledAt: row.disabled_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const quoted = (name: string) => JSON.stringify(name);

/**
 * The name as compared: names that differ only in case (or in how an accent is encoded) are one
 * name. Computed here rather than by the database's lower(), which depends on its locale.
 */
export function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** Control, format (zero-width, direction) and line-separator characters: invisible or misleading. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;

/** The name to store (NFC), or a UserError naming what is wrong with it. */
export function validName(name: unknown): string {
  if (typeof name !== 'string') throw new UserError('invalid', 'name', 'must be text');
  const normalized = name.normalize('NFC');
  const length = [...normalized].length;
  if (length < 1 || length > NAME_MAX_LENGTH)
    throw new UserError('invalid', 'name', `must be 1 to ${NAME_MAX_LENGTH} characters (got ${length})`);
  if (INVISIBLE.test(normalized))
    throw new UserError('invalid', 'name', 'must not hold control or invisible characters');
  if (/^\s|\s$/u.test(normalized))
    throw new UserError('invalid', 'name', 'must not start or end with a space');
  return normalized;
}

export function validRole(role: unknown): Role {
  if (!ROLES.includes(role as Role))
    throw new UserError('invalid', 'role', `must be one of ${ROLES.join(', ')}`);
  return role as Role;
}

export function validPassword(password: unknown): string {
  if (typeof password !== 'string') throw new UserError('invalid', 'password', 'must be text');
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH)
    throw new UserError('invalid', 'password', `must be at least ${PASSWORD_MIN_LENGTH} characters`);
  if (length > PASSWORD_MAX_LENGTH)
    throw new UserError('invalid', 'password', `must be at most ${PASSWORD_MAX_LENGTH} characters`);
  // No login form lets anyone type them: a line break is a paste of two lines, not a password.
  if (/\p{Cc}/u.test(password))
    throw new UserError('invalid', 'password', 'must not hold control characters (line breaks, tabs)');
  return password;
}

async function audit(
  trx: Transaction<Database>,
  actor: Actor,
  action: string,
  subject: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  await recordAudit(trx, { actor, action, subject, details });
}

/** The user's row, locked until the transaction ends, or a UserError when there is none. */
async function lockUser(trx: Transaction<Database>, name: string): Promise<UserRow> {
  const row = await trx
    .selectFrom('users')
    .select(COLUMNS)
    .where('name_key', '=', nameKey(name))
    .forUpdate()
    .executeTakeFirst();
  if (row === undefined) throw new UserError('not_found', 'name', `no user named ${quoted(name)}`);
  return row;
}

/**
 * Changes one user in a transaction with its audit entry: `change` returns the new values and the
 * entry's details, or undefined when there is nothing to change (then nothing is written).
 */
async function changeUser(
  db: Kysely<Database>,
  name: string,
  actor: Actor,
  action: string,
  change: (
    row: UserRow,
  ) => { set: { role?: Role; password_hash?: string; disabled?: boolean }; details?: object } | undefined,
): Promise<User> {
  return db.transaction().execute(async (trx) => {
    const before = await lockUser(trx, name);
    const wanted = change(before);
    if (wanted === undefined) return toUser(before);
    const { disabled, ...set } = wanted.set;
    const disabledAt = disabled === undefined ? {} : { disabled_at: disabled ? sql<Date>`now()` : null };
    const after = await trx
      .updateTable('users')
      .set({ ...set, ...disabledAt, updated_at: sql<Date>`now()` })
      .where('id', '=', before.id)
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    // Nobody could manage the users any more: the change is undone.
    if (before.role === 'admin' && before.disabled_at === null && !(await anyActiveAdmin(trx)))
      // Said of the field the change was about: a form writes "Role stays: …" beside the role.
      throw disabled === undefined
        ? new UserError(
            'invalid',
            'role',
            `stays: ${quoted(before.name)} is the last active admin; add another first`,
          )
        : new UserError(
            'invalid',
            'disabled',
            `${quoted(before.name)} is the last active admin: add another first`,
          );
    // A disabled user, or one whose password changed, is logged out everywhere.
    if (disabled || set.password_hash !== undefined)
      await trx.deleteFrom('sessions').where('user_id', '=', before.id).execute();
    await audit(trx, actor, action, after.name, { ...wanted.details });
    return toUser(after);
  });
}

/** Adds a user; a name already taken (whatever its case) is a `duplicate` UserError. */
export async function addUser(
  db: Kysely<Database>,
  input: { name: unknown; role: unknown; password: unknown },
  actor: Actor,
): Promise<User> {
  const name = validName(input.name);
  const role = validRole(input.role);
  const passwordHash = await hashPassword(validPassword(input.password));
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('users')
      .values({ name, name_key: nameKey(name), role, password_hash: passwordHash })
      .onConflict((c) => c.column('name_key').doNothing())
      .returning(COLUMNS)
      .executeTakeFirst();
    if (row === undefined) {
      const taken = await trx
        .selectFrom('users')
        .select('name')
        .where('name_key', '=', nameKey(name))
        .executeTakeFirst();
      const same =
        taken === undefined || taken.name === name ? '' : ' (names that differ only in case are one)';
      throw new UserError(
        'duplicate',
        'name',
        `a user named ${quoted(taken?.name ?? name)} already exists${same}`,
      );
    }
    await audit(trx, actor, 'user.add', name, { role });
    return toUser(row);
  });
}

/** Every user, by name, disabled ones too. */
export async function listUsers(db: Kysely<Database>): Promise<User[]> {
  const rows = await db.selectFrom('users').select(COLUMNS).orderBy('name_key').execute();
  return rows.map(toUser);
}

/** The user of that name, whatever its case, and their password's hash (for a login to check). */
export async function findCredentials(
  db: Kysely<Database>,
  name: string,
): Promise<{ user: User; passwordHash: string } | undefined> {
  const row = await db
    .selectFrom('users')
    .select([...COLUMNS, 'password_hash'])
    .where('name_key', '=', nameKey(name))
    .executeTakeFirst();
  return row && { user: toUser(row), passwordHash: row.password_hash };
}

/** The user of that name, whatever its case, or undefined. */
export async function findUser(db: Kysely<Database>, name: string): Promise<User | undefined> {
  return (await findCredentials(db, name))?.user;
}

/** Disables a user (they can no longer log in; their sessions end). Disabling again changes nothing. */
export function disableUser(db: Kysely<Database>, name: string, actor: Actor): Promise<User> {
  return changeUser(db, name, actor, 'user.disable', (row) =>
    row.disabled_at === null ? { set: { disabled: true } } : undefined,
  );
}

/** Lets a disabled user log in again. Enabling an active user changes nothing. */
export function enableUser(db: Kysely<Database>, name: string, actor: Actor): Promise<User> {
  return changeUser(db, name, actor, 'user.enable', (row) =>
    row.disabled_at === null ? undefined : { set: { disabled: false } },
  );
}

/** Gives a user another role; the audit entry says from which. The same role changes nothing. */
export async function setRole(
  db: Kysely<Database>,
  name: string,
  role: unknown,
  actor: Actor,
): Promise<User> {
  const to = validRole(role);
  return changeUser(db, name, actor, 'user.role', (row) =>
    row.role === to ? undefined : { set: { role: to }, details: { from: row.role, to } },
  );
}

/** Sets a user's password (their sessions end). The audit entry says it changed, never what to. */
export async function setPassword(
  db: Kysely<Database>,
  name: string,
  password: unknown,
  actor: Actor,
): Promise<User> {
  const passwordHash = await hashPassword(validPassword(password));
  return changeUser(db, name, actor, 'user.password', () => ({ set: { password_hash: passwordHash } }));
}

async function anyActiveAdmin(db: Kysely<Database>): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'admin')
    .where('disabled_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether any user exists (disabled ones too): the first one ends open demo mode. */
export async function anyUser(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}
