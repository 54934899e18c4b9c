import { describe, expect, it } from 'vitest';
import type { DocumentReview } from '@/contract/review-api';
import { countUnreviewed, mergeReviews } from './review-queries';

const A = 'https://docs.example.com/a.jpg';
const B = 'https://docs.example.com/b.pdf';
const C = 'https://docs.example.com/c.png';
const D = 'https://docs.example.com/d.pdf';

describe('countUnreviewed', () => {
  it('counts each URL once however many lists hold it, and none that is reviewed', () => {
    const reviewed = new Map([[B, 1]]);
    expect(countUnreviewed([], reviewed)).toBe(0);
    expect(countUnreviewed([[A, B, C]], reviewed)).toBe(2);
    expect(
      countUnreviewed(
        [
          [A, C],
          [C, D],
          [D, A, B],
        ],
        reviewed,
      ),
    ).toBe(3);
    expect(countUnreviewed([[], [B], [D]], reviewed)).toBe(1);
  });
});

const review = (url: string, version: number, decidedBy = 'Ana'): DocumentReview => ({
  load: 'e:1',
  url,
  decision: 'approved',
  reason: null,
  note: null,
  decidedBy,
  decidedAt: '2026-11-22T14:05:00.000Z',
  version,
  replaced: null,
});

describe('mergeReviews', () => {
  const held = { reviews: [review(A, 1), review(B, 2)], cursor: '5', full: true };

  it('keeps the list itself when nothing changed, and each unchanged review’s object', () => {
    expect(mergeReviews(held, { reviews: [], cursor: '5', full: false })).toBe(held);
    const moved = mergeReviews(held, { reviews: [], cursor: '6', full: false });
    expect(moved.cursor).toBe('6');
    expect(moved.reviews).toBe(held.reviews);
    const changed = mergeReviews(held, {
      reviews: [review(B, 3, 'Bo'), review(C, 1)],
      cursor: '7',
      full: false,
    });
    expect(changed.cursor).toBe('7');
    expect(changed.reviews.map((r) => [r.url, r.version])).toEqual([
      [B, 3],
      [C, 1],
      [A, 1],
    ]);
    expect(changed.reviews[2]).toBe(held.reviews[0]);
  });

  it('keeps a review held at a higher version (a decision just made here), and takes a whole list as it is', () => {
    expect(mergeReviews(held, { reviews: [review(B, 1)], cursor: '6', full: false }).reviews[1]).toBe(
      held.reviews[1],
    );
    const whole = { reviews: [review(D, 1)], cursor: '2', full: true };
    expect(mergeReviews(held, whole)).toBe(whole);
  });
});
