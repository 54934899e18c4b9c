import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type {
  DocumentReview,
  RejectReason,
  ReviewChanged,
  ReviewRequest,
  ReviewsAnswer,
} from '@/contract/review-api';
import type { Database, DocumentReviewsTable } from '../store/database';
import { recordAudit } from '../store/audit';

type ReviewRow = Selectable<DocumentReviewsTable>;

const toReview = (row: ReviewRow): DocumentReview => ({
  load: row.load,
  url: row.url,
  decision: row.decision,
  reason: row.reason,
  note: row.note,
  decidedBy: row.decided_by,
  decidedAt: row.decided_at.toISOString(),
  version: row.version,
  replaced:
    row.replaced_decision !== null && row.replaced_by !== null && row.replaced_at !== null
      ? {
          decision: row.replaced_decision,
          reason: row.replaced_reason as RejectReason | null,
          decidedBy: row.replaced_by,
          decidedAt: row.replaced_at.toISOString(),
        }
      : null,
});

// Every decision takes this lock first, so change numbers are committed in order: a page that has
// seen change n has seen every change before it, and `?since=n` misses none.
const CHANGES_LOCK = 0x68765f72; // 'hv_r'

/** The document's review, locked until the transaction ends, or undefined when none was made yet. */
const lockReview = (trx: Transaction<Database>, url: string) =>
  trx.selectFrom('document_reviews').selectAll().where('url', '=', url).forUpdate().executeTakeFirst();

/**
 * Stores a decision on a document, with its audit entry in the same transaction. Two decisions on
 * one document at once take turns on its row: both are audited, the later one stays. The answer
 * names the review it replaced when another user had made it.
 */
export async function decideReview(
  db: Kysely<Database>,
  input: ReviewRequest,
  actor: string,
): Promise<ReviewChanged> {
  const values = {
    load: input.load,
    decision: input.decision,
    reason: input.reason ?? null,
    note: input.note ?? null,
    decided_by: actor,
    // The clock at the decision, not at the transaction's start: the later decision reads later.
    decided_at: sql<Date>`clock_timestamp()`,
  };
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${CHANGES_LOCK})`.execute(trx);
    let before = await lockReview(trx, input.url);
    let after: ReviewRow | undefined;
    if (before === undefined) {
      after = await trx
        .insertInto('document_reviews')
        .values({ url: input.url, ...values })
        .onConflict((c) => c.column('url').doNothing())
        .returningAll()
        .executeTakeFirst();
      // Another decision inserted the row meanwhile: it is ours to replace, after it commits.
      if (after === undefined) before = await lockReview(trx, input.url);
    }
    if (before !== undefined) {
      after = await trx
        .updateTable('document_reviews')
        .set({
          ...values,
          version: before.version + 1,
          change: sql<string>`nextval('document_review_changes')`,
          ...replacedBy(before, actor),
        })
        .where('url', '=', input.url)
        .returningAll()
        .executeTakeFirstOrThrow();
    }
    if (after === undefined) throw new Error(`the review of ${input.url} vanished while it was decided`);
    await recordAudit(trx, {
      actor,
      action: 'review',
      subject: input.url,
      details: { decision: input.decision, reason: input.reason ?? null, load: input.load },
    });
    const replaced = before !== undefined && before.decided_by !== actor ? toReview(before) : null;
    return { review: toReview(after), replaced };
  });
}

/**
 * What a decision replaced: another user's approval or rejection; what the same user's decision
 * before had replaced; nothing after another user's undo (no decision of theirs stood).
 */
function replacedBy(before: ReviewRow, actor: string) {
  if (before.decided_by === actor || before.decision === 'pending')
    return before.decided_by !== actor
      ? { replaced_decision: null, replaced_reason: null, replaced_by: null, replaced_at: null }
      : {
          replaced_decision: before.replaced_decision,
          replaced_reason: before.replaced_reason,
          replaced_by: before.replaced_by,
          replaced_at: before.replaced_at,
        };
  return {
    replaced_decision: before.decision,
    replaced_reason: before.reason,
    replaced_by: before.decided_by,
    replaced_at: before.decided_at,
  };
}

/**
 * Every review, or one load's, the latest decisions first; with `since`, only those changed after
 * that cursor. A cursor beyond the store's latest change (a store restored from a backup, say) is
 * answered with the whole list, `full`, so the page starts again from it.
 */
export async function listReviews(
  db: Kysely<Database>,
  { load, since }: { load?: string; since?: string } = {},
): Promise<ReviewsAnswer> {
  return db.transaction().execute(async (trx) => {
    // One snapshot for the latest change and the rows: the cursor covers exactly what is answered.
    await sql`set transaction isolation level repeatable read`.execute(trx);
    const latest = await trx
      .selectFrom('document_reviews')
      .select((eb) => eb.fn.max('change').as('change'))
      .executeTakeFirst();
    const cursor = String(latest?.change ?? '0');
    const full = since === undefined || BigInt(since) > BigInt(cursor);
    let query = trx.selectFrom('document_reviews').selectAll();
    if (load !== undefined) query = query.where('load', '=', load);
    if (!full) query = query.where('change', '>', since);
    const rows = await query.orderBy('decided_at', 'desc').orderBy('url').execute();
    return { reviews: rows.map(toReview), cursor, full };
  });
}
