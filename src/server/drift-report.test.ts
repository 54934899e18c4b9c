import { describe, expect, it } from 'vitest';
import type { ParseIssue } from '@/contract/parse-issue';
import { createDriftReport } from './drift-report';

const issue = (path: string, kind: ParseIssue['kind'] = 'unknown_field'): ParseIssue => ({
  path,
  kind,
  message: `at ${path}`,
  skipped: false,
});

describe('drift report', () => {
  it('counts notes by operation, path without indexes, and kind, keeping the first example', () => {
    const drift = createDriftReport(() => Date.UTC(2026, 10, 28));
    drift.record('external-id', [issue('details[0].stops'), issue('details[7].stops')]);
    drift.record('external-id', [issue('details[3].stops'), issue('details[3].locations[2].lat', 'missing')]);
    drift.record('load-number', [issue('details[1].stops')]);
    const { answersRead, entries } = drift.snapshot();
    expect(answersRead).toBe(3);
    expect(entries.map((e) => [e.operation, e.path, e.kind, e.count, e.example])).toEqual([
      ['external-id', 'details[].stops', 'unknown_field', 3, 'at details[0].stops'],
      ['external-id', 'details[].locations[].lat', 'missing', 1, 'at details[3].locations[2].lat'],
      ['load-number', 'details[].stops', 'unknown_field', 1, 'at details[1].stops'],
    ]);
  });

  it('counts a field dropped from kept items apart from the same departure that cost its item', () => {
    const drift = createDriftReport(() => Date.UTC(2026, 10, 28));
    const wrong = (path: string, keptItem: boolean): ParseIssue => ({
      ...issue(path, 'wrong_type'),
      skipped: true,
      ...(keptItem && { keptItem }),
    });
    drift.record('external-id', [
      wrong('details[0].documents[0].type', true),
      wrong('details[0].documents[1].type', true),
      wrong('details[1].documents[0].type', false),
    ]);
    expect(drift.snapshot().entries.map((e) => [e.path, e.kind, e.count, e.skipped, e.keptItem])).toEqual([
      ['details[].documents[].type', 'wrong_type', 2, true, true],
      ['details[].documents[].type', 'wrong_type', 1, true, undefined],
    ]);
  });

  it('keeps at most 500 distinct lines and counts the others as not recorded', () => {
    const drift = createDriftReport();
    drift.note(
      'external-id',
      Array.from({ length: 502 }, (_, i) => issue(`extra${i}`)),
    );
    drift.note('external-id', [issue('extra0'), issue('extra501')]);
    const { entries } = drift.snapshot();
    expect(entries).toHaveLength(501);
    expect(entries.find((e) => e.path === 'extra0')?.count).toBe(2);
    expect(entries.find((e) => e.kind === 'not_recorded')?.count).toBe(3);
  });
});
