import * as z from 'zod/mini';
import { Role } from './proxy-api';
import './zod-locale';

/** `/api/users`: the admins' list of users, and a user added or changed. */

/** A user as an admin sees them (`/api/users`): never a password or its hash. */
export const UserRecord = z.object({
  name: z.string(),
  role: Role,
  /** When they were disabled (ISO 8601), or null while they may log in. */
  disabledAt: z.nullable(z.string()),
  createdAt: z.string(),
});
export type UserRecord = z.infer<typeof UserRecord>;

export const UsersAnswer = z.object({ users: z.array(UserRecord) });
export type UsersAnswer = z.infer<typeof UsersAnswer>;

/** A user added or changed; `password` only when Haulview generated it (shown once, never stored). */
export const UserChanged = z.object({ user: UserRecord, password: z.optional(z.string()) });
export type UserChanged = z.infer<typeof UserChanged>;
