import { describe, expect, it } from 'vitest';
import { emptyLoad, testLatestLocation, testTime } from '@/testing/loads';
import { EXCEPTION_ORDER, exceptionRank, loadException } from './exceptions';
import type { DarkReason, Load, StopOutlook } from './model';
import { applyDelta } from './merge';
import { DEFAULT_THRESHOLDS } from './staleness';
import { isFinished, statusPhase } from './status-phase';

const NOW = Date.parse('2026-11-24T15:00:00Z');
const MIN = 60_000;

const stop = (fields: Partial<StopOutlook>): StopOutlook => ({
  order: 2,
  type: 'delivery',
  progress: 'upcoming',
  status: 'on-time',
  ...fields,
});
const appointment = (instant: number) => ({ local: '11/24/2026 13:00', offsetHours: -6, instant });

/** A load whose last ping is `pingMinutesAgo` old (none when undefined), with the status named. */
function load(
  pingMinutesAgo: number | undefined,
  stops: StopOutlook[],
  options: { dark?: DarkReason; status?: string; code?: string; clockScale?: number } = {},
): Load {
  const ping = pingMinutesAgo === undefined ? undefined : NOW - pingMinutesAgo * MIN;
  return emptyLoad('9001', 'external-id', {
    latestLocation: ping === undefined ? undefined : testLatestLocation(ping),
    latestStatus: {
      key: 's',
      instant: NOW - 600 * MIN,
      time: testTime(NOW - 600 * MIN),
      id: undefined,
      name: options.status ?? 'In transit',
      code: options.code,
      driver: undefined,
    },
    outlook: {
      asOf: ping ?? NOW - 600 * MIN,
      stops,
      ...(options.dark ? { dark: options.dark } : {}),
      ...(options.clockScale !== undefined ? { clockScale: options.clockScale } : {}),
    },
  });
}

const at = (l: Load, now = NOW) => loadException(l, now, DEFAULT_THRESHOLDS);
const moving: DarkReason = { reason: 'moving', at: NOW - 45 * MIN, mph: 58 };
const stopped: DarkReason = { reason: 'stopped', at: NOW - 45 * MIN };

describe('loadException', () => {
  it('a load on time with a fresh phone needs no action', () => {
    expect(
      at(load(2, [stop({ lateMinutes: -90, eta: NOW, appointment: appointment(NOW + 90 * MIN) })])),
    ).toBe(undefined);
    // Nothing known at all: no ping, no outlook's reason, no stop.
    expect(at(load(undefined, []))).toBeUndefined();
  });

  it('late once the appointment passed, since the appointment, whatever the ETA said', () => {
    const s = stop({ status: 'on-time', lateMinutes: -20, appointment: appointment(NOW - 10 * MIN) });
    expect(at(load(1, [s]))).toEqual({
      kind: 'late',
      since: NOW - 10 * MIN,
      occurrence: `stop 2 due ${NOW - 10 * MIN}`,
      stop: s,
    });
    // One minute before the appointment it was not late yet.
    expect(at(load(1, [s]), NOW - 11 * MIN)).toBeUndefined();
  });

  it('late by its ETA alone has no "since": the ETA is reckoned afresh at each ping', () => {
    const s = stop({
      status: 'late',
      lateMinutes: 70,
      eta: NOW + 130 * MIN,
      appointment: appointment(NOW + 60 * MIN),
    });
    const first = at(load(1, [s]));
    expect(first).toEqual({
      kind: 'late',
      since: undefined,
      occurrence: `stop 2 due ${NOW + 60 * MIN}`,
      stop: s,
    });
    // A ping later the exception is the same one, acknowledgements of it included.
    expect(at(load(0, [s]), NOW + MIN)).toEqual(first);
  });

  it('at risk: the stop it concerns, no "since" either', () => {
    const s = stop({ status: 'at-risk', lateMinutes: -15, appointment: appointment(NOW + 90 * MIN) });
    expect(at(load(3, [s]))).toEqual({
      kind: 'at-risk',
      since: undefined,
      occurrence: `stop 2 due ${NOW + 90 * MIN}`,
      stop: s,
    });
  });

  it('is another occurrence at the next trip’s stop of the same order: what was said of the last one does not hold', () => {
    const trip = (due: number) =>
      at(
        load(1, [
          stop({ status: 'late', lateMinutes: 30, eta: due + 30 * MIN, appointment: appointment(due) }),
        ]),
      );
    expect(trip(NOW + 60 * MIN)?.occurrence).not.toBe(trip(NOW + 26 * 60 * MIN)?.occurrence);
    const arrived = (at0: number) =>
      at(load(1, [stop({ progress: 'arrived', arrivedAt: at0, freeMinutes: 120 })]))?.occurrence;
    expect(arrived(NOW - 150 * MIN)).toBe(`stop 2 arrived ${NOW - 150 * MIN}`);
    expect(arrived(NOW - 150 * MIN)).not.toBe(arrived(NOW - 180 * MIN));
  });

  it('dark while moving once the phone is stale, since its last ping, named by that ping', () => {
    const s = stop({ lateMinutes: -90, appointment: appointment(NOW + 300 * MIN) });
    const ping = NOW - 45 * MIN;
    expect(at(load(45, [s], { dark: moving }))).toEqual({
      kind: 'dark-moving',
      since: ping,
      occurrence: `ping ${ping}`,
    });
    // A fresh phone is not dark, whatever the reason reckoned would be.
    expect(at(load(10, [s], { dark: moving }))).toBeUndefined();
    // It reports again and goes quiet again: another occurrence, so an acknowledgement ends.
    expect(at(load(40, [s], { dark: moving }), NOW + 5 * MIN)?.occurrence).toBe(`ping ${NOW - 40 * MIN}`);
  });

  it('detention once the free time at an arrived stop is over, since the free time ended', () => {
    const arrived = (minutesAgo: number, clockScale?: number) =>
      load(1, [stop({ progress: 'arrived', arrivedAt: NOW - minutesAgo * MIN, freeMinutes: 120 })], {
        ...(clockScale === undefined ? {} : { clockScale }),
      });
    expect(at(arrived(150))).toMatchObject({
      kind: 'detention',
      since: NOW - 30 * MIN,
      occurrence: `stop 2 arrived ${NOW - 150 * MIN}`,
    });
    expect(at(arrived(119))).toBeUndefined();
    // The demo's clock at 60 track minutes a minute: 2 h free is 2 real minutes.
    expect(at(arrived(3, 60))).toMatchObject({ kind: 'detention', since: NOW - MIN });
    // Left the stop: the clock stopped, the next stop is what counts.
    const left = load(1, [
      stop({
        order: 1,
        progress: 'departed',
        arrivedAt: NOW - 300 * MIN,
        departedAt: NOW - 10 * MIN,
        freeMinutes: 120,
      }),
    ]);
    expect(at(left)).toBeUndefined();
  });

  it('a stay left open by a phone dark at the stop says what the pings prove', () => {
    const atStop: DarkReason = { reason: 'at-stop', at: NOW - 45 * MIN, stopOrder: 2, meters: 50 };
    const there = (arrivedMinutesAgo: number) =>
      stop({ progress: 'arrived', arrivedAt: NOW - arrivedMinutesAgo * MIN, freeMinutes: 120 });
    // Detention by the clock; the pings prove 155 min inside, 35 of them past the free time.
    expect(at(load(45, [there(200)], { dark: atStop }))).toMatchObject({
      kind: 'detention',
      since: NOW - 80 * MIN,
      open: {
        lastPingAt: NOW - 45 * MIN,
        meters: 50,
        provenInsideMinutes: 155,
        provenDetentionMinutes: 35,
      },
    });
    // Within the free time: the quiet phone is the exception, and the stay is open all the same.
    expect(at(load(45, [there(100)], { dark: atStop }))).toMatchObject({
      kind: 'stale',
      open: { provenInsideMinutes: 55 },
    });
    // A phone still reporting from the stop: the stay is known, not open.
    expect(at(load(1, [there(200)], { dark: atStop }))?.open).toBeUndefined();
    // Dark at another stop's fence: this stay is not the one left open.
    const elsewhere: DarkReason = { ...atStop, stopOrder: 1 };
    expect(at(load(45, [there(200)], { dark: elsewhere }))?.open).toBeUndefined();
  });

  it('stale: a quiet phone with no stronger reason, since its last ping; never started since dispatch', () => {
    expect(at(load(45, [], { dark: stopped }))).toEqual({
      kind: 'stale',
      since: NOW - 45 * MIN,
      occurrence: `ping ${NOW - 45 * MIN}`,
    });
    // Silent (two hours and more) is still this kind.
    expect(at(load(300, [], { dark: stopped }))?.kind).toBe('stale');
    const dispatched: DarkReason = { reason: 'never-started', at: NOW - 90 * MIN };
    expect(at(load(undefined, [], { dark: dispatched }))).toEqual({
      kind: 'stale',
      since: NOW - 90 * MIN,
      occurrence: 'no ping',
    });
  });

  it('one exception per load, the most severe', () => {
    const passed = stop({ appointment: appointment(NOW - 10 * MIN) });
    expect(at(load(45, [passed], { dark: moving }))?.kind).toBe('late');
    const detained = stop({ progress: 'arrived', arrivedAt: NOW - 200 * MIN, freeMinutes: 120 });
    expect(at(load(45, [detained], { dark: moving }))?.kind).toBe('dark-moving');
    expect(at(load(45, [detained], { dark: stopped }))?.kind).toBe('detention');
    const risky = stop({ status: 'at-risk', lateMinutes: -5, appointment: appointment(NOW + 30 * MIN) });
    expect(at(load(45, [risky], { dark: stopped }))?.kind).toBe('at-risk');
    expect(EXCEPTION_ORDER.map(exceptionRank)).toEqual([0, 1, 2, 3, 4]);
  });

  it('a finished load, delivered or cancelled, never has one', () => {
    const passed = stop({ appointment: appointment(NOW - 300 * MIN) });
    for (const finished of [
      { status: 'Delivered' },
      { status: 'Load cancelled' },
      { status: 'Closed', code: 'CXL' },
    ])
      expect(at(load(400, [passed], { dark: moving, ...finished }))).toBeUndefined();
    // Not a finished one: "Delivery attempt failed" still needs action.
    expect(at(load(400, [passed], { dark: moving, status: 'Delivery attempt failed' }))?.kind).toBe('late');
  });

  it('a load judged before follows its newer status: delivered leaves, an attempt failed comes back', () => {
    const passed = stop({ appointment: appointment(NOW - 300 * MIN) });
    const late = load(400, [passed], { dark: moving });
    expect(at(late)?.kind).toBe('late');
    // The merge brings a newer status object; the old one is judged as before.
    const status = (name: string, minutes: number) => ({
      ...late.latestStatus!,
      key: name,
      name,
      instant: NOW - minutes * MIN,
    });
    const delivered = applyDelta(late, { ...late, latestStatus: status('Delivered', 5) });
    expect(isFinished(delivered.latestStatus)).toBe(true);
    expect(at(delivered)).toBeUndefined();
    const failed = applyDelta(delivered, { ...late, latestStatus: status('Delivery attempt failed', 1) });
    expect(statusPhase(failed.latestStatus)).toBe('other');
    expect(at(failed)?.kind).toBe('late');
    expect(at(late)?.kind).toBe('late');
  });
});
