import { beforeEach, describe, expect, it } from 'vitest';
import { forgetBrowserReviews, readBrowserReviews, REVIEWED_STORAGE_KEY } from './browser-reviews';
import { countUnreviewed } from './review-queries';

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

describe('the marks this browser kept before reviews were shared', () => {
  beforeEach(() => window.localStorage.clear());

  it('reads the addresses once each, odd ones as data, and forgets them', () => {
    window.localStorage.setItem(
      REVIEWED_STORAGE_KEY,
      JSON.stringify([[A, 1], ['__proto__', 2], [A, 3], [7, 4], 'x', [B]]),
    );
    expect(readBrowserReviews()).toEqual([A, '__proto__', B]);
    forgetBrowserReviews();
    expect(window.localStorage.getItem(REVIEWED_STORAGE_KEY)).toBeNull();
    expect(readBrowserReviews()).toEqual([]);
  });

  it.each(['not json', '{"a":1}', 'null', '42'])('reads nothing from garbled storage: %s', (text) => {
    window.localStorage.setItem(REVIEWED_STORAGE_KEY, text);
    expect(readBrowserReviews()).toEqual([]);
  });
});
