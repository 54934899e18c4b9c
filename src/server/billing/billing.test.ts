import { describe, expect, it } from 'vitest';
import { emptyLoad, testDocument, testEvent } from '@/testing/loads';
import { keptTripStops } from '@/domain/trip-stops';
import { earlierTripsToRead, overdueLoads, readyToBill } from './billing';

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

  it('names an earlier delivery’s stop when that trip’s stops were kept', () => {
    const load = emptyLoad('9001', 'external-id', { events: [...first, next], latestStatus: next });
    const kept = keptTripStops([
      {
        by: 'external-id',
        id: '9001',
        from: DELIVERED - 20 * HOUR,
        stops: [
          { order: 1, type: 'pickup', progress: 'departed', status: 'on-time' },
          {
            order: 2,
            type: 'delivery',
            name: 'Lakeside Foods',
            place: { city: 'Chicago', state: 'IL' },
            appointment: { local: '11/24/2026 14:00', offsetHours: -6, instant: DELIVERED },
            progress: 'departed',
            status: 'on-time',
          },
        ],
      },
    ]);
    const [line] = overdueLoads([load], DELIVERED + 30 * HOUR, 24, kept);
    expect(line).toMatchObject({
      earlierTrip: true,
      deliveryStop: { order: 2, name: 'Lakeside Foods', city: 'Chicago', state: 'IL' },
    });
    const pod = testDocument('https://files.example.com/pod.jpg', DELIVERED, { type: 'POD' });
    const reviewed = new Map([[pod.url, { decision: 'approved' as const, decidedBy: 'Bo', decidedAt: 'x' }]]);
    const [ready] = readyToBill([{ ...load, documents: [pod] }], reviewed, {}, kept);
    expect(ready).toMatchObject({
      earlierTrip: true,
      deliveryStop: { order: 2, city: 'Chicago' },
      deliveredAtStop: '11/24/2026 14:55',
      stopZone: 'GMT-6',
    });
  });

  it('reads the kept stops of the earlier trips that have a line or a paper, not the current one', () => {
    const load = emptyLoad('9001', 'external-id', { events: [...first, next], latestStatus: next });
    expect(earlierTripsToRead(load)).toEqual([DELIVERED - 20 * HOUR]);
    // A BOL from before the track's first planning status: of a first trip begun without one.
    const bol = testDocument('https://files.example.com/bol.jpg', DELIVERED - 30 * HOUR, { type: 'BOL' });
    const withBol = { ...load, documents: [bol] };
    expect(earlierTripsToRead(withBol)).toEqual([DELIVERED - 20 * HOUR, -Infinity]);
    expect(earlierTripsToRead(emptyLoad('9001', 'external-id', { events: first }))).toEqual([]);
  });
});
