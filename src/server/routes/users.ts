import { Hono, type Context } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ROLES } from '@/contract/proxy-api';
import { type UserChanged, type UserRecord, type UsersAnswer } from '@/contract/users-api';
import type { AppEnv } from '../app-env';
import { generatePassword } from '../auth/passwords';
import {
  addUser,
  disableUser,
  enableUser,
  listUsers,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  setPassword,
  setRole,
  UserError,
  type User,
} from '../auth/users';
import { ProxyError, requireStore, storeUnavailable } from '../errors';
import type { Database } from '../store/database';
import { validate } from '../validation';

const toRecord = (u: User): UserRecord => ({
  name: u.name,
  role: u.role,
  disabledAt: u.disabledAt?.toISOString() ?? null,
  createdAt: u.createdAt.toISOString(),
});

/** A refused change as the HTTP answer: 400 naming the field, 409 a name taken, 404 no such user. */
function asProxyError(error: unknown): never {
  if (!(error instanceof UserError)) {
    return storeUnavailable('users cannot be changed now')(error);
  }
  const status = { invalid: 400, duplicate: 409, not_found: 404 } as const;
  const code = {
    invalid: 'invalid_request',
    duplicate: 'duplicate_user',
    not_found: 'user_not_found',
  } as const;
  throw new ProxyError(status[error.kind], code[error.kind], error.message, [
    { path: error.field, message: error.message.slice(error.field.length + 2) },
  ]);
}

/** The body's own bound, far past the repository's: refused in the repository's words. */
const PASSWORD_TOO_LONG = `must be at most ${PASSWORD_MAX_LENGTH} characters`;

// Shapes only: the rules of names and passwords are the repository's (users.ts), shared with the CLI.
const NewUser = z.strictObject({
  name: z.string().max(1000, `must be 1 to ${NAME_MAX_LENGTH} characters`),
  role: z.enum(ROLES),
  /** Absent: one is generated and answered once. */
  password: z.string().max(4096, PASSWORD_TOO_LONG).optional(),
});

const UserChange = z
  .strictObject({
    role: z.enum(ROLES).optional(),
    disabled: z.boolean().optional(),
    /** A new password; `true` has one generated. */
    password: z.union([z.string().max(4096, PASSWORD_TOO_LONG), z.literal(true)]).optional(),
  })
  .refine((c) => Object.keys(c).length === 1, 'give exactly one of role, disabled, password');

/**
 * `/api/users`, for admins (the app mounts it behind the role check): list, add, and change one
 * user's role, status or password. Each change is audited with the acting admin's name.
 * `onUserAdded` lets access know open demo mode is over (and log the first user in).
 */
export function userRoutes(
  db: Kysely<Database> | undefined,
  onUserAdded: (c: Context, user: User, wasOpen: boolean) => Promise<void>,
) {
  const store = () => requireStore(db);
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const users = await listUsers(store()).catch(asProxyError);
      return c.json({ users: users.map(toRecord) } satisfies UsersAnswer);
    })
    .post('/', validate('json', NewUser), async (c) => {
      const input = c.req.valid('json');
      const actor = c.get('user');
      // The first user replaces the open demo's admin: it must be able to add the others.
      if (c.get('open') && input.role !== 'admin')
        asProxyError(
          new UserError('invalid', 'role', 'the first user must be an admin, to manage the others'),
        );
      const password = input.password ?? generatePassword();
      const user = await addUser(store(), { ...input, password }, actor.name).catch(asProxyError);
      await onUserAdded(c, user, c.get('open'));
      const answer: UserChanged = { user: toRecord(user), ...(input.password ? {} : { password }) };
      return c.json(answer, 201);
    })
    .patch('/:name', validate('json', UserChange), async (c) => {
      const name = c.req.param('name');
      const change = c.req.valid('json');
      const actor = c.get('user').name;
      const db = store();
      let generated: string | undefined;
      let user: User;
      if (change.role !== undefined) user = await setRole(db, name, change.role, actor).catch(asProxyError);
      else if (change.disabled !== undefined)
        user = await (change.disabled ? disableUser : enableUser)(db, name, actor).catch(asProxyError);
      else {
        generated = change.password === true ? generatePassword() : undefined;
        user = await setPassword(db, name, generated ?? change.password, actor).catch(asProxyError);
      }
      return c.json({
        user: toRecord(user),
        ...(generated ? { password: generated } : {}),
      } satisfies UserChanged);
    });
}
