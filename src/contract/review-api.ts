import * as z from 'zod/mini';
import { LoadRefText } from './proxy-api';
import './zod-locale';

/** `/api/documents/reviews`: a broker's decision on a document, and the team's reviews. */

/** What a broker decided about a document (`PUT /api/documents/reviews`); `pending` undoes a decision. */
export const REVIEW_DECISIONS = ['approved', 'rejected', 'pending'] as const;
export const ReviewDecision = z.enum(REVIEW_DECISIONS);
export type ReviewDecision = z.infer<typeof ReviewDecision>;

/** Why a document was rejected: codes, so the POD workflow can sort and count them. */
export const REJECT_REASONS = [
  'blurry',
  'cropped_or_incomplete',
  'missing_pages',
  'unsigned',
  'wrong_load',
  'damage_or_shortage',
  'other',
] as const;
export const RejectReason = z.enum(REJECT_REASONS);
export type RejectReason = z.infer<typeof RejectReason>;

export const REVIEW_NOTE_MAX_LENGTH = 500;
export const DOCUMENT_URL_MAX_LENGTH = 2048;

/** A document's address as the upstream gave it: only http(s) addresses are documents. */
export const DocumentUrl = z.string().check(
  z.maxLength(DOCUMENT_URL_MAX_LENGTH, `a document address is at most ${DOCUMENT_URL_MAX_LENGTH} characters`),
  z.refine(
    (v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol),
    'a document address is an http:// or https:// URL',
  ),
);

/** `PUT /api/documents/reviews`: a reason with `rejected` only, and there always. */
export const ReviewRequest = z
  .strictObject({
    load: LoadRefText,
    url: DocumentUrl,
    decision: ReviewDecision,
    reason: z.optional(RejectReason),
    note: z.optional(
      z
        .string()
        .check(z.maxLength(REVIEW_NOTE_MAX_LENGTH, `a note is at most ${REVIEW_NOTE_MAX_LENGTH} characters`)),
    ),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (v.decision === 'rejected' && v.reason === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['reason'],
          message: `a rejection needs a reason: one of ${REJECT_REASONS.join(', ')}`,
          input: v,
        });
      if (v.decision !== 'rejected' && v.reason !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['reason'],
          message: `a reason goes with rejected only, not with ${v.decision}`,
          input: v,
        });
    }),
  );
export type ReviewRequest = z.infer<typeof ReviewRequest>;

/** Another user's decision that a later one replaced: what that user's inbox tells them. */
export const ReplacedDecision = z.object({
  decision: ReviewDecision,
  reason: z.nullable(RejectReason),
  decidedBy: z.string(),
  /** ISO 8601. */
  decidedAt: z.string(),
});
export type ReplacedDecision = z.infer<typeof ReplacedDecision>;

/** A stored review: the latest decision on one document, who made it and when, and how many so far. */
export const DocumentReview = z.object({
  load: z.string(),
  url: z.string(),
  decision: ReviewDecision,
  reason: z.nullable(RejectReason),
  note: z.nullable(z.string()),
  decidedBy: z.string(),
  /** ISO 8601. */
  decidedAt: z.string(),
  /** 1 for the first decision, one more for each after it. */
  version: z.number(),
  /**
   * The last decision of another user that this one (or the same user's before it) replaced, or
   * null: "Bo rejected this, replacing your approval".
   */
  replaced: z.nullable(ReplacedDecision),
});
export type DocumentReview = z.infer<typeof DocumentReview>;

/**
 * The answer to a decision: the stored review and, when someone else had decided the document
 * before, the review it replaced ("you replaced Ana's approval").
 */
export const ReviewChanged = z.object({ review: DocumentReview, replaced: z.nullable(DocumentReview) });
export type ReviewChanged = z.infer<typeof ReviewChanged>;

/** A review cursor: the number of the latest change a page has seen, as `?since=` takes it. */
export const ReviewCursor = z
  .string()
  .check(z.regex(/^(0|[1-9]\d{0,17})$/, 'since is a cursor from an earlier answer: digits, e.g. 42'));

/** `GET /api/documents/reviews`: `?load=` for one load's, `?since=` for those changed after a cursor. */
export const ReviewsQuery = z.strictObject({
  load: z.optional(LoadRefText),
  since: z.optional(ReviewCursor),
});
export type ReviewsQuery = z.infer<typeof ReviewsQuery>;

/**
 * `GET /api/documents/reviews`. With `since`, only the reviews changed after it (an undo is a change
 * to `pending`); `cursor` is the one to send next. `full` says the list is whole (no `since`, or one
 * the store does not know, as after a restore): the page then drops what it held.
 */
export const ReviewsAnswer = z.object({
  reviews: z.array(DocumentReview),
  cursor: ReviewCursor,
  full: z.boolean(),
});
export type ReviewsAnswer = z.infer<typeof ReviewsAnswer>;
