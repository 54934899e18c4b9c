import { describe, expect, it } from 'vitest';
import quirks from '@/testing/fixtures/by-external-id-quirks.json';
import { readPullAnswer, shareBoard } from './load-queries';

describe('readPullAnswer', () => {
  it('keeps every readable load, reports the unreadable ones and passes "missing" on', () => {
    const data = readPullAnswer(
      { status: true, cursor: 'c', details: quirks.details, missing: ['404-load'] },
      'external-id',
      123,
    );
    expect(data.loads.map((l) => l.id)).toEqual(['700100', '700101']);
    expect(data.loads[0]?.latestLocation?.accuracy).toBe(12.5);
    // 700101's latest location has no lon: the load stays, without a position.
    expect(data.loads[1]?.latestLocation).toBeUndefined();
    expect(data.unreadable.map((i) => i.kind)).toEqual(['wrong_type', 'missing_id']);
    expect(data.missing).toEqual(['404-load']);
    expect(data.fetchedAt).toBe(123);
  });
});

describe('shareBoard', () => {
  const read = () =>
    readPullAnswer(
      { status: true, cursor: 'c', details: structuredClone(quirks.details), missing: [] },
      'external-id',
      1,
    );

  it('keeps the very same objects when a refresh brings nothing new', () => {
    const first = read();
    const second = shareBoard(first, read());
    expect(second.loads).toBe(first.loads);
    const clean = { ...first, unreadable: [] };
    expect(shareBoard(clean, { ...read(), unreadable: [] })).toBe(clean);
  });

  it('replaces only the load that changed', () => {
    const first = read();
    const details = structuredClone(quirks.details) as { latestLocation?: { timestampUTC: string } }[];
    details[0]!.latestLocation!.timestampUTC = '11/22/2026 13:30:00 UTC';
    const next = shareBoard(
      first,
      readPullAnswer({ status: true, cursor: 'c', details, missing: [] }, 'external-id', 2),
    );
    expect(next.loads).not.toBe(first.loads);
    expect(next.loads[0]).not.toBe(first.loads[0]);
    expect(next.loads[0]?.latestLocation?.instant).toBe(Date.parse('2026-11-22T13:30:00Z'));
    expect(next.loads[1]).toBe(first.loads[1]);
  });
});
