import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExceptionAck } from '@/contract/exceptions-api';
import type { DarkReason, Load, StopOutlook } from '@/domain/model';
import { DEFAULT_THRESHOLDS, type StalenessThresholds } from '@/domain/staleness';
import { emptyLoad, testLatestLocation, testTime } from '@/testing/loads';
import { exceptionRows, keptExceptionRows, type ExceptionRow } from './exceptions-model';
import { shownRows } from './shown-rows';

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

/** A load late for its next delivery, due `due` minutes from NOW, its last ping `pingAgo` minutes ago. */
const late = (i: number, due: number, lateMinutes: number, pingAgo = 2): Load =>
  toLoad(i, {
    pingAgo,
    status: 'In transit',
    stops: [
      { order: 2, type: 'delivery', progress: 'upcoming', status: 'late', lateMinutes, due, arrivedAgo: 0 },
    ],
    dark: undefined,
    clockScale: undefined,
  });

function toAck(i: number, kind: ExceptionAck['kind'], state: string, until: number): ExceptionAck {
  return {
    load: `e:${9000 + i}`,
    kind,
    state: state as ExceptionAck['state'],
    until: state === 'snoozed' ? new Date(NOW + until * MIN).toISOString() : null,
    occurrence: state === 'acknowledged' ? `ping ${NOW - until * MIN}` : null,
    note: null,
    by: 'ann',
    at: new Date(NOW).toISOString(),
    version: 1,
  };
}

const listed = shownRows;

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
          const acks = ackSpecs.map(([i, state, until]) => toAck(i, 'stale', state, until));
          const moments = [
            ...minutes.flatMap((m) => [NOW + m * MIN, NOW + m * MIN + 1, NOW + m * MIN + 999]),
            ...loads.flatMap((l) => edges(l, thresholds)),
          ];
          moments.sort((a, b) => a - b);
          const list = keptExceptionRows();
          for (const now of moments) {
            const kept = list(loads, acks, now, thresholds);
            // Copies are objects never judged before, listed by a list that kept nothing.
            const afresh = keptExceptionRows()(structuredClone(loads), acks, now, thresholds);
            expect(listed(kept)).toEqual(listed(afresh));
          }
        },
      ),
      { numRuns: 200 },
    );
    // Each run judges every moment twice over a dozen loads: seconds on a busy machine.
  }, 60_000);

  it('lists as afresh when some loads change between calls, and when loads, acks or thresholds do', () => {
    const kindArb = fc.constantFrom<ExceptionAck['kind']>(
      'stale',
      'dark-moving',
      'late',
      'detention',
      'at-risk',
    );
    const acksArb = fc.array(
      fc.tuple(
        fc.nat(20),
        kindArb,
        fc.constantFrom('acknowledged', 'snoozed'),
        fc.integer({ min: 0, max: 300 }),
      ),
      { maxLength: 8 },
    );
    const changeArb = fc.oneof(
      // The same load with new data, or the same data in a new object: what a refresh brings.
      fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), spec: loadArb }),
      fc.record({ kind: fc.constant('copy' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('add' as const), at: fc.nat(), spec: loadArb }),
      fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), with: fc.nat() }),
      fc.record({
        kind: fc.constant('thresholds' as const),
        to: fc.constantFrom<StalenessThresholds>(
          DEFAULT_THRESHOLDS,
          { staleAfterMinutes: 10, silentAfterMinutes: 45 },
          { ...DEFAULT_THRESHOLDS, staleAfterMinutes: 10 },
          { ...DEFAULT_THRESHOLDS, silentAfterMinutes: 45 },
        ),
      }),
      fc.record({ kind: fc.constant('acks' as const), to: acksArb }),
      fc.record({ kind: fc.constant('acks copied' as const) }),
    );
    const clockArb = fc.oneof(
      fc.constant({ by: 0 }),
      fc.integer({ min: 1, max: 999 }).map((ms) => ({ by: ms })),
      fc.integer({ min: 1, max: 180 }).map((m) => ({ by: m * MIN })),
      fc.integer({ min: -30, max: -1 }).map((m) => ({ by: m * MIN })),
      // Onto one of the next moments at which a judgement or a snooze may turn, or either side of it.
      fc.nat(8).map((edge) => ({ edge })),
    );
    fc.assert(
      fc.property(
        fc.array(loadArb, { minLength: 1, maxLength: 12 }),
        acksArb,
        fc.array(fc.record({ clock: clockArb, changes: fc.array(changeArb, { maxLength: 3 }) }), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.integer({ min: -60, max: 300 }),
        (specs, ackSpecs, steps, startMinute) => {
          let loads = specs.map((s, i) => toLoad(i, s));
          let next = loads.length;
          const ackOf = (a: typeof ackSpecs) =>
            a.map(([i, kind, state, until]) => toAck(i, kind, state, until));
          let acks = ackOf(ackSpecs);
          let thresholds: StalenessThresholds = DEFAULT_THRESHOLDS;
          let now = NOW + startMinute * MIN;
          const list = keptExceptionRows();
          for (const { clock, changes } of steps) {
            if ('by' in clock) now += clock.by;
            else {
              const snoozes = acks.flatMap((a) =>
                a.until === null ? [] : [-1, 0, 1].map((d) => Date.parse(a.until!) + d),
              );
              const ahead = [...new Set([...loads.flatMap((l) => edges(l, thresholds)), ...snoozes])]
                .filter((t) => t > now)
                .sort((a, b) => a - b);
              if (ahead.length > 0) now = ahead[clock.edge % ahead.length]!;
            }
            for (const c of changes) {
              const at = loads.length > 0 && 'at' in c ? c.at % loads.length : 0;
              if (c.kind === 'replace' && loads.length > 0)
                loads[at] = toLoad(Number(loads[at]!.id) - 9000, c.spec);
              else if (c.kind === 'copy' && loads.length > 0) loads[at] = structuredClone(loads[at]!);
              else if (c.kind === 'add') loads.splice(at, 0, toLoad(next++, c.spec));
              else if (c.kind === 'remove') loads.splice(at, 1);
              else if (c.kind === 'swap' && loads.length > 0) {
                const other = c.with % loads.length;
                [loads[at], loads[other]] = [loads[other]!, loads[at]!];
              } else if (c.kind === 'thresholds') thresholds = c.to;
              else if (c.kind === 'acks') acks = ackOf(c.to);
              else if (c.kind === 'acks copied') acks = [...acks];
            }
            // The caller's array may be the same object, changed in place, or a new one.
            if (changes.length % 2 === 1) loads = [...loads];
            const kept = list(loads, acks, now, thresholds);
            const afresh = keptExceptionRows()(structuredClone(loads), acks, now, thresholds);
            expect(listed(kept)).toEqual(listed(afresh));
          }
        },
      ),
      { numRuns: 1000 },
    );
  }, 60_000);

  it("says a row's words as of its own call, when they are read only after later calls", () => {
    const l = toLoad(1, {
      pingAgo: 2,
      status: 'In transit',
      stops: [
        {
          order: 2,
          type: 'delivery',
          progress: 'arrived',
          status: 'on-time',
          lateMinutes: undefined,
          due: -150,
          arrivedAgo: 150,
        },
      ],
      dark: { reason: 'at-stop', at: NOW - 2 * MIN, stopOrder: 2, meters: 80 },
      clockScale: undefined,
    });
    const later = { staleAfterMinutes: 10, silentAfterMinutes: 20 };
    const list = keptExceptionRows();
    const first = list([l], [], NOW, DEFAULT_THRESHOLDS).open[0]!;
    // Another moment and other thresholds judge the load again before the first row's words are read.
    const second = list([l], [], NOW + 90 * MIN, later).open[0]!;
    expect(second).not.toBe(first);
    const thenAfresh = keptExceptionRows()([l], [], NOW, DEFAULT_THRESHOLDS).open[0]!.evidence;
    const nowAfresh = keptExceptionRows()([l], [], NOW + 90 * MIN, later).open[0]!.evidence;
    expect(thenAfresh).not.toBe(nowAfresh);
    expect(first.evidence).toBe(thenAfresh);
    expect(second.evidence).toBe(nowAfresh);
  });

  it('keeps a row object when loads are added or removed before its load', () => {
    const dark = (i: number) =>
      toLoad(i, {
        pingAgo: 40,
        status: 'In transit',
        stops: [],
        dark: { reason: 'moving', at: NOW - 40 * MIN, mph: 58 },
        clockScale: undefined,
      });
    const [a, b, c] = [dark(1), dark(2), dark(3)];
    const list = keptExceptionRows();
    const rowOf = (rows: { open: ExceptionRow[] }, load: Load) => rows.open.find((r) => r.load === load);
    const first = list([b, c], [], NOW, DEFAULT_THRESHOLDS);
    const added = list([a, b, c], [], NOW + MIN, DEFAULT_THRESHOLDS);
    expect(rowOf(added, b)).toBe(rowOf(first, b));
    expect(rowOf(added, c)).toBe(rowOf(first, c));
    const removed = list([c], [], NOW + 2 * MIN, DEFAULT_THRESHOLDS);
    expect(rowOf(removed, c)).toBe(rowOf(first, c));
  });

  it("gives a listed load's new object a new row, in its old row's place or in its new one", () => {
    const list = keptExceptionRows();
    const afresh = (loads: Load[], now: number) =>
      listed(keptExceptionRows()(loads, [], now, DEFAULT_THRESHOLDS));
    const [a, b, c] = [late(1, 60, 30), late(2, 60, 40), late(3, 120, 50)];
    const first = list([a, b, c], [], NOW, DEFAULT_THRESHOLDS);
    expect(first.open.map((r) => r.load)).toEqual([a, b, c]);
    // A new ping: the same appointment and label, another ETA.
    const pinged = late(2, 60, 45, 1);
    const second = list([a, pinged, c], [], NOW + MIN, DEFAULT_THRESHOLDS);
    expect(second.open.map((r) => r.load)).toEqual([a, pinged, c]);
    expect(second.open[1]).not.toBe(first.open[1]);
    expect(second.open[1]?.exception.stop?.lateMinutes).toBe(45);
    expect(listed(second)).toEqual(afresh([a, pinged, c], NOW + MIN));
    // Its label now sorts before the first's, at the same appointment: before it.
    const renamed = { ...late(2, 60, 45, 1), externalId: '1000' };
    const third = list([a, renamed, c], [], NOW + 2 * MIN, DEFAULT_THRESHOLDS);
    expect(third.open.map((r) => r.load)).toEqual([renamed, a, c]);
    expect(listed(third)).toEqual(afresh([a, renamed, c], NOW + 2 * MIN));
    // Its appointment moved after the third's: its row moves after it.
    const moved = { ...late(2, 180, 45, 1), externalId: '1000' };
    const fourth = list([a, moved, c], [], NOW + 3 * MIN, DEFAULT_THRESHOLDS);
    expect(fourth.open.map((r) => r.load)).toEqual([a, c, moved]);
    expect(listed(fourth)).toEqual(afresh([a, moved, c], NOW + 3 * MIN));
  });

  it('gives a load watched by the other kind of id, at the same place, its own key and ref', () => {
    const byExternal = late(1, 60, 30);
    const list = keptExceptionRows();
    list([byExternal], [], NOW, DEFAULT_THRESHOLDS);
    // The watch list swapped `e:…` for `n:…` of the same id: the same place, another load.
    const byNumber: Load = {
      ...byExternal,
      by: byExternal.by === 'external-id' ? 'load-number' : 'external-id',
    };
    const after = list([byNumber], [], NOW + MIN, DEFAULT_THRESHOLDS);
    expect(listed(after)).toEqual(listed(keptExceptionRows()([byNumber], [], NOW + MIN, DEFAULT_THRESHOLDS)));
  });

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

  it('a snooze hides its load until its time whatever happens meanwhile, another kind included', () => {
    const snooze: ExceptionAck = { ...toAck(1, 'at-risk', 'snoozed', 30), note: 'driver says 11:50' };
    const acknowledged = toAck(1, 'late', 'acknowledged', 99);
    // Now late: the snooze of its at-risk still holds, and says who snoozed it.
    const rows = exceptionRows([late(1, 20, 15)], [snooze], NOW + 10 * MIN, DEFAULT_THRESHOLDS);
    expect(rows.open).toEqual([]);
    expect(rows.handled[0]?.exception.kind).toBe('late');
    expect(rows.handled[0]?.handled).toBe(snooze);
    // An acknowledgement of another kind does not: it holds for its own exception alone.
    const other = exceptionRows(
      [late(1, 20, 15)],
      [{ ...acknowledged, kind: 'at-risk' }],
      NOW,
      DEFAULT_THRESHOLDS,
    );
    expect(other.open.map((r) => r.exception.kind)).toEqual(['late']);
    // The snooze ran out: open again.
    expect(exceptionRows([late(1, 20, 15)], [snooze], NOW + 31 * MIN, DEFAULT_THRESHOLDS).open).toHaveLength(
      1,
    );
  });
});
