import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../store/database';
import type { Role } from './users';

/** How long a session lasts: without a request (`idleMs`), and at most since its login (`absoluteMs`). */
export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

/** Who a session belongs to. */
export interface SessionUser {
  name: string;
  role: Role;
}

/** `last_seen_at` is written at most this often: not once per pull. */
const TOUCH_EVERY_MS = 60_000;

/** The id stored for a token: its SHA-256, so a copy of the table logs nobody in. */
function sessionId(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** A new session for a user; answers the token for the cookie (only its hash is stored). */
export async function createSession(
  db: Kysely<Database>,
  userId: string,
  policy: SessionPolicy,
  now: number,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('sessions')
    .values({
      id: sessionId(token),
      user_id: userId,
      created_at: new Date(now),
      last_seen_at: new Date(now),
      expires_at: new Date(now + policy.absoluteMs),
    })
    .execute();
  return token;
}

/**
 * The user of a live session: not expired, not idle too long, its user not disabled. A session past
 * either limit is deleted as it is found; a live one has its last use recorded.
 */
export async function findSession(
  db: Kysely<Database>,
  token: string,
  policy: SessionPolicy,
  now: number,
): Promise<SessionUser | undefined> {
  const id = sessionId(token);
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['users.name', 'users.role', 'users.disabled_at', 'sessions.last_seen_at', 'sessions.expires_at'])
    .where('sessions.id', '=', id)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const lastSeen = row.last_seen_at.getTime();
  if (row.expires_at.getTime() <= now || lastSeen + policy.idleMs <= now || row.disabled_at !== null) {
    await db.deleteFrom('sessions').where('id', '=', id).execute();
    return undefined;
  }
  if (now - lastSeen >= TOUCH_EVERY_MS)
    await db
      .updateTable('sessions')
      .set({ last_seen_at: new Date(now) })
      .where('id', '=', id)
      .execute();
  return { name: row.name, role: row.role };
}

/** Ends a session (logout); an unknown token changes nothing. */
export async function endSession(db: Kysely<Database>, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId(token)).execute();
}

/** Deletes the sessions past either limit (they would be refused anyway); answers how many. */
export async function deleteExpiredSessions(
  db: Kysely<Database>,
  policy: SessionPolicy,
  now: number,
): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([eb('expires_at', '<=', new Date(now)), eb('last_seen_at', '<=', new Date(now - policy.idleMs))]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
