import { describe, expect, it } from 'vitest';
import type { Load } from './model';
import { emptyLoad, testDocument, testTime } from '@/testing/loads';
import {
  approvedPod,
  deliveredAt,
  deliveredTrips,
  paperworkState,
  podOverdueHours,
  stopClock,
  tripPaperworkStates,
  type ReviewOf,
} from './paperwork';

const DELIVERED = Date.parse('2026-11-24T20:55:00Z');
const HOUR = 3_600_000;

const status = (name: string, code: string, instant: number) => ({
  key: `${code}-${instant}`,
  instant,
  time: testTime(instant),
  name,
  code,
});
const pod = (n: number) => testDocument(`https://files.example.com/pod-${n}.jpg`, DELIVERED, { type: 'POD' });
const bol = testDocument('https://files.example.com/bol.jpg', DELIVERED - 20 * HOUR, { type: 'BOL' });

const load = (documents: Load['documents'], latest = status('Delivered', 'DLV', DELIVERED)) =>
  emptyLoad('9001', 'external-id', { documents, latestStatus: latest });

const review = (decision: ReviewOf['decision'], decidedBy = 'Ana'): ReviewOf => ({
  decision,
  decidedBy,
  decidedAt: '2026-11-25T09:00:00.000Z',
});
const reviews = (...entries: [string, ReviewOf][]) => new Map(entries);

describe('paperwork state', () => {
  it('is missing with no POD once delivered: a BOL is not a proof of delivery', () => {
    expect(paperworkState(load([bol]), reviews())).toBe('missing');
  });

  it('is on the road with no POD before delivery: nothing is owed yet', () => {
    const driving = emptyLoad('9002', 'external-id', {
      documents: [bol],
      latestStatus: status('In transit', 'ITR', DELIVERED),
    });
    expect(paperworkState(driving, reviews())).toBe('on-the-road');
  });

  it('is to review while a POD is undecided or set back to pending', () => {
    expect(paperworkState(load([bol, pod(1)]), reviews())).toBe('to-review');
    expect(paperworkState(load([pod(1)]), reviews([pod(1).url, review('pending')]))).toBe('to-review');
    // One rejected, a newer copy not looked at yet.
    expect(paperworkState(load([pod(1), pod(2)]), reviews([pod(1).url, review('rejected')]))).toBe(
      'to-review',
    );
  });

  it('is rejected when every POD is rejected, complete once one is approved', () => {
    const both = load([pod(1), pod(2)]);
    expect(
      paperworkState(both, reviews([pod(1).url, review('rejected')], [pod(2).url, review('rejected')])),
    ).toBe('rejected');
    const one = reviews([pod(1).url, review('rejected')], [pod(2).url, review('approved', 'Bo')]);
    expect(paperworkState(both, one)).toBe('complete');
    expect(approvedPod(both.documents, one)).toEqual({ url: pod(2).url, review: review('approved', 'Bo') });
    expect(approvedPod(both.documents, reviews())).toBeUndefined();
  });
});

describe('delivered and overdue', () => {
  it('a load is delivered when its latest status says so, not while it is unloading', () => {
    expect(deliveredAt(load([]))).toBe(DELIVERED);
    expect(deliveredAt(load([], status('Arrived at delivery', 'ADL', DELIVERED)))).toBeUndefined();
    expect(deliveredAt(emptyLoad('9001'))).toBeUndefined();
  });

  it('a delivered load with no POD is overdue after the due hours, not before', () => {
    expect(podOverdueHours(load([bol]), DELIVERED + 23 * HOUR, 24)).toBeUndefined();
    expect(podOverdueHours(load([bol]), DELIVERED + 25 * HOUR, 24)).toEqual({
      deliveredAt: DELIVERED,
      hoursSince: 25,
    });
    // Any POD, even one not reviewed yet, is in: it waits for a broker, not for the driver.
    expect(podOverdueHours(load([pod(1)]), DELIVERED + 99 * HOUR, 24)).toBeUndefined();
    expect(
      podOverdueHours(load([], status('In transit', 'ITR', DELIVERED)), DELIVERED + 99 * HOUR, 24),
    ).toBeUndefined();
  });

  it('counts the hours on the track’s clock (the demo runs 60 times faster)', () => {
    const fast = { ...load([]), outlook: { asOf: DELIVERED, stops: [], clockScale: 60 } };
    expect(podOverdueHours(fast, DELIVERED + 25 * 60_000, 24)?.hoursSince).toBe(25);
  });

  it('writes the delivery on the stop’s clock with its zone, nothing when the zone is unknown', () => {
    expect(stopClock(DELIVERED, -6)).toEqual({ deliveredAtStop: '11/24/2026 14:55', stopZone: 'GMT-6' });
    expect(stopClock(DELIVERED, 5.5)).toEqual({ deliveredAtStop: '11/25/2026 02:25', stopZone: 'GMT+5:30' });
    expect(stopClock(DELIVERED, undefined)).toEqual({});
  });
});

describe('delivered trips of a load whose ids are reused', () => {
  const NEXT = DELIVERED + 30 * HOUR;
  const nextPod = testDocument('https://files.example.com/next-pod.jpg', NEXT + 10 * HOUR, { type: 'POD' });
  const untimed = testDocument('https://files.example.com/untimed-pod.jpg', null, { type: 'POD' });
  const events = [
    status('Dispatched', 'DSP', DELIVERED - 30 * HOUR),
    status('Delivered', 'DLV', DELIVERED),
    status('Dispatched', 'DSP', NEXT),
  ];
  const twoTrips = (latest: ReturnType<typeof status>, extra: Load['events'] = []) =>
    emptyLoad('9001', 'external-id', {
      events: [...events, ...extra],
      documents: [bol, pod(1), nextPod, untimed],
      latestStatus: latest,
    });

  it('keeps the earlier delivery with its own PODs once the load is dispatched again', () => {
    expect(deliveredTrips(twoTrips(status('Dispatched', 'DSP', NEXT)))).toEqual([
      { from: DELIVERED - 30 * HOUR, deliveredAt: DELIVERED, pods: [pod(1)], current: false },
    ]);
  });

  it('lists both deliveries once the next trip is delivered too, the untimed POD with the current one', () => {
    const done = status('Delivered', 'DLV', NEXT + 12 * HOUR);
    expect(deliveredTrips(twoTrips(done, [done]))).toEqual([
      { from: DELIVERED - 30 * HOUR, deliveredAt: DELIVERED, pods: [pod(1)], current: false },
      { from: NEXT, deliveredAt: NEXT + 12 * HOUR, pods: [nextPod, untimed], current: true },
    ]);
  });

  it('keeps an earlier delivery’s POD overdue once the load is on its next trip', () => {
    const noPods = { ...twoTrips(status('Dispatched', 'DSP', NEXT)), documents: [bol] };
    expect(podOverdueHours(noPods, DELIVERED + 25 * HOUR, 24)).toEqual({
      deliveredAt: DELIVERED,
      hoursSince: 25,
    });
    expect(
      podOverdueHours(twoTrips(status('Dispatched', 'DSP', NEXT)), DELIVERED + 25 * HOUR, 24),
    ).toBeUndefined();
  });

  it('gives each trip its paperwork state: the earlier delivery’s POD still to review', () => {
    // The next trip has no POD yet.
    const onTheRoad = { ...twoTrips(status('Dispatched', 'DSP', NEXT)), documents: [bol, pod(1)] };
    expect(tripPaperworkStates(onTheRoad, reviews())).toEqual(['to-review', 'on-the-road']);
    expect(tripPaperworkStates(onTheRoad, reviews([pod(1).url, review('approved')]))).toEqual([
      'complete',
      'on-the-road',
    ]);
    expect(tripPaperworkStates(load([bol]), reviews())).toEqual(['missing']);
  });

  it('is the load itself when its ids were never reused', () => {
    expect(deliveredTrips(load([bol, pod(1)]))).toEqual([
      { from: -Infinity, deliveredAt: DELIVERED, pods: [pod(1)], current: true },
    ]);
    expect(deliveredTrips(load([pod(1)], status('In transit', 'ITR', DELIVERED)))).toEqual([]);
  });
});
