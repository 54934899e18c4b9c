import { describe, expect, it } from 'vitest';
import { emptyLoad, testTime } from '@/testing/loads';
import type { Load } from './model';
import { attention, attentionAt, needsAttention, URGENCY_ORDER, urgencyRank } from './attention';
import { isFinished } from './status-phase';

const NOW = Date.parse('2026-11-22T15:00:00Z');
const T = { staleAfterMinutes: 30, silentAfterMinutes: 120 };
const TOLERANCE = 5;
const time = testTime();

function load(o: { minutesAgo?: number; status?: [string, string?]; returnAir?: number }): Load {
  return emptyLoad('1', 'external-id', {
    latestLocation:
      o.minutesAgo === undefined
        ? undefined
        : {
            key: 'p',
            instant: NOW - o.minutesAgo * 60_000,
            time,
            lat: 40,
            lon: -90,
            accuracy: 10,
            place: { city: 'Joliet', state: 'IL', country: 'US' },
            driver: undefined,
          },
    latestStatus: o.status && {
      key: 's',
      instant: NOW,
      time,
      id: undefined,
      name: o.status[0],
      code: o.status[1],
      driver: undefined,
    },
    latestTemperature:
      o.returnAir === undefined
        ? undefined
        : {
            key: 't',
            instant: NOW,
            time,
            deviceId: undefined,
            supply: 34,
            return: o.returnAir,
            set: 34,
            unit: 'F',
            position: undefined,
          },
  });
}

const of = (l: Load) => attention(l, NOW, T, TOLERANCE);

describe('attention: whether a load needs a dispatcher, and why', () => {
  it('says stale and silent by ping age for a load on the road', () => {
    expect(of(load({ minutesAgo: 5, status: ['In transit', 'ITR'] }))).toEqual({
      reasons: [],
      urgency: 'fresh',
      finished: false,
    });
    expect(of(load({ minutesAgo: 45, status: ['In transit', 'ITR'] })).reasons).toEqual(['stale']);
    expect(of(load({ minutesAgo: 300, status: ['In transit', 'ITR'] })).reasons).toEqual(['silent']);
    expect(of(load({ status: ['Dispatched', 'DSP'] })).urgency).toBe('unknown');
  });

  it('never alarms for a delivered or cancelled load, however old its ping or warm its reefer', () => {
    const finished = [
      load({ minutesAgo: 45, status: ['Delivered', 'DLV'] }),
      load({ minutesAgo: 3000, status: ['Delivered', 'DLV'], returnAir: 60 }),
      load({ minutesAgo: 300, status: ['Proof of delivery received'] }),
      load({ minutesAgo: 300, status: ['Cancelled'] }),
      load({ minutesAgo: 300, status: ['Load canceled by shipper'] }),
      load({ minutesAgo: 300, status: ['Whatever', 'CXL'] }),
    ];
    for (const l of finished) {
      const a = of(l);
      expect(a).toEqual({ reasons: [], urgency: 'finished', finished: true });
      expect(needsAttention(a)).toBe(false);
    }
  });

  it('does not take a status that only mentions a cancellation, or a delivery to come, as finished', () => {
    expect(isFinished({ name: 'Cancellation requested' })).toBe(false);
    expect(isFinished({ name: 'Not cancelled' })).toBe(false);
    expect(isFinished({ name: 'Arrived at delivery', code: 'ADL' })).toBe(false);
    expect(isFinished({ name: 'Delivery attempted, not delivered' })).toBe(false);
    expect(isFinished(undefined)).toBe(false);
  });

  it('flags a reefer in excursion on the road, with its ping-age reason when it has one', () => {
    expect(of(load({ minutesAgo: 5, status: ['In transit'], returnAir: 45 })).reasons).toEqual(['excursion']);
    expect(of(load({ minutesAgo: 5, status: ['In transit'], returnAir: 38 })).reasons).toEqual([]);
    expect(of(load({ minutesAgo: 45, returnAir: 45 })).reasons).toEqual(['excursion', 'stale']);
    expect(of(load({ minutesAgo: 300, returnAir: 45 })).reasons).toEqual(['silent', 'excursion']);
    expect(of(load({ returnAir: 45 })).urgency).toBe('excursion');
  });

  it('orders urgency: silent, excursion, stale, never reported, reporting, finished', () => {
    expect(URGENCY_ORDER).toEqual(['silent', 'excursion', 'stale', 'unknown', 'fresh', 'finished']);
    const loads = [
      load({ minutesAgo: 3000, status: ['Delivered', 'DLV'] }),
      load({ minutesAgo: 5 }),
      load({}),
      load({ minutesAgo: 45 }),
      load({ minutesAgo: 5, returnAir: 50 }),
      load({ minutesAgo: 130 }),
    ];
    const ranked = loads
      .map(of)
      .sort((a, b) => urgencyRank(a.urgency) - urgencyRank(b.urgency))
      .map((a) => a.urgency);
    expect(ranked).toEqual(['silent', 'excursion', 'stale', 'unknown', 'fresh', 'finished']);
  });

  it('agrees with itself given the staleness judged apart (the board and the map cache it)', () => {
    const l = load({ minutesAgo: 45, returnAir: 45 });
    expect(attentionAt(l, 'stale', TOLERANCE)).toEqual(of(l));
  });
});
