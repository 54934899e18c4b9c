import { describe, expect, it } from 'vitest';
import { testEvent } from '@/testing/loads';
import { hasEarlierTrip, tripAt, tripStart, tripStarts } from './geofence';

const H = 3_600_000;

/** Two trips under one id: dispatched at 1 h, delivered at 9 h; dispatched again at 20 h. */
const twoTrips = [
  testEvent(1 * H, 'Dispatched', 'DSP'),
  testEvent(2 * H, 'Arrived at pickup', 'APU'),
  testEvent(9 * H, 'Delivered', 'DLV'),
  testEvent(20 * H, 'Dispatched', 'DSP'),
  testEvent(21 * H, 'Arrived at pickup', 'APU'),
];

describe('the trips of a track whose ids are reused', () => {
  it('begins a trip at each planning status after a delivery, not at a second one before it', () => {
    const again = [...twoTrips.slice(0, 2), testEvent(3 * H, 'Load assigned', 'DSP'), ...twoTrips.slice(2)];
    expect(tripStarts(again)).toEqual([1 * H, 20 * H]);
    expect(tripStart(again)).toBe(20 * H);
    expect(tripStarts([testEvent(H, 'In transit', 'ITR')])).toEqual([]);
  });

  it('takes the trip under way when a link was made, and ends it where the next one begins', () => {
    expect(tripAt(twoTrips, 5 * H)).toEqual({ from: 1 * H, to: 20 * H });
    expect(tripAt(twoTrips, 25 * H)).toEqual({ from: 20 * H, to: Infinity });
  });

  it('takes the trip that ended for a link made between two trips', () => {
    expect(tripAt(twoTrips, 12 * H)).toEqual({ from: 1 * H, to: 20 * H });
  });

  it('takes the first trip to come for a link made before any status', () => {
    expect(tripAt(twoTrips, 0)).toEqual({ from: 1 * H, to: 20 * H });
    expect(tripAt([], 0)).toEqual({ from: -Infinity, to: Infinity });
  });

  it('tells a track with an earlier trip from one on its first, messages before its dispatch included', () => {
    const first = [testEvent(1 * H, 'Dispatched', 'DSP'), testEvent(9 * H, 'Delivered', 'DLV')];
    expect(hasEarlierTrip(first)).toBe(false);
    expect(hasEarlierTrip([...first, testEvent(20 * H, 'Dispatched', 'DSP')])).toBe(true);
    expect(hasEarlierTrip([])).toBe(false);
    expect(hasEarlierTrip([testEvent(0.5 * H, 'Sent text message to driver'), ...first])).toBe(false);
  });

  it('takes the trip about to start for a link made after a message but before the first dispatch', () => {
    const messaged = [testEvent(0.5 * H, 'Sent text message to driver'), ...twoTrips];
    expect(tripAt(messaged, 0.75 * H)).toEqual({ from: 1 * H, to: 20 * H });
    expect(tripAt(messaged, 5 * H)).toEqual({ from: 1 * H, to: 20 * H });
  });

  it('counts statuses before the first dispatch as a trip of their own when there are any', () => {
    // A trip whose planning status the service never sent, then the truck dispatched again.
    const unplanned = [
      testEvent(1 * H, 'Departed pickup'),
      testEvent(8 * H, 'Departed delivery'),
      ...twoTrips.slice(3),
    ];
    expect(tripAt(unplanned, 10 * H)).toEqual({ from: -Infinity, to: 20 * H });
    expect(tripAt(unplanned, 22 * H)).toEqual({ from: 20 * H, to: Infinity });
  });
});
