import type { Kysely } from 'kysely';
import { deleteExpiredSessions, type SessionPolicy } from '../auth/sessions';
import type { Env } from '../config';
import type { Database } from './database';

const DAY_MS = 86_400_000;

/** How often the job runs after its first run at start. */
export const RETENTION_EVERY_MS = 3_600_000;

/**
 * What is deleted and when: audit entries, the team's acknowledgements and snoozes of exceptions (a
 * snooze still running is kept until it ends) and fired alerts with their deliveries, older than
 * `auditDays`; and sessions past their limits.
 * Document reviews are not deleted: each is the latest decision on a document, the team's record of
 * which POD was accepted (kept as long as the business keeps its paperwork). Deleting one would show
 * its document as "to review" again. The audit's history of each decision, with addresses, does go.
 */
export interface RetentionPolicy {
  auditDays: number;
  sessions: SessionPolicy;
}

export function retentionPolicyOf(env: Env): RetentionPolicy {
  return {
    auditDays: env.RETENTION_DAYS,
    sessions: { idleMs: env.SESSION_IDLE_MINUTES * 60_000, absoluteMs: env.SESSION_MAX_HOURS * 3_600_000 },
  };
}

export interface RetentionResult {
  auditEntries: number;
  exceptionAcks: number;
  alerts: number;
  sessions: number;
  /** Tracks no one watches that have not changed for the retention (a delivered load's, say). */
  tracks: number;
  /** Trips' kept stops unchanged for the retention whose load's track the store no longer holds. */
  tripStops: number;
}

/**
 * One pass. Each step is one DELETE bounded by a time, so instances running it at once only share
 * the work: a row is deleted by whichever gets it first, and nothing else is touched.
 */
export async function applyRetention(
  db: Kysely<Database>,
  policy: RetentionPolicy,
  now: number,
): Promise<RetentionResult> {
  const audit = await db
    .deleteFrom('audit_log')
    .where('at', '<', new Date(now - policy.auditDays * DAY_MS))
    .executeTakeFirst();
  // A snooze may outlast a short retention: it goes once it is over, not while it holds.
  const acks = await db
    .deleteFrom('exception_acks')
    .where('acted_at', '<', new Date(now - policy.auditDays * DAY_MS))
    .where((eb) => eb.or([eb('until', 'is', null), eb('until', '<=', new Date(now))]))
    .executeTakeFirst();
  // Their deliveries go with them (on delete cascade).
  const alerts = await db
    .deleteFrom('alerts')
    .where('fired_at', '<', new Date(now - policy.auditDays * DAY_MS))
    .executeTakeFirst();
  const sessions = await deleteExpiredSessions(db, policy.sessions, now);
  // Their items go with them (on delete cascade). A watch that ended a day ago is no longer needed.
  const tracks = await db
    .deleteFrom('track_loads')
    .where('changed_at', '<', new Date(now - policy.auditDays * DAY_MS))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('watched_loads as w')
            .select('w.load_id')
            .whereRef('w.load_by', '=', 'track_loads.load_by')
            .whereRef('w.load_id', '=', 'track_loads.load_id')
            .where('w.expires_at', '>', new Date(now)),
        ),
      ),
    )
    .executeTakeFirst();
  // After the tracks: a trip's stops go with its load's track, or, with no track stored (TRACKS=memory),
  // once unchanged for the retention.
  const tripStops = await db
    .deleteFrom('trip_stops')
    .where('seen_at', '<', new Date(now - policy.auditDays * DAY_MS))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('track_loads as t')
            .select('t.load_id')
            .whereRef('t.load_by', '=', 'trip_stops.load_by')
            .whereRef('t.load_id', '=', 'trip_stops.load_id'),
        ),
      ),
    )
    .executeTakeFirst();
  await db
    .deleteFrom('watched_loads')
    .where('expires_at', '<', new Date(now - DAY_MS))
    .execute();
  return {
    auditEntries: Number(audit.numDeletedRows),
    exceptionAcks: Number(acks.numDeletedRows),
    alerts: Number(alerts.numDeletedRows),
    sessions,
    tracks: Number(tracks.numDeletedRows),
    tripStops: Number(tripStops.numDeletedRows),
  };
}

export interface RetentionJob {
  /** The pass under way, or the last one (resolves when it is over; never rejects). */
  running: () => Promise<void>;
  stop: () => void;
}

/**
 * Runs `applyRetention` now and then every `everyMs`, on a timer that does not keep the process
 * alive. A pass still running when the next is due is not doubled. A store that does not answer is
 * said in one line, and tried again at the next pass.
 */
export function startRetention(options: {
  db: Kysely<Database>;
  policy: RetentionPolicy;
  now?: () => number;
  everyMs?: number;
  log?: (line: string) => void;
}): RetentionJob {
  const now = options.now ?? Date.now;
  const log = options.log ?? ((line: string) => console.log(line));
  let current: Promise<void> = Promise.resolve();
  let busy = false;
  const pass = () => {
    if (busy) return;
    busy = true;
    current = applyRetention(options.db, options.policy, now())
      .then(
        ({ auditEntries, exceptionAcks, alerts, sessions }) => {
          if (auditEntries > 0 || exceptionAcks > 0 || alerts > 0 || sessions > 0)
            log(
              `Retention: deleted ${auditEntries} audit entries, ${exceptionAcks} exception acknowledgements and ${alerts} alerts older than ${options.policy.auditDays} days, and ${sessions} expired sessions`,
            );
        },
        (error: unknown) => {
          const reason = error instanceof Error ? error.message : String(error);
          log(
            `Retention: the store did not answer (${reason.replace(/\s+/g, ' ').trim()}); trying again later`,
          );
        },
      )
      .finally(() => {
        busy = false;
      });
  };
  pass();
  const timer = setInterval(pass, options.everyMs ?? RETENTION_EVERY_MS);
  timer.unref();
  return { running: () => current, stop: () => clearInterval(timer) };
}
