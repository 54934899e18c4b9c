import { describe, expect, it } from 'vitest';
import type { Load } from '@/domain/model';
import { emptyLoad, testDocument, testTime } from '@/testing/loads';
import { currentTrip } from './track-cache';

const event = (instant: number, code: string) => ({
  key: `${instant}|${code}`,
  instant,
  time: testTime(instant),
  code,
});
const ping = (instant: number) => ({
  key: `${instant}`,
  instant,
  time: testTime(instant),
  lat: 35,
  lon: -97,
  accuracy: 20,
  place: undefined,
  driver: undefined,
});

describe('currentTrip (what the puller keeps of a load)', () => {
  it('keeps the items since the last dispatch after a delivery, and documents without a time', () => {
    const load = emptyLoad('9', 'external-id', {
      // First trip 100–300, delivered; dispatched again at 400.
      events: [event(100, 'DSP'), event(200, 'ITR'), event(300, 'DLV'), event(400, 'DSP'), event(500, 'ITR')],
      pings: [ping(150), ping(250), ping(450), ping(550)],
      // In the merge's order: by time, untimed last.
      documents: [
        testDocument('https://x/pod-1', 310),
        testDocument('https://x/bol-2', 420),
        testDocument('https://x/pod-2', null),
      ],
    } as Partial<Load>);
    const trip = currentTrip(load);
    expect(trip.events.map((e) => e.instant)).toEqual([400, 500]);
    expect(trip.pings.map((p) => p.instant)).toEqual([450, 550]);
    expect(trip.documents.map((d) => d.key)).toEqual(['https://x/bol-2', 'https://x/pod-2']);
    // The head is the load's; the load itself is left as it was.
    expect(trip.id).toBe('9');
    expect(load.pings).toHaveLength(4);
    // Trimmed again, nothing changes: the same object.
    expect(currentTrip(trip)).toBe(trip);
  });

  it('keeps everything of a first trip, and of a load with no dispatch event', () => {
    const first = emptyLoad('1', 'external-id', {
      events: [event(100, 'DSP'), event(200, 'ITR')],
      pings: [ping(50), ping(150)],
    } as Partial<Load>);
    // A ping before the first dispatch is not of this trip either.
    expect(currentTrip(first).pings.map((p) => p.instant)).toEqual([150]);
    const none = emptyLoad('2', 'external-id', { pings: [ping(50), ping(150)] } as Partial<Load>);
    expect(currentTrip(none)).toBe(none);
  });
});
