import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExceptionAck } from '@/contract/exceptions-api';
import type { DarkReason, Load, StopOutlook } from '@/domain/model';
import { DEFAULT_THRESHOLDS, type StalenessThresholds } from '@/domain/staleness';
import { emptyLoad, testLatestLocation, testTime } from '@/testing/loads';
import { exceptionRows, type ExceptionRow } from './exceptions-model';

const NOW = Date.parse('2026-11-24T15:00:00Z');
const MIN = 60_000;

const stopArb = fc.record({
  order: fc.integer({ min: 1, max: 4 }),
  type: fc.constantFrom('pickup' as const, 'delivery' as const),
  progress: fc.constantFrom('upcoming' as const, 'arrived' as const, 'departed' as const),
  status: fc.constantFrom(
    'on-time' as const,
    'at-risk' as const,
    'late' as const,
    'no-appointment' as const,
    'unknown' as const,
  ),
  lateMinutes: fc.option(fc.integer({ min: -200, max: 200 }), { nil: undefined }),
  due: fc.option(fc.integer({ min: -300, max: 600 }), { nil: undefined }),
  arrivedAgo: fc.integer({ min: 0, max: 400 }),
});

const darkArb: fc.Arbitrary<DarkReason | undefined> = fc.option(
  fc.constantFrom<DarkReason>(
    { reason: 'moving', at: NOW - 45 * MIN, mph: 58 },
    { reason: 'stopped', at: NOW - 45 * MIN },
    { reason: 'never-started', at: NOW - 300 * MIN },
    { reason: 'at-stop', at: NOW - 50 * MIN, stopOrder: 1, meters: 120 },
  ),
  { nil: undefined },
);

const loadArb = fc.record({
  pingAgo: fc.option(fc.integer({ min: -5, max: 400 }), { nil: undefined }),
  status: fc.constantFrom('In transit', 'Dispatched', 'At pickup', 'Delivered', 'Cancelled'),
  stops: fc.array(stopArb, { maxLength: 3 }),
  dark: darkArb,
  clockScale: fc.constantFrom(undefined, 60),
});

type LoadSpec = typeof loadArb extends fc.Arbitrary<infer T> ? T : never;

function toLoad(i: number, l: LoadSpec): Load {
  const ping = l.pingAgo === undefined ? undefined : NOW - l.pingAgo * MIN;
  const stops: StopOutlook[] = l.stops.map((s) => {
    const stop: StopOutlook = { order: s.order, type: s.type, progress: s.progress, status: s.status };
    if (s.lateMinutes !== undefined) stop.lateMinutes = s.lateMinutes;
    if (s.due !== undefined)
      stop.appointment = { local: '11/24/2026 13:00', offsetHours: -6, instant: NOW + s.due * MIN };
    if (s.progress !== 'upcoming') {
      stop.arrivedAt = NOW - s.arrivedAgo * MIN;
      stop.freeMinutes = 120;
    }
    return stop;
  });
  const id = String(9000 + i);
  return emptyLoad(id, 'external-id', {
    latestLocation:
      ping === undefined
        ? undefined
        : testLatestLocation(ping, { key: id, driver: { name: `Driver ${id}`, phone: '+18015550123' } }),
    latestStatus: {
      key: 's',
      instant: NOW - 600 * MIN,
      time: testTime(NOW - 600 * MIN),
      id: undefined,
      name: l.status,
      code: undefined,
      driver: undefined,
    },
    outlook: {
      asOf: ping ?? NOW - 600 * MIN,
      stops,
      ...(l.dark ? { dark: l.dark } : {}),
      ...(l.clockScale !== undefined ? { clockScale: l.clockScale } : {}),
    },
  });
}

/** What a row shows, without the load object it was made from. */
const shown = ({ load: _load, ...row }: ExceptionRow) => row;
const listed = (rows: { open: ExceptionRow[]; handled: ExceptionRow[] }) => ({
  open: rows.open.map(shown),
  handled: rows.handled.map(shown),
});

/** The moments at which a load's judgement may turn, and either side of them. */
function edges(load: Load, t: StalenessThresholds): number[] {
  const at: number[] = [];
  const last = load.latestLocation?.instant;
  if (last !== undefined) at.push(last + t.staleAfterMinutes * MIN, last + t.silentAfterMinutes * MIN);
  for (const s of load.outlook?.stops ?? [])
    if (s.appointment?.instant !== undefined) at.push(s.appointment.instant);
  for (const s of load.outlook?.stops ?? [])
    if (s.arrivedAt !== undefined) {
      const minute = MIN / (load.outlook?.clockScale ?? 1);
      for (let k = 0; k < 3; k++) at.push(s.arrivedAt + (120 + k) * minute);
    }
  return at.flatMap((x) => [x - 1, x, x + 1]);
}

describe('exceptionRows over a clock that runs on', () => {
  it('a load judged at an earlier moment says what one judged afresh says, at every moment', () => {
    fc.assert(
      fc.property(
        fc.array(loadArb, { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: -60, max: 720 }), { maxLength: 12 }),
        fc.array(
          fc.tuple(fc.nat(11), fc.constantFrom('acknowledged', 'snoozed'), fc.integer({ min: 0, max: 300 })),
        ),
        fc.constantFrom(DEFAULT_THRESHOLDS, { staleAfterMinutes: 10, silentAfterMinutes: 45 }),
        (specs, minutes, ackSpecs, thresholds) => {
          const loads = specs.map((s, i) => toLoad(i, s));
          const acks: ExceptionAck[] = ackSpecs.map(([i, state, until]) => ({
            load: `e:${9000 + i}`,
            kind: 'stale',
            state: state as ExceptionAck['state'],
            until: state === 'snoozed' ? new Date(NOW + until * MIN).toISOString() : null,
            occurrence: state === 'acknowledged' ? `ping ${NOW - until * MIN}` : null,
            note: null,
            by: 'ann',
            at: new Date(NOW).toISOString(),
            version: 1,
          }));
          const moments = [
            ...minutes.flatMap((m) => [NOW + m * MIN, NOW + m * MIN + 1, NOW + m * MIN + 999]),
            ...loads.flatMap((l) => edges(l, thresholds)),
          ];
          moments.sort((a, b) => a - b);
          for (const now of moments) {
            const kept = exceptionRows(loads, acks, now, thresholds);
            // Copies are objects never judged before.
            const afresh = exceptionRows(structuredClone(loads), acks, now, thresholds);
            expect(listed(kept)).toEqual(listed(afresh));
          }
        },
      ),
      { numRuns: 200 },
    );
    // Each run judges every moment twice over a dozen loads: seconds on a busy machine.
  }, 60_000);

  it('keeps a row object while nothing in it changed, and makes a new one when it did', () => {
    const l = toLoad(1, {
      pingAgo: 40,
      status: 'In transit',
      stops: [],
      dark: { reason: 'moving', at: NOW - 40 * MIN, mph: 58 },
      clockScale: undefined,
    });
    const first = exceptionRows([l], [], NOW, DEFAULT_THRESHOLDS).open[0];
    expect(first?.exception.kind).toBe('dark-moving');
    expect(exceptionRows([l], [], NOW + 5 * MIN, DEFAULT_THRESHOLDS).open[0]).toBe(first);
    const ack: ExceptionAck = {
      load: 'e:9001',
      kind: 'dark-moving',
      state: 'snoozed',
      until: new Date(NOW + 30 * MIN).toISOString(),
      occurrence: null,
      note: 'called',
      by: 'ann',
      at: new Date(NOW).toISOString(),
      version: 1,
    };
    const snoozed = exceptionRows([l], [ack], NOW + 6 * MIN, DEFAULT_THRESHOLDS);
    expect(snoozed.open).toEqual([]);
    expect(snoozed.handled[0]?.handled).toBe(ack);
    // The snooze ran out: open again.
    expect(exceptionRows([l], [ack], NOW + 31 * MIN, DEFAULT_THRESHOLDS).open[0]?.handled).toBeUndefined();
  });
});
