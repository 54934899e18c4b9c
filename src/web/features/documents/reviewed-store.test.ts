import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  MAX_REVIEWED,
  REVIEWED_STORAGE_KEY,
  reviewedStore,
  useReviewedDocuments,
  countUnreviewed,
  useUnreviewedCount,
} from './reviewed-store';

const A = 'https://docs.example.com/a.jpg';
const B = 'https://docs.example.com/b.pdf';
const C = 'https://docs.example.com/c.png';
const D = 'https://docs.example.com/d.pdf';

beforeEach(() => {
  window.localStorage.clear();
  reviewedStore.reset();
});

const stored = () => JSON.parse(window.localStorage.getItem(REVIEWED_STORAGE_KEY) ?? 'null') as unknown;

describe('reviewedStore', () => {
  it('marks and undoes by document URL, and keeps it in localStorage', () => {
    expect(reviewedStore.isReviewed(A)).toBe(false);
    reviewedStore.mark([A, B], 1000);
    expect(reviewedStore.isReviewed(A)).toBe(true);
    expect(reviewedStore.isReviewed(B)).toBe(true);
    expect(stored()).toEqual([
      [A, 1000],
      [B, 1000],
    ]);
    reviewedStore.unmark([A]);
    expect(reviewedStore.isReviewed(A)).toBe(false);
    expect(stored()).toEqual([[B, 1000]]);
  });

  it('keeps the first time a document was reviewed', () => {
    reviewedStore.mark([A], 1000);
    reviewedStore.mark([A], 2000);
    expect(stored()).toEqual([[A, 1000]]);
  });

  it('survives a reload: a fresh read from storage knows what was reviewed', () => {
    reviewedStore.mark([A]);
    reviewedStore.reset();
    expect(reviewedStore.isReviewed(A)).toBe(true);
    expect(reviewedStore.isReviewed(B)).toBe(false);
  });

  it('keys by the exact URL, hostile and odd ones included, as data', () => {
    const odd = ['__proto__', 'constructor', 'javascript:alert(1)', '', `${A}?v=2`];
    reviewedStore.mark(odd);
    reviewedStore.reset();
    for (const url of odd) expect(reviewedStore.isReviewed(url)).toBe(true);
    expect(reviewedStore.isReviewed(A)).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each(['not json', '{"a":1}', '[["ok", "not a number"], [1, 2], "x", null]', 'null'])(
    'reads a damaged store (%j) as nothing reviewed, and keeps working',
    (text) => {
      window.localStorage.setItem(REVIEWED_STORAGE_KEY, text);
      reviewedStore.reset();
      expect(reviewedStore.isReviewed('ok')).toBe(false);
      reviewedStore.mark([A], 5);
      expect(stored()).toEqual([[A, 5]]);
    },
  );

  it(`keeps at most ${MAX_REVIEWED} reviews, dropping the oldest`, () => {
    const urls = Array.from({ length: MAX_REVIEWED }, (_, i) => `https://docs.example.com/${i}`);
    reviewedStore.mark(urls, 1);
    reviewedStore.mark([A], 2);
    expect(reviewedStore.isReviewed(A)).toBe(true);
    expect((stored() as unknown[]).length).toBe(MAX_REVIEWED);
    expect(urls.filter((u) => reviewedStore.isReviewed(u)).length).toBe(MAX_REVIEWED - 1);
  });
});

describe('useUnreviewedCount', () => {
  it('counts what is not reviewed, once across lists, and follows marks and undos', () => {
    const lists = [[A, B, C], [A]];
    const { result } = renderHook(() => useUnreviewedCount(lists));
    expect(result.current).toBe(3);
    act(() => reviewedStore.mark([A]));
    expect(result.current).toBe(2);
    act(() => reviewedStore.mark([B, C]));
    expect(result.current).toBe(0);
    act(() => reviewedStore.unmark([C]));
    expect(result.current).toBe(1);
  });

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

  it('follows reviews made in another tab (the storage event)', () => {
    const { result } = renderHook(() => useReviewedDocuments());
    expect(result.current.has(B)).toBe(false);
    act(() => {
      window.localStorage.setItem(REVIEWED_STORAGE_KEY, JSON.stringify([[B, 7]]));
      window.dispatchEvent(new StorageEvent('storage', { key: REVIEWED_STORAGE_KEY }));
    });
    expect(result.current.get(B)).toBe(7);
  });
});
