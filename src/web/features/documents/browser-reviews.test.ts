import { beforeEach, describe, expect, it } from 'vitest';
import { forgetBrowserReviews, readBrowserReviews, REVIEWED_STORAGE_KEY } from './browser-reviews';

const A = 'https://docs.example.com/a.jpg';
const B = 'https://docs.example.com/b.pdf';

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
