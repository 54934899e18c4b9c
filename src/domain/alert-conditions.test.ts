import { describe, expect, it } from 'vitest';
import { emptyLoad, testDocument, testLatestLocation, testTime } from '@/testing/loads';
import { alertCondition } from './alert-conditions';
import type { Load, StopOutlook } from './model';
import { DEFAULT_THRESHOLDS } from './staleness';

const NOW = Date.parse('2026-11-24T15:00:00Z');
const MIN = 60_000;

const status = (name: string, instant: number) => ({
  key: 's',
  instant,
  time: testTime(instant),
  id: undefined,
  name,
  code: undefined,
  driver: undefined,
});
const stop = (fields: Partial<StopOutlook>): StopOutlook => ({
  order: 2,
  type: 'delivery',
  progress: 'upcoming',
  status: 'on-time',
  ...fields,
});
function load(pingMinutesAgo: number | undefined, stops: StopOutlook[], statusName = 'In transit'): Load {
  const ping = pingMinutesAgo === undefined ? undefined : NOW - pingMinutesAgo * MIN;
  return emptyLoad('9001', 'external-id', {
    loadNumber: 'ABC',
    latestLocation: ping === undefined ? undefined : testLatestLocation(ping),
    latestStatus: status(statusName, NOW - 300 * MIN),
    outlook: { asOf: ping ?? NOW, stops },
  });
}
const at = (kind: Parameters<typeof alertCondition>[0], l: Load, podDueMinutes = 0) =>
  alertCondition(kind, l, NOW, DEFAULT_THRESHOLDS, podDueMinutes);

describe('alertCondition', () => {
  it('dark: from the stale time, the occurrence is the last ping, since it', () => {
    expect(at('dark', load(29, []))).toBeUndefined();
    // Written as the pages write times, in UTC and named so: a webhook's reader may be anywhere.
    expect(at('dark', load(30, []))?.what).toBe('last ping Nov 24, 14:30 UTC');
    expect(at('dark', load(30, []))).toMatchObject({
      occurrence: `ping ${NOW - 30 * MIN}`,
      since: NOW - 30 * MIN,
    });
    // A delivered load is done, however quiet.
    expect(at('dark', load(300, [], 'Delivered'))).toBeUndefined();
  });

  it('late and at risk: the next upcoming stop, by its status or its appointment passed', () => {
    const due = NOW - 10 * MIN;
    const passed = load(5, [
      stop({ status: 'on-time', appointment: { local: '', offsetHours: -6, instant: due } }),
    ]);
    expect(at('late', passed)).toMatchObject({ occurrence: `stop 2 due ${due}`, since: due });
    expect(at('at-risk', passed)).toBeUndefined();
    const risky = load(5, [stop({ status: 'at-risk', lateMinutes: -20 })]);
    expect(at('at-risk', risky)).toMatchObject({ occurrence: 'stop 2', since: undefined });
    expect(at('late', risky)).toBeUndefined();
    expect(at('late', load(5, [stop({ status: 'late', lateMinutes: 40 })]))?.what).toContain('Late 40 min');
  });

  it('detention: arrived, past the free time, still there; not once departed', () => {
    const arrived = NOW - 150 * MIN;
    const there = stop({ progress: 'arrived', arrivedAt: arrived, freeMinutes: 120 });
    expect(at('detention', load(5, [there]))).toMatchObject({
      occurrence: `stop 2 arrived ${arrived}`,
      since: arrived + 120 * MIN,
    });
    expect(at('detention', load(5, [{ ...there, arrivedAt: NOW - 100 * MIN }]))).toBeUndefined();
  });

  it('detention and dark: a stay left open by a phone dark at the stop is said so', () => {
    const there = stop({ progress: 'arrived', arrivedAt: NOW - 230 * MIN, freeMinutes: 120 });
    const quiet = load(40, [there]);
    const darkThere: Load = {
      ...quiet,
      outlook: {
        asOf: NOW - 40 * MIN,
        stops: [there],
        dark: { reason: 'at-stop', at: NOW - 40 * MIN, stopOrder: 2, meters: 60 },
      },
    };
    // 190 min proven by the last ping; the clock (230 min) may have run past the truck's leaving.
    expect(at('detention', darkThere)?.what).toMatch(
      /: at least 3 h 10 min there, phone dark at the stop, free time 120 min$/,
    );
    expect(at('dark', darkThere)?.what).toMatch(
      /^last ping [A-Z][a-z]{2} \d{1,2}, \d\d:\d\d UTC; .+: at least 3 h 10 min there, phone dark at the stop$/,
    );
    // The same stay with a phone that reports: nothing open about it.
    expect(at('detention', load(5, [there]))?.what).toMatch(/: 230 min there, free time 120 min$/);
    expect(at('dark', quiet)?.what).not.toContain('phone dark at the stop');
  });

  it('pod-overdue: delivered with no POD after the hours; the occurrence is the delivery', () => {
    const delivered = load(5, [], 'Delivered');
    expect(at('pod-overdue', delivered, 6 * 60)).toBeUndefined();
    expect(at('pod-overdue', delivered, 5 * 60)).toMatchObject({
      occurrence: `delivered ${NOW - 300 * MIN}`,
      since: NOW - 300 * MIN,
    });
    const withPod = {
      ...delivered,
      documents: [testDocument('https://docs.example/pod.pdf', NOW - 200 * MIN, { type: 'POD' })],
    };
    expect(at('pod-overdue', withPod, 60)).toBeUndefined();
  });
});
