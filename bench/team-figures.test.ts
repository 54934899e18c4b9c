import { describe, expect, it } from 'vitest';
import { siblingDatabaseUrl, storeFigures } from './team-figures';

describe('storeFigures', () => {
  it('gives PUT p50 and p95, the median GET and its size in kB, named by size and store', () => {
    const putMs = Array.from({ length: 100 }, (_, i) => i + 1);
    const figures = storeFigures({
      kind: 'pglite',
      reviews: 10_000,
      putMs,
      getMs: [30, 10, 20.04],
      getBytes: 2_345_678,
    });
    expect(figures.map((f) => [f.figure, f.value, f.unit])).toEqual([
      ['team: review PUT p50 of 100 (10,000 reviews, pglite)', 50, 'ms'],
      ['team: review PUT p95 of 100 (10,000 reviews, pglite)', 95, 'ms'],
      ['team: GET all reviews, median of 3 (10,000 reviews, pglite)', 20, 'ms'],
      ['team: GET all reviews, answer size (10,000 reviews, pglite)', 2345.7, 'kB'],
    ]);
    expect(figures.every((f) => f.pass && f.goal === '-')).toBe(true);
  });

  it('adds a refresh since its cursor, median and size, when measured', () => {
    const figures = storeFigures({
      kind: 'pglite',
      reviews: 10_000,
      putMs: [1],
      getMs: [1],
      getBytes: 1,
      sinceMs: [4, 2, 3],
      sinceBytes: 512,
    });
    expect(figures.slice(4).map((f) => [f.figure, f.value, f.unit])).toEqual([
      ['team: GET ?since= after one change, median of 3 (10,000 reviews, pglite)', 3, 'ms'],
      ['team: GET ?since= after one change, answer size (10,000 reviews, pglite)', 0.5, 'kB'],
    ]);
  });

  it('marks a figure with no measurement as failed rather than printing NaN as a pass', () => {
    const figures = storeFigures({ kind: 'postgres', reviews: 10_000, putMs: [], getMs: [5], getBytes: 10 });
    expect(figures.map((f) => f.pass)).toEqual([false, false, true, true]);
  });
});

describe('siblingDatabaseUrl', () => {
  it('names another database on the same server, keeping user, password and options', () => {
    expect(
      siblingDatabaseUrl(
        'postgres://hv:pw@db.example.com:5433/haulview?sslmode=require',
        'haulview_bench_ab12',
      ),
    ).toBe('postgres://hv:pw@db.example.com:5433/haulview_bench_ab12?sslmode=require');
  });

  it('refuses a name that is not a plain identifier (it is written into CREATE DATABASE)', () => {
    expect(() => siblingDatabaseUrl('postgres://db/haulview', 'x; drop database haulview')).toThrow(
      /not a plain/,
    );
    expect(() => siblingDatabaseUrl('postgres://db/haulview', 'Bench')).toThrow(/not a plain/);
  });
});
