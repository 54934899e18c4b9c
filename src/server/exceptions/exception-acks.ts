import { sql, type Kysely, type Selectable } from 'kysely';
import type { ExceptionAck, ExceptionAckRequest } from '@/contract/exceptions-api';
import { loadException } from '@/domain/exceptions';
import type { Load } from '@/domain/model';
import { loadRefOf } from '@/domain/paperwork';
import type { StalenessThresholds } from '@/domain/staleness';
import type { Database, ExceptionAcksTable } from '../store/database';
import { recordAudit } from '../store/audit';

type AckRow = Selectable<ExceptionAcksTable>;

const toAck = (row: AckRow): ExceptionAck => ({
  load: row.load,
  kind: row.kind,
  state: row.state,
  until: row.until?.toISOString() ?? null,
  occurrence: row.occurrence,
  note: row.note,
  by: row.acted_by,
  at: row.acted_at.toISOString(),
  version: row.version,
});

const STATE = { acknowledge: 'acknowledged', snooze: 'snoozed', clear: 'cleared' } as const;

/**
 * Stores a user's action on a load's exception, replacing the one before on the same load and kind,
 * with its audit entry in the same transaction. `now` is the proxy's clock: a snooze ends by it.
 */
export async function actOnException(
  db: Kysely<Database>,
  input: ExceptionAckRequest,
  actor: string,
  now: number,
): Promise<ExceptionAck> {
  const values = {
    state: STATE[input.action],
    until: input.action === 'snooze' ? new Date(now + (input.minutes ?? 0) * 60_000) : null,
    occurrence: input.occurrence ?? null,
    note: input.note ?? null,
    acted_by: actor,
    // The clock at the action, not at the transaction's start: the later action reads later.
    acted_at: sql<Date>`clock_timestamp()`,
    ended_at: null,
  };
  return db.transaction().execute(async (trx) => {
    // One statement: two users acting at once take turns on the row, and each counts a version.
    const row = await trx
      .insertInto('exception_acks')
      .values({ load: input.load, kind: input.kind, ...values })
      .onConflict((c) =>
        c.columns(['load', 'kind']).doUpdateSet({
          ...values,
          version: sql<number>`exception_acks.version + 1`,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      actor,
      action: `exception.${input.action}`,
      subject: input.load,
      details: {
        kind: input.kind,
        occurrence: input.occurrence ?? null,
        ...(input.action === 'snooze' ? { minutes: input.minutes } : {}),
        // The row's note goes with its next action: the audit log keeps what was written.
        ...(input.note ? { note: input.note } : {}),
      },
    });
    return toAck(row);
  });
}

/** The acknowledgements and snoozes (ended ones too; the page judges them), the latest first. */
export async function listExceptionAcks(db: Kysely<Database>): Promise<ExceptionAck[]> {
  const rows = await db
    .selectFrom('exception_acks')
    .selectAll()
    .where('state', '!=', 'cleared')
    .where('ended_at', 'is', null)
    .orderBy('acted_at', 'desc')
    .orderBy('load')
    .orderBy('kind')
    .execute();
  return rows.map(toAck);
}

/**
 * Ends the acknowledgements whose exception is over: the load's exception, judged now, is another
 * kind or occurrence, or none. Judged by the server at each pass over the loads it holds, so an
 * exception that ends and comes back (late, at risk, late again at the same stop) is a new one even
 * when no page was open in between. Loads not held are not judged; a newer action (its version) is
 * never ended by an older judgement.
 */
export async function endPassedAcks(
  db: Kysely<Database>,
  loads: () => readonly Load[] | Promise<readonly Load[]>,
  now: number,
  thresholds: StalenessThresholds,
): Promise<number> {
  const open = await db
    .selectFrom('exception_acks')
    .select(['load', 'kind', 'occurrence', 'version'])
    .where('state', '=', 'acknowledged')
    .where('ended_at', 'is', null)
    .execute();
  if (open.length === 0) return 0;
  const held = new Map<string, Load>();
  // Asked only when some acknowledgement is open: most passes have none.
  for (const load of await loads()) held.set(loadRefOf(load), load);
  let ended = 0;
  for (const ack of open) {
    const load = held.get(ack.load);
    if (!load) continue;
    const exception = loadException(load, now, thresholds);
    const same =
      exception?.kind === ack.kind && (ack.occurrence === null || ack.occurrence === exception.occurrence);
    if (same) continue;
    const result = await db
      .updateTable('exception_acks')
      .set({ ended_at: new Date(now) })
      .where('load', '=', ack.load)
      .where('kind', '=', ack.kind)
      .where('version', '=', ack.version)
      .where('ended_at', 'is', null)
      .executeTakeFirst();
    ended += Number(result.numUpdatedRows);
  }
  return ended;
}
