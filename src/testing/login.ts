import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Role } from '@/contract/proxy-api';
import { addUser } from '@/server/auth/users';
import type { Database } from '@/server/store/database';
import type { Stack } from './stack';

/** A password long enough for the rules, the same for every test user. */
export const TEST_PASSWORD = 'correct horse battery staple';

/** The `name=value` part of the session's Set-Cookie header (what a browser sends back), else the first. */
export function cookieOf(response: Response): string {
  const cookies = response.headers.getSetCookie().map((c) => c.split(';')[0] ?? '');
  return cookies.find((c) => /^(__Host-)?haulview_session=/.test(c)) ?? cookies[0] ?? '';
}

/**
 * Adds a user of that role to the stack's store and logs in as them over HTTP, as the SPA does;
 * answers the Cookie header to send with their requests.
 */
export async function loginAs(
  stack: Stack,
  db: Kysely<Database>,
  role: Role,
  name = `${role}-${randomBytes(3).toString('hex')}`,
): Promise<{ name: string; cookie: string }> {
  await addUser(db, { name, role, password: TEST_PASSWORD }, 'test');
  const login = await stack.post('/api/session', { username: name, password: TEST_PASSWORD });
  if (login.status !== 204)
    throw new Error(`login as ${name} answered ${login.status}: ${await login.text()}`);
  return { name, cookie: cookieOf(login) };
}
