import { describe, expect, it } from 'vitest';
import { emptyLoad, testDocument, testEvent } from '@/testing/loads';
import { overdueLoads } from './billing';

const HOUR = 3_600_000;
const DELIVERED = Date.parse('2026-11-24T20:55:00Z');

describe('overdue PODs of a load whose ids are reused', () => {
  const first = [
    testEvent(DELIVERED - 20 * HOUR, 'Dispatched', 'DSP'),
    testEvent(DELIVERED, 'Delivered', 'DLV'),
  ];
  const next = testEvent(DELIVERED + 5 * HOUR, 'Dispatched', 'DSP');

  it('keeps an earlier delivery with no POD overdue once the load is on its next trip', () => {
    const load = emptyLoad('9001', 'external-id', { events: [...first, next], latestStatus: next });
    expect(overdueLoads([load], DELIVERED + 30 * HOUR, 24)).toEqual([
      {
        ref: 'e:9001',
        by: 'external-id',
        id: '9001',
        externalId: '9001',
        deliveredAt: new Date(DELIVERED).toISOString(),
        earlierTrip: true,
        hoursSince: 30,
      },
    ]);
  });

  it('lets a POD of the next trip stand for neither delivery', () => {
    const nextPod = testDocument('https://files.example.com/next-pod.jpg', DELIVERED + 9 * HOUR, {
      type: 'POD',
    });
    const load = emptyLoad('9001', 'external-id', {
      events: [...first, next],
      latestStatus: next,
      documents: [nextPod],
    });
    expect(overdueLoads([load], DELIVERED + 30 * HOUR, 24).map((l) => l.deliveredAt)).toEqual([
      new Date(DELIVERED).toISOString(),
    ]);
  });
});
