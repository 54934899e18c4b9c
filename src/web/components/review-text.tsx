import {
  REJECT_REASONS,
  type DocumentReview,
  type RejectReason,
  type ReplacedDecision,
} from '@/contract/review-api';
import { formatTime } from '../lib/time-format';

/** Each reason a document is rejected for, in words; numbered 1–7 in this order on the keyboard. */
export const REASON_WORDS: Record<RejectReason, string> = {
  blurry: 'Blurry',
  cropped_or_incomplete: 'Cropped or incomplete',
  missing_pages: 'Missing pages',
  unsigned: 'Unsigned',
  wrong_load: 'Wrong load',
  damage_or_shortage: 'Damage or shortage noted',
  other: 'Other',
};

/** The reason a number key (1–7) stands for, or undefined. */
export const reasonOfKey = (key: string): RejectReason | undefined =>
  /^[1-9]$/.test(key) ? REJECT_REASONS[Number(key) - 1] : undefined;

/** "blurry", "damage or shortage noted": a reason inside a sentence. */
export const reasonInline = (reason: RejectReason) => REASON_WORDS[reason].toLowerCase();

export type ReviewState = 'approved' | 'rejected' | 'to-review';

export function reviewState(review: Pick<DocumentReview, 'decision'> | undefined): ReviewState {
  if (review?.decision === 'approved') return 'approved';
  if (review?.decision === 'rejected') return 'rejected';
  return 'to-review';
}

/** "Approved", "Rejected: blurry", or `toReview` ("To review", "Not reviewed"). */
export function reviewStateWords(review: DocumentReview | undefined, toReview = 'To review'): string {
  const state = reviewState(review);
  if (state === 'approved') return 'Approved';
  if (state === 'rejected' && review?.reason) return `Rejected: ${reasonInline(review.reason)}`;
  return toReview;
}

/** A decision's time in the viewer's zone: "Nov 22, 14:05 EST". */
export const decidedTime = (iso: string) => formatTime(Date.parse(iso), { kind: 'mine' });

/** "by Ana, Nov 22, 14:05 EST": who decided, and when; undefined for no decision yet. */
export function decidedWords(review: DocumentReview | undefined): string | undefined {
  if (!review) return undefined;
  return `by ${review.decidedBy}, ${decidedTime(review.decidedAt)}`;
}

/** "approval", "rejection (blurry)": a replaced decision as a noun. */
function decisionNoun(d: Pick<ReplacedDecision, 'decision' | 'reason'>): string {
  if (d.decision === 'approved') return 'approval';
  return d.reason ? `rejection (${reasonInline(d.reason)})` : 'rejection';
}

/**
 * What the earlier decider is told when a teammate's later decision replaced theirs: "Bo rejected
 * this (blurry) at Nov 22, 14:05 EST, replacing your approval". Undefined when nothing of `me`'s was
 * replaced, or `me` decided last.
 */
export function replacedNotice(
  review: DocumentReview | undefined,
  me: string | undefined,
): string | undefined {
  const replaced = review?.replaced;
  if (!review || !replaced || me === undefined) return undefined;
  if (replaced.decidedBy !== me || review.decidedBy === me) return undefined;
  const what =
    review.decision === 'approved'
      ? 'approved this'
      : review.decision === 'rejected'
        ? `rejected this${review.reason ? ` (${reasonInline(review.reason)})` : ''}`
        : 'put this back to review';
  return `${review.decidedBy} ${what} at ${decidedTime(review.decidedAt)}, replacing your ${decisionNoun(replaced)}`;
}

const STATE_CLASS: Record<ReviewState, string> = {
  approved: 'bg-green-100 text-green-900',
  rejected: 'bg-red-100 text-red-900',
  'to-review': 'bg-amber-100 text-amber-900',
};

/** A document's review state as a small badge: "✓ Approved", "✗ Rejected: blurry", "To review". */
export function ReviewBadge({ review, toReview }: { review: DocumentReview | undefined; toReview?: string }) {
  const state = reviewState(review);
  const mark = state === 'approved' ? '✓ ' : state === 'rejected' ? '✗ ' : '';
  const words = reviewStateWords(review, toReview);
  // May wrap in a narrow card; a row that truncates still has the whole of it on hover.
  return (
    <span title={words} className={`rounded px-1 text-xs ${STATE_CLASS[state]}`}>
      {mark}
      {words}
    </span>
  );
}
