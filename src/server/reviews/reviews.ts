import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { DocumentReview, ReviewChanged, ReviewRequest } from '@/contract/proxy-api';
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
});

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
        .set({ ...values, version: before.version + 1 })
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

/** Every review, or one load's, the latest decisions first. */
export async function listReviews(db: Kysely<Database>, load?: string): Promise<DocumentReview[]> {
  let query = db.selectFrom('document_reviews').selectAll();
  if (load !== undefined) query = query.where('load', '=', load);
  const rows = await query.orderBy('decided_at', 'desc').orderBy('url').execute();
  return rows.map(toReview);
}
