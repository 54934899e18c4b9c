import { describe, expect, it } from 'vitest';
import { emptyLoad, testEvent } from '@/testing/loads';
import type { StopOutlook } from './model';
import { keptTripStops, tripStopsOf } from './trip-stops';

const HOUR = 3_600_000;
const T = Date.parse('2026-11-24T12:00:00Z');

const stop = (order: number, extra: Partial<StopOutlook>): StopOutlook => ({
  order,
  progress: 'upcoming',
  status: 'on-time',
  ...extra,
});

describe('a trip’s stops as kept', () => {
  const load = (stops: StopOutlook[], events = [testEvent(T - 10 * HOUR, 'Dispatched', 'DSP')]) =>
    emptyLoad('9001', 'external-id', {
      events,
      extras: { stops: [{ stopOrderNumber: 1, stopExternalId: 'S-1' }, { stopOrderNumber: 2 }] },
      outlook: { asOf: T, stops, radiusMeters: 250 },
    });

  const pickedUp = stop(1, {
    type: 'pickup',
    progress: 'departed',
    arrivedAt: T - 5 * HOUR,
    departedAt: T - 4 * HOUR,
    status: 'late',
    lateMinutes: 30,
  });

  it('keeps what settled of each stop, keyed by the trip’s start, and nothing that moves with each ping', () => {
    const kept = tripStopsOf(
      load([
        pickedUp,
        stop(2, {
          type: 'delivery',
          eta: T + HOUR,
          status: 'at-risk',
          lateMinutes: -5,
          appointment: { local: '11/24/2026 07:00' },
        }),
      ]),
    );
    expect(kept).toEqual({
      from: T - 10 * HOUR,
      radiusMeters: 250,
      stops: [
        {
          order: 1,
          externalId: 'S-1',
          type: 'pickup',
          progress: 'departed',
          arrivedAt: T - 5 * HOUR,
          departedAt: T - 4 * HOUR,
          status: 'late',
          lateMinutes: 30,
        },
        // Not reached: its ETA and how it stands by it change with every ping.
        {
          order: 2,
          type: 'delivery',
          progress: 'upcoming',
          status: 'unknown',
          appointment: { local: '11/24/2026 07:00' },
        },
      ],
    });
    // Another ping moves the ETA: the same stops are kept.
    const later = tripStopsOf(
      load([
        pickedUp,
        stop(2, {
          type: 'delivery',
          eta: T + 2 * HOUR,
          status: 'late',
          lateMinutes: 55,
          appointment: { local: '11/24/2026 07:00' },
        }),
      ]),
    );
    expect(later).toEqual(kept);
  });

  it('keys a first trip begun with no planning status by -Infinity, and keeps nothing without stops', () => {
    expect(tripStopsOf(load([stop(1, { status: 'no-appointment' })], []))).toEqual({
      from: -Infinity,
      radiusMeters: 250,
      stops: [{ order: 1, externalId: 'S-1', progress: 'upcoming', status: 'no-appointment' }],
    });
    expect(tripStopsOf(load([]))).toBeUndefined();
    expect(tripStopsOf(emptyLoad('9001'))).toBeUndefined();
  });

  it('looks kept stops up by load and trip start', () => {
    const kept = keptTripStops([
      { by: 'external-id', id: '9001', from: -Infinity, stops: [] },
      { by: 'external-id', id: '9001', from: T, stops: [stop(1, {})] },
    ]);
    expect(kept({ by: 'external-id', id: '9001' }, T)?.stops).toHaveLength(1);
    expect(kept({ by: 'external-id', id: '9001' }, -Infinity)?.stops).toEqual([]);
    expect(kept({ by: 'load-number', id: '9001' }, T)).toBeUndefined();
    expect(kept({ by: 'external-id', id: '9001' }, T + 1)).toBeUndefined();
  });
});
