import { describe, expect, it } from 'vitest';
import quirks from '@/testing/fixtures/by-external-id-quirks.json';
import { readPullAnswer } from './load-queries';

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
