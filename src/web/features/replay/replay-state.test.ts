import { describe, expect, it } from 'vitest';
import type { Load, Ping, StopOutlook } from '@/domain/model';
import {
  countUntil,
  GAP_MS,
  nextSpeed,
  parseReplayTime,
  parseSpeed,
  positionAt,
  replaySpan,
  sentItemsOf,
  stopAt,
  trackCorners,
  trackOf,
} from './replay-state';

const T0 = Date.UTC(2026, 10, 26, 12, 0);
const MIN = 60_000;

function ping(minute: number, lat: number, lon: number, accuracy: number | null = 10): Ping {
  return {
    key: `p${minute}`,
    instant: T0 + minute * MIN,
    time: { approximate: false, zoneKnown: false },
    lat,
    lon,
    accuracy,
  };
}

function load(pings: Ping[], more: Partial<Load> = {}): Load {
  return {
    by: 'external-id',
    id: '1',
    pings,
    events: [],
    comments: [],
    documents: [],
    readings: [],
    extras: {},
    issues: [],
    ...more,
  };
}

describe('positionAt', () => {
  const track = trackOf('a', load([ping(0, 40, -100, 10), ping(10, 41, -102, 30), ping(20, 42, -104, null)]));

  it('knows nothing before the first ping', () => {
    expect(positionAt(track, T0 - 1)).toBeUndefined();
  });

  it('is at a ping at its instant, and interpolates position and accuracy between two', () => {
    expect(positionAt(track, T0)).toMatchObject({ lat: 40, lon: -100, accuracy: 10, pings: 1 });
    const mid = positionAt(track, T0 + 2.5 * MIN);
    expect(mid?.state).toBe('moving');
    expect(mid?.lat).toBeCloseTo(40.25);
    expect(mid?.lon).toBeCloseTo(-100.5);
    expect(mid?.accuracy).toBeCloseTo(15);
  });

  it('has no circle between a known and an unknown accuracy', () => {
    expect(positionAt(track, T0 + 15 * MIN)?.accuracy).toBeNull();
  });

  it('stays at the last ping after it', () => {
    expect(positionAt(track, T0 + 500 * MIN)).toMatchObject({ lat: 42, lon: -104, state: 'last', pings: 3 });
  });

  it('holds still across a gap instead of inventing a straight drive', () => {
    const gappy = trackOf('g', load([ping(0, 40, -100), ping(GAP_MS / MIN + 60, 45, -90)]));
    expect(positionAt(gappy, T0 + 30 * MIN)).toMatchObject({ lat: 40, lon: -100, state: 'gap' });
  });

  it('reads several loads on one clock independently', () => {
    const other = trackOf('b', load([ping(5, 30, -90), ping(15, 31, -90)]));
    const t = T0 + 10 * MIN;
    expect(positionAt(track, t)?.lat).toBeCloseTo(41);
    expect(positionAt(other, t)?.lat).toBeCloseTo(30.5);
    expect(positionAt(other, T0)).toBeUndefined();
  });
});

describe('countUntil', () => {
  it('counts the instants at or before t, over an empty list too', () => {
    expect(countUntil([], 5)).toBe(0);
    expect(countUntil([1, 2, 2, 3], 2)).toBe(3);
    expect(countUntil([1, 2, 3], 0)).toBe(0);
    expect(countUntil([1, 2, 3], 9)).toBe(3);
  });
});

describe('replaySpan', () => {
  it('runs from the first to the last timed item of all loads, undated documents aside', () => {
    const a = load([ping(0, 1, 1), ping(10, 1, 1)]);
    const b = load([ping(-5, 1, 1)], {
      documents: [
        { key: 'd', instant: T0 + 60 * MIN, time: { approximate: false, zoneKnown: false }, url: 'u' },
        { key: 'x', instant: null, time: { approximate: false, zoneKnown: false }, url: 'v' },
      ],
    });
    expect(replaySpan([a, b])).toEqual({ from: T0 - 5 * MIN, to: T0 + 60 * MIN });
    expect(replaySpan([load([])])).toBeUndefined();
  });
});

describe('stopAt', () => {
  const stop: StopOutlook = {
    order: 1,
    progress: 'departed',
    status: 'on-time',
    arrivedAt: T0,
    departedAt: T0 + 180 * MIN,
    freeMinutes: 120,
  };
  it('is upcoming, then arrived with its dwell growing, then departed with its whole dwell', () => {
    expect(stopAt(stop, T0 - 1).progress).toBe('upcoming');
    expect(stopAt(stop, T0 + 150 * MIN)).toEqual({
      progress: 'arrived',
      insideMinutes: 150,
      detentionMinutes: 30,
    });
    expect(stopAt(stop, T0 + 999 * MIN)).toEqual({
      progress: 'departed',
      insideMinutes: 180,
      detentionMinutes: 60,
    });
  });
  it('stays upcoming when its arrival is not known', () => {
    expect(stopAt({ ...stop, arrivedAt: undefined }, T0 + 999 * MIN).progress).toBe('upcoming');
  });
});

describe('sentItemsOf', () => {
  it('lists dated documents and comments oldest first, with where they were sent', () => {
    const items = sentItemsOf(
      'e:1',
      load([], {
        comments: [
          {
            key: 'c',
            instant: T0 + 5 * MIN,
            time: { approximate: false, zoneKnown: false },
            text: 'at dock',
            position: { lat: 1, lon: 2, accuracy: null },
          },
        ],
        documents: [
          { key: 'd', instant: T0, time: { approximate: false, zoneKnown: false }, url: 'u', type: 'BOL' },
          { key: 'x', instant: null, time: { approximate: false, zoneKnown: false }, url: 'v' },
        ],
      }),
    );
    expect(items.map((i) => [i.kind, i.text, i.lat])).toEqual([
      ['document', 'BOL', undefined],
      ['comment', 'at dock', 1],
    ]);
  });
});

describe('URL values', () => {
  it('reads epoch ms and ISO times, and refuses anything else', () => {
    expect(parseReplayTime(String(T0))).toBe(T0);
    expect(parseReplayTime('2026-11-26T12:00:00Z')).toBe(T0);
    expect(parseReplayTime('soon')).toBeUndefined();
    expect(parseReplayTime(null)).toBeUndefined();
  });
  it('takes only the offered speeds, and steps through them within their ends', () => {
    expect(parseSpeed('600')).toBe(600);
    expect(parseSpeed('7')).toBe(60);
    expect(parseSpeed('-1')).toBe(60);
    expect(nextSpeed(60, 1)).toBe(300);
    expect(nextSpeed(3600, 1)).toBe(3600);
    expect(nextSpeed(1, -1)).toBe(1);
  });
});

describe('trackCorners', () => {
  it('boxes the whole track, not only its ends: a detour in the middle is in view', () => {
    const track = trackOf(
      'k',
      load([ping(0, 40, -100), ping(1, 47.5, -90), ping(2, 41, -120), ping(3, 42, -101)]),
    );
    expect(trackCorners(track)).toEqual([
      { lat: 40, lon: -120 },
      { lat: 47.5, lon: -90 },
    ]);
  });

  it('gives nothing for a load without pings, so it does not pull the view to 0,0', () => {
    expect(trackCorners(trackOf('k', load([])))).toEqual([]);
  });
});
