import { dequal } from 'dequal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { testEvent, testPing, trackedLoad, wallText } from '@/testing/loads';
import { sure } from './geofence';
import type { Load, Ping } from './model';
import {
  DEFAULT_OUTLOOK_OPTIONS,
  loadOutlook,
  meters,
  movedMeters,
  Cadence,
  Moves,
  SPEED_WINDOW_HOURS,
  withOutlook,
  withRests,
  type OutlookMemo,
  type OutlookOptions,
} from './outlook';
import { darkReasonWords, etaAgainstAppointment, etaText, stopStatusAt } from './outlook-text';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.parse('2026-11-24T12:00:00Z');
const O: OutlookOptions = { ...DEFAULT_OUTLOOK_OPTIONS, slackMinutes: 60 };
const MILE = 1609.344;
/** Degrees of longitude per mile on the equator, where a parallel is a great circle. */
const LON_PER_MILE = MILE / meters({ lat: 0, lon: 0 }, { lat: 0, lon: 1 });

const ping = (instant: number, lon: number, accuracy: number | null = 10): Ping =>
  testPing(instant, 0, lon, accuracy);
const event = testEvent;

/**
 * Pings every `every` minutes from `from`, east to west along the equator at `mph`, starting at
 * `lon`; with `scale`, on a clock that runs that many times faster.
 */
function drive(from: number, count: number, mph: number, lon = -90, every = 5, scale = 1): Ping[] {
  return Array.from({ length: count }, (_, i) =>
    ping(from + (i * every * MIN) / scale, lon - ((mph * every * i) / 60) * LON_PER_MILE),
  );
}

/** A stop `miles` west of longitude -90 on the equator. */
const stopAt = (order: number, type: string, miles: number, datetime?: string, diff = '-6') => ({
  orderNumber: order,
  stopType: type,
  locationName: `${type} dock`,
  city: type === 'PICKUP' ? 'Memphis' : 'Amarillo',
  state: type === 'PICKUP' ? 'TN' : 'TX',
  lat: 0,
  lon: -90 - miles * LON_PER_MILE,
  ...(datetime ? { datetime, stopGMTDiff: diff } : {}),
});

/** Local wall text (GMT-6) of an instant, as the service writes an appointment. */
const local = (instant: number) => wallText(instant, -6);

const load = trackedLoad;

const rolling = [event(T0 - 2 * HOUR, 'Dispatched', 'DSP'), event(T0 - HOUR, 'In transit', 'ITR')];

describe('ETA and lateness per upcoming stop', () => {
  // Two hours at 50 mph from longitude -90: the last ping is 100 miles west, at T0 + 2 h.
  const pings = drive(T0, 25, 50);
  const last = T0 + 2 * HOUR;
  // 250 miles on from the last ping: 300 road miles at 50 mph is 6 h.
  const eta = last + 6 * HOUR;

  it('is remaining great-circle distance times the road factor at the recent moving speed: on time', () => {
    const stops = [stopAt(1, 'PICKUP', 0), stopAt(2, 'DELIVERY', 350, local(eta + 3 * HOUR))];
    const [pickup, delivery] = loadOutlook(load(pings, rolling, stops), O)!.stops;
    expect(pickup).toMatchObject({ progress: 'departed', status: 'no-appointment' });
    expect(delivery).toMatchObject({ progress: 'upcoming', status: 'on-time', lateMinutes: -180 });
    expect(delivery!.eta).toBeCloseTo(eta, -5);
    expect(delivery!.etaInputs).toEqual({
      from: last,
      miles: 300,
      mph: 50,
      measured: true,
      rests: 0,
      restHours: 10,
    });
  });

  it('is at risk when the ETA falls within the slack before the appointment', () => {
    const stops = [stopAt(2, 'DELIVERY', 350, local(eta + 30 * MIN))];
    expect(loadOutlook(load(pings, rolling, stops), O)!.stops[0]).toMatchObject({
      status: 'at-risk',
      lateMinutes: -30,
    });
  });

  it('is late when the ETA is after the appointment, and says by how much with its inputs', () => {
    const stops = [stopAt(2, 'DELIVERY', 350, local(eta - 70 * MIN))];
    const [stop] = loadOutlook(load(pings, rolling, stops), O)!.stops;
    expect(stop).toMatchObject({ status: 'late', lateMinutes: 70 });
    // 20:00 UTC is 14:00 at GMT-6.
    expect(etaText(stop!)).toBe(
      '300 mi at 50 mph → ETA Nov 24, 14:00 GMT-6; appointment 12:50 → 1 h 10 min late',
    );
  });

  it('says "no appointment" for a stop without one, with an ETA all the same', () => {
    const [stop] = loadOutlook(load(pings, rolling, [stopAt(2, 'DELIVERY', 350)]), O)!.stops;
    expect(stop).toMatchObject({ status: 'no-appointment', progress: 'upcoming' });
    expect(stop!.lateMinutes).toBeUndefined();
    expect(etaText(stop!)).toMatch(/; no appointment$/);
  });

  it('cannot judge an appointment whose offset from GMT is unknown', () => {
    const stop = { ...stopAt(2, 'DELIVERY', 350, local(eta)), stopGMTDiff: null };
    expect(loadOutlook(load(pings, rolling, [stop]), O)!.stops[0]).toMatchObject({ status: 'unknown' });
  });

  it('adds a 10 h rest after 11 h of driving', () => {
    // 5 h driven already; 1,000 road miles at 50 mph is 20 h: 6 h, a rest, 11 h, a rest, 3 h.
    const long = drive(T0, 61, 50);
    const stops = [stopAt(2, 'DELIVERY', 250 + 1000 / 1.2)];
    const [stop] = loadOutlook(load(long, rolling, stops), O)!.stops;
    expect(stop!.etaInputs).toMatchObject({ miles: 1000, rests: 2, restHours: 10 });
    expect(stop!.eta).toBeCloseTo(T0 + 5 * HOUR + 40 * HOUR, -5);
    expect(etaText(stop!)).toMatch(/^1000 mi at 50 mph \+ 2 rests of 10 h → ETA/);
  });

  it('counts the hours since a stand of 10 h as rested, and takes the rule from its options', () => {
    expect(withRests(10, 0, O)).toEqual({ hours: 10, rests: 0, drivenAfter: 10 });
    expect(withRests(12, 0, O)).toEqual({ hours: 22, rests: 1, drivenAfter: 1 });
    expect(withRests(12, 0, { driveHours: 8, restHours: 2 })).toEqual({
      hours: 14,
      rests: 1,
      drivenAfter: 4,
    });
    // 6 h driven, a 10 h stand, then 2 h: only the last 2 h count, and 8.5 h more need no rest.
    const rested = [...drive(T0, 73, 50), ...drive(T0 + 16 * HOUR, 25, 50, -90 - 300 * LON_PER_MILE)];
    const stop = stopAt(2, 'DELIVERY', 400 + (8.5 * 50) / 1.2);
    expect(loadOutlook(load(rested, rolling, [stop]), O)!.stops[0]!.etaInputs!.rests).toBe(0);
  });

  it('bounds the measured speed and uses the usual one when too few pings moved', () => {
    const fast = drive(T0, 25, 90);
    expect(
      loadOutlook(load(fast, rolling, [stopAt(2, 'DELIVERY', 900)]), O)!.stops[0]!.etaInputs,
    ).toMatchObject({ mph: 65, measured: true });
    const parked = [ping(T0, -90), ping(T0 + 5 * MIN, -90)];
    expect(
      loadOutlook(load(parked, rolling, [stopAt(2, 'DELIVERY', 900)]), O)!.stops[0]!.etaInputs,
    ).toMatchObject({ mph: 50, measured: false });
  });

  it('runs on the simulator clock when asked: a demo hour in a real minute', () => {
    // 100 miles in 2 real minutes at clockScale 60 is 50 mph.
    const quick = drive(T0, 25, 50, -90, 5, 60);
    const stops = [stopAt(2, 'DELIVERY', 350)];
    const [stop] = loadOutlook(load(quick, rolling, stops), { ...O, clockScale: 60 })!.stops;
    expect(stop!.etaInputs).toMatchObject({ mph: 50, miles: 300 });
    expect(stop!.eta).toBeCloseTo(T0 + 2 * MIN + 6 * MIN, -4);
  });

  it('on the demo clock shows an ETA that agrees with the lateness beside it', () => {
    // 60x: the last ping at T0 + 2 min (06:02 GMT-6), then 6 h 28 min of road on the track's clock,
    // 6 min 28 s of real time. The appointment at 06:08 is 28 s before the real ETA: 28 track minutes.
    const quick = drive(T0, 25, 50, -90, 5, 60);
    const miles = 100 + (50 * (6 + 28 / 60)) / 1.2;
    const stops = [stopAt(2, 'DELIVERY', miles, local(T0 + 8 * MIN))];
    const [stop] = loadOutlook(load(quick, rolling, stops), { ...O, clockScale: 60 })!.stops;
    expect(stop).toMatchObject({ status: 'late', lateMinutes: 28 });
    // Not "ETA 06:08 … appointment 06:08 → 28 min late".
    expect(etaText(stop!)).toBe(
      '323 mi at 50 mph → ETA Nov 24, 06:36 GMT-6; appointment 06:08 → 28 min late',
    );
    expect(etaAgainstAppointment(stop!)).toBe('ETA Nov 24, 06:36 GMT-6, appointment Nov 24, 06:08 GMT-6');
  });

  it('rounds the ETA shown as it rounds the lateness, on a real clock too', () => {
    // 40 s past the appointment is "1 min late": the ETA says the next minute, not the appointment's.
    const stops = [stopAt(2, 'DELIVERY', 350, local(eta))];
    const [judged] = loadOutlook(load(pings, rolling, stops), O)!.stops;
    const stop = { ...judged!, eta: judged!.appointment!.instant! + 40_000, lateMinutes: 1 };
    expect(etaAgainstAppointment(stop)).toBe('ETA Nov 24, 14:01 GMT-6, appointment Nov 24, 14:00 GMT-6');
    expect(etaText(stop)).toMatch(/→ ETA Nov 24, 14:01 GMT-6; appointment 14:00 → 1 min late$/);
    // With no appointment the ETA alone is to the nearest minute.
    const { appointment: _none, lateMinutes: _late, ...alone } = stop;
    expect(etaAgainstAppointment(alone)).toBe('ETA Nov 24, 20:01 UTC, appointment not known');
  });

  it('is late once the appointment passes before the stop is reached, whatever the ETA said', () => {
    const stops = [stopAt(2, 'DELIVERY', 350, local(eta + 3 * HOUR))];
    const [stop] = loadOutlook(load(pings, rolling, stops), O)!.stops;
    expect(stopStatusAt(stop!, eta).status).toBe('on-time');
    expect(stopStatusAt(stop!, eta + 3 * HOUR + MIN)).toEqual({ status: 'late', passed: true });
  });

  it('marks stops reached from arrival and departure events, and judges arrival against the appointment', () => {
    const events = [
      event(T0 - 3 * HOUR, 'Dispatched', 'DSP'),
      event(T0 - 50 * MIN, 'Arrived at pickup', 'APU'),
      event(T0 - 5 * MIN, 'Departed pickup', 'DPU'),
    ];
    const stops = [stopAt(1, 'PICKUP', 0, local(T0 - HOUR)), stopAt(2, 'DELIVERY', 350)];
    const [pickup, delivery] = loadOutlook(load(pings, events, stops), O)!.stops;
    expect(pickup).toMatchObject({
      progress: 'departed',
      arrivedAt: T0 - 50 * MIN,
      departedAt: T0 - 5 * MIN,
      status: 'late',
      lateMinutes: 10,
    });
    expect(delivery).toMatchObject({ progress: 'upcoming' });
  });

  it('marks a stop arrived from the pings inside its radius, widened by their accuracy', () => {
    const there = [...drive(T0, 5, 50), ping(T0 + 30 * MIN, -90 - 350 * LON_PER_MILE + 0.004, 200)];
    const stops = [stopAt(1, 'PICKUP', 0), stopAt(2, 'DELIVERY', 350, local(T0))];
    const [, delivery] = loadOutlook(load(there, rolling, stops), O)!.stops;
    expect(delivery).toMatchObject({
      progress: 'arrived',
      arrivedAt: T0 + 30 * MIN,
      status: 'late',
      lateMinutes: 30,
    });
  });

  it('reads only the trip now when a load id was reused for a next trip', () => {
    const events = [
      event(T0 - 30 * HOUR, 'Dispatched', 'DSP'),
      event(T0 - 20 * HOUR, 'Delivered', 'DLV'),
      event(T0 - 2 * HOUR, 'Load track created', 'CRT'),
    ];
    const old = drive(T0 - 29 * HOUR, 10, 50);
    const outlook = loadOutlook(load(old, events, [stopAt(1, 'PICKUP', 0), stopAt(2, 'DELIVERY', 350)]), O)!;
    expect(outlook.dark).toMatchObject({ reason: 'never-started', at: T0 - 2 * HOUR });
    expect(outlook.stops.map((s) => s.progress)).toEqual(['upcoming', 'upcoming']);
  });

  it('has no outlook for a finished load with no stops, and no dark reason for a finished one', () => {
    const delivered = [...rolling, event(T0 + 3 * HOUR, 'Delivered', 'DLV')];
    expect(loadOutlook(load(pings, delivered, []), O)).toBeUndefined();
    const outlook = loadOutlook(load(pings, delivered, [stopAt(2, 'DELIVERY', 100)]), O)!;
    expect(outlook.dark).toBeUndefined();
    expect(outlook.stops[0]!.progress).not.toBe('upcoming');
  });
});

describe('why a load is dark', () => {
  const stops = [stopAt(1, 'PICKUP', 0), stopAt(2, 'DELIVERY', 350)];
  const dark = (pings: Ping[], events = rolling) => loadOutlook(load(pings, events, stops), O)!.dark!;

  it('never started: dispatched, no ping', () => {
    const d = dark([], [event(T0, 'Dispatched', 'DSP')]);
    expect(d).toEqual({ reason: 'never-started', at: T0 });
    expect(darkReasonWords(d).title).toBe('Never started');
  });

  it('went dark while moving: the speed of its last pings', () => {
    const d = dark(drive(T0, 12, 55));
    expect(d).toEqual({ reason: 'moving', at: T0 + 55 * MIN, mph: 55 });
    expect(darkReasonWords(d)).toMatchObject({
      title: 'Went dark while moving',
      evidence: 'Its last pings moved at 55 mph',
    });
  });

  it('went dark at a stop: its last ping inside the stop radius', () => {
    const atPickup = [ping(T0, -90.001), ping(T0 + 5 * MIN, -90.001)];
    const d = dark(atPickup);
    expect(d).toMatchObject({ reason: 'at-stop', stopOrder: 1 });
    expect(d.meters).toBe(111);
    const outlook = loadOutlook(load(atPickup, rolling, stops), O)!;
    expect(darkReasonWords(d, outlook.stops).evidence).toMatch(
      /^Last ping \d+ m from Stop 1 \(pickup\), PICKUP dock, Memphis, TN$/,
    );
  });

  it('went dark while stopped away from its stops', () => {
    const parked = [ping(T0, -91), ping(T0 + 5 * MIN, -91.00001), ping(T0 + 10 * MIN, -91)];
    expect(dark(parked)).toEqual({ reason: 'stopped', at: T0 + 10 * MIN });
  });

  it('intermittent: gaps well over its own usual cadence', () => {
    // Every 5 minutes, with four gaps of 40.
    const times: number[] = [];
    for (let i = 0, t = T0; i < 30; i++) {
      times.push(t);
      t += i % 6 === 5 ? 40 * MIN : 5 * MIN;
    }
    const pings = times.map((t, i) => ping(t, -90 - i * 0.05));
    const d = dark(pings);
    expect(d).toMatchObject({ reason: 'intermittent', gaps: 4, usualMinutes: 5 });
    expect(darkReasonWords(d).evidence).toBe('4 gaps over 3 times its usual 5 min between pings');
  });

  it('intermittent or not by the middle gap of its cadence, whatever the gaps and their order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 90 }), { minLength: 7, maxLength: 60 }), (minutes) => {
        const times = [T0];
        for (const m of minutes) times.push(times[times.length - 1]! + m * MIN);
        // Far from both stops, still (no road speed), so only the cadence decides.
        const d = dark(times.map((t) => ping(t, -85)));
        const sorted = [...minutes].sort((a, b) => a - b);
        const usual = sorted[sorted.length >> 1]!;
        const long = minutes.filter((m) => m > 3 * usual).length;
        if (long >= 3) expect(d).toMatchObject({ reason: 'intermittent', gaps: long, usualMinutes: usual });
        else expect(d.reason).toBe('stopped');
      }),
    );
  });

  it("the service's notices: app closed, permission, phone off, not installed", () => {
    const moving = drive(T0, 12, 55);
    const after = T0 + 56 * MIN;
    const cases: [string, string, string][] = [
      ['Tracking stopped: app closed by the driver', 'app-closed', 'App closed'],
      ['Location permission changed to While Using', 'permission', 'Location permission not "Always"'],
      ['Device powered off', 'phone-off', 'Phone off'],
      ['App not installed', 'not-installed', 'App not installed'],
    ];
    for (const [name, kind, title] of cases) {
      const d = dark(moving, [...rolling, event(after, name)]);
      expect(d).toEqual({ reason: 'notice', at: after, notice: name, noticeKind: kind });
      expect(darkReasonWords(d).title).toBe(title);
    }
  });

  it('a notice up to a minute before the last ping is the reason, an older one is not', () => {
    const moving = drive(T0, 12, 55);
    const lastAt = moving[moving.length - 1]!.instant;
    const off = (at: number) => dark(moving, [...rolling, event(at, 'Device powered off')]);
    expect(off(lastAt - 30_000)).toMatchObject({ reason: 'notice', at: lastAt - 30_000 });
    expect(off(lastAt - 60_000)).toMatchObject({ reason: 'notice', at: lastAt - 60_000 });
    expect(off(lastAt - 61_000).reason).toBe('moving');
  });

  it('an old notice the pings went on after is no reason', () => {
    const events = [rolling[0]!, event(T0 - 30 * MIN, 'Device powered off'), rolling[1]!];
    expect(dark(drive(T0, 12, 55), events).reason).toBe('moving');
  });

  it('leaves cell-tower fixes out of speeds and stops', () => {
    const parked = [ping(T0, -91), ping(T0 + 5 * MIN, -91), ping(T0 + 10 * MIN, -91.2, 3000)];
    expect(dark(parked).reason).toBe('stopped');
  });
});

describe('a memo of the last reckoning', () => {
  // Each ping: seconds after the one before, where it is (miles west; near a stop half the time), its accuracy.
  const step = fc.record({
    // Mostly a steady cadence, now and then a long gap: some trips come out intermittent.
    gap: fc.oneof(
      { arbitrary: fc.integer({ min: 60, max: 480 }), weight: 9 },
      { arbitrary: fc.integer({ min: 1800, max: 7200 }), weight: 1 },
    ),
    miles: fc.oneof(fc.constantFrom(0, 0.05, 120, 120.1), fc.double({ min: -5, max: 130, noNaN: true })),
    accuracy: fc.constantFrom(10, 250, 3000, null),
  });
  const stops = [
    stopAt(1, 'PICKUP', 0, local(T0 + 2 * HOUR)),
    stopAt(2, 'DELIVERY', 120, local(T0 + 20 * HOUR)),
  ];

  it('gives the outlook a whole new reckoning gives, as the track grows in batches', () => {
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 1, maxLength: 260, size: 'max' }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 30 }),
        fc.option(fc.nat(), { nil: undefined }),
        // Status events that come with the batches: arrivals, departures, a notice, a delivery and
        // the next trip's dispatch (a new trip start).
        fc.array(
          fc.constantFrom(
            ['Arrived at pickup', 'APU'],
            ['Departed pickup', 'DPU'],
            ['Arrived at delivery', undefined],
            ['Phone powered off', undefined],
            ['Delivered', 'D1'],
            ['Dispatched', 'DSP'],
          ),
          { maxLength: 5 },
        ),
        (steps, batches, late, news) => {
          let at = T0;
          const all = steps.map((s) => {
            at += s.gap * 1000;
            return ping(at, -90 - s.miles * LON_PER_MILE, s.accuracy);
          });
          const memo = {};
          let pings: Ping[] = [];
          let events = rolling;
          let b = 0;
          while (pings.length < all.length) {
            const next = all.slice(pings.length, pings.length + batches[b++ % batches.length]!);
            pings = [...pings, ...next];
            const said = news[b - 1];
            if (said) events = [...events, event(pings[pings.length - 1]!.instant, said[0]!, said[1])];
            // Now and then a ping that came in late, among those already read.
            if (late !== undefined && b === 2 && pings.length > 2) {
              const i = 1 + (late % (pings.length - 1));
              const between = (pings[i - 1]!.instant + pings[i]!.instant) / 2;
              pings = [...pings.slice(0, i), ping(between, -90 - 0.02 * LON_PER_MILE), ...pings.slice(i)];
            }
            const l = load(pings, events, stops);
            expect(loadOutlook(l, O, l.pings, memo)).toEqual(loadOutlook(l, O));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps the recent speed and the hours driven since a rest as a walk back over the moves finds them', () => {
    // The walk back from the last move (whole milliseconds and micrometres, so that the order of the
    // sums does not matter): the speed over the moves that began within the window before the last
    // sure ping, and the driving since the last stand of a rest's length.
    const walked = (pings: Ping[], o: OutlookOptions) => {
      const held = pings.filter(sure);
      const last = held[held.length - 1];
      let [ms, um, driven, still] = [0, 0, 0, 0];
      let inWindow = true;
      let rested = false;
      for (let i = held.length - 1; i > 0; i--) {
        const [a, b] = [held[i - 1]!, held[i]!];
        const gap = b.instant - a.instant;
        const d = movedMeters(a, b, o);
        const drives = d !== undefined && (gap * o.clockScale) / HOUR <= 1;
        inWindow &&= ((last!.instant - a.instant) * o.clockScale) / HOUR <= SPEED_WINDOW_HOURS;
        if (inWindow && drives) [ms, um] = [ms + gap, um + Math.round(d * 1e6)];
        if (rested) continue;
        if (drives) [driven, still] = [driven + gap, 0];
        else if (((still += gap) * o.clockScale) / HOUR >= o.restHours * 0.95) rested = true;
      }
      const hours = (ms * o.clockScale) / HOUR;
      const mph =
        hours < 0.25 ? o.defaultMph : Math.min(o.maxMph, Math.max(o.minMph, um / 1e6 / MILE / hours));
      return { mph, measured: hours >= 0.25, driven: Math.min((driven * o.clockScale) / HOUR, o.driveHours) };
    };
    // Short rests and drives, and a faster clock, so that rests and full shifts come in short trips.
    const options = fc.constantFrom(O, { ...O, restHours: 0.6, driveHours: 1.5 }, { ...O, clockScale: 3 });
    // Quarter hours now and then: a move that began exactly the window's length before the last.
    const trips = fc.array(
      fc.oneof(
        step,
        step.map((s) => ({ ...s, gap: 900 })),
      ),
      {
        minLength: 1,
        maxLength: 200,
      },
    );
    fc.assert(
      fc.property(trips, options, (steps, o) => {
        let at = T0;
        const pings = steps.map((s) => ping((at += s.gap * 1000), -90 - s.miles * LON_PER_MILE, s.accuracy));
        const moves = new Moves();
        for (let i = 0; i < pings.length; i++) {
          moves.add(pings, i, o);
          const want = walked(pings.slice(0, i + 1), o);
          expect({ ...moves.speed(o), driven: moves.drivenSinceRest(o) }).toEqual(want);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads the usual gap and the long ones of the last pings, in 32 bits while gaps are whole ms', () => {
    const gap = fc.oneof(
      { arbitrary: fc.integer({ min: 0, max: 600_000 }), weight: 8 },
      { arbitrary: fc.double({ min: 0, max: 600_000, noNaN: true }), weight: 1 },
      { arbitrary: fc.integer({ min: 2 ** 32 - 2, max: 2 ** 33 }), weight: 1 },
    );
    fc.assert(
      fc.property(
        fc.array(gap, { minLength: 1, maxLength: 400 }),
        fc.integer({ min: 1, max: 399 }),
        (gaps, cut) => {
          let at = T0;
          const pings = [ping(at, -90), ...gaps.map((g) => ping((at += g), -90))];
          const first = Math.min(cut, pings.length);
          const cadence = Cadence.of(pings.slice(0, first));
          for (let i = first; i < pings.length; i++) cadence.add(pings, i);
          const window = pings.slice(-200);
          const sorted = window.slice(1).map((p, i) => p.instant - window[i]!.instant);
          sorted.sort((a, b) => a - b);
          expect(cadence.length).toBe(sorted.length);
          expect(cadence.usual()).toBe(sorted[sorted.length >> 1]);
          for (const bar of [0, 60_000, 2 ** 32 - 1, 2 ** 32])
            expect(cadence.longerThan(bar)).toBe(sorted.filter((g) => g > bar).length);
          if (sorted.every((g) => Number.isInteger(g) && g < 2 ** 32)) expect(cadence.bytes).toBe(4 * 199);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('holds the moves of the speed window only, however long the trip', () => {
    // Two days of a ping a minute, driving and resting: 2,880 moves read, 180 in a 3-hour window.
    const pings: Ping[] = [];
    for (let i = 0; i < 2880; i++)
      pings.push(ping(T0 + i * MIN, -90 - Math.floor(i / 30) * 0.5 * LON_PER_MILE * (i % 600 < 480 ? 1 : 0)));
    const moves = new Moves();
    let most = 0;
    for (let i = 0; i < pings.length; i++) {
      moves.add(pings, i, O);
      most = Math.max(most, moves.bytes);
    }
    expect(moves.length).toBe(2879);
    // Every move kept would be 8 bytes each, 23 KiB; the window's with room to slide, under 4.
    expect(most).toBeLessThanOrEqual(4096);
  });

  it('keeps the outlook held exactly when a new reckoning says the same but its asOf', () => {
    // Each step brings pings (none at times), an event (none at times), or both: an event alone moves
    // a stop's progress or the dark reason and leaves its ETAs and last ping as they were.
    const update = fc.record({
      pings: fc.oneof(fc.array(step, { maxLength: 0 }), fc.array(step, { minLength: 1, maxLength: 6 })),
      said: fc.option(
        fc.constantFrom(
          ['Arrived at pickup', 'APU'],
          ['Departed pickup', 'DPU'],
          ['Arrived at delivery', 'ADL'],
          ['Departed delivery', 'DDL'],
          ['Phone powered off', undefined],
          ['Tracking stopped: app closed by the driver', undefined],
          ['Sent text message to driver', undefined],
        ),
        { nil: undefined },
      ),
    });
    fc.assert(
      fc.property(fc.array(update, { minLength: 2, maxLength: 40 }), (updates) => {
        let at = T0;
        let pings: Ping[] = [];
        let events = rolling;
        let held: Load | undefined;
        const memo = {};
        for (const u of updates) {
          pings = [
            ...pings,
            ...u.pings.map((s) => {
              at += s.gap * 1000;
              return ping(at, -90 - s.miles * LON_PER_MILE, s.accuracy);
            }),
          ];
          if (u.said) events = [...events, event((at += 1000), u.said[0]!, u.said[1])];
          const l = { ...load(pings, events, stops), ...(held?.outlook ? { outlook: held.outlook } : {}) };
          const before = held?.outlook;
          const fresh = loadOutlook(l, O);
          held = withOutlook(l, before, O, l.pings, memo);
          if (before && fresh && dequal({ ...fresh, asOf: before.asOf }, before))
            expect(held.outlook).toBe(before);
          else {
            expect(held.outlook).not.toBe(before);
            expect(held.outlook && { ...held.outlook, asOf: 0 }).toEqual(fresh && { ...fresh, asOf: 0 });
            // Newer than the one held, that a browser merging answers keeps it.
            if (fresh) expect(held.outlook!.asOf).toBe(Math.max(fresh.asOf, (before?.asOf ?? -Infinity) + 1));
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('makes a reached stop again when its details, the options or what told its arrival change', () => {
    const memo: OutlookMemo = {};
    // At the pickup from the first ping, gone after 5 minutes; the delivery far ahead.
    const pings = drive(T0, 30, 55);
    const stops = (appointment?: string, name = 'PICKUP') => [
      { ...stopAt(1, name, 0, appointment), stopType: 'PICKUP' },
      stopAt(2, 'DELIVERY', 400),
    ];
    const same = (l: Load, o = O) => expect(loadOutlook(l, o, l.pings, memo)).toEqual(loadOutlook(l, o));
    // Each list read once, as a merge that brings no new stops keeps the list.
    const plain = stops();
    const dock = stops(local(T0 - HOUR), 'Dock 4');
    same(load(pings, rolling, plain));
    // The same place, now with an appointment and another name.
    same(load(pings, rolling, dock));
    same(load(pings, rolling, dock), { ...O, freeMinutes: 30, clockScale: 2 });
    same(load(pings, rolling, plain));
    // The driver taps "arrived" at the very instant of the first ping in: told by the event now.
    const tapped = load(pings, [...rolling, event(T0, 'Arrived at pickup', 'APU')], plain);
    same(tapped);
    expect(loadOutlook(tapped, O, tapped.pings, memo)?.stops[0]?.arrivedBy).toBe('event');
  });

  it("finds the trip's first ping again in a track thinned or cut short", () => {
    const memo: OutlookMemo = {};
    // An hour of pings before the dispatch (at T0 - 2 h), then the trip from its pickup on.
    const pings = drive(T0 - 3 * HOUR, 60, 55, -90 + 55 * LON_PER_MILE);
    const stops = [stopAt(1, 'PICKUP', 0), stopAt(2, 'DELIVERY', 400)];
    const same = (track: Ping[]) => {
      const l = load(track, rolling, stops);
      expect(loadOutlook(l, O, track, memo)).toEqual(loadOutlook(l, O, track));
    };
    same(pings);
    // Every other ping before the trip's start left out: the trip's first ping comes earlier.
    same(pings.filter((p, i) => p.instant >= T0 - 2 * HOUR || i % 2 === 0));
    // Only the trip's last pings kept: fewer than there were before its start.
    same(pings.slice(-5));
  });

  it('keeps one number a ping read, with little to spare, however the pings came', () => {
    // One memo is held per watched load: its moves must not double as they grow.
    const stops = [stopAt(1, 'PICKUP', 0), stopAt(2, 'DELIVERY', 400)];
    const pings = drive(T0, 1100, 55);
    const atOnce: OutlookMemo = {};
    loadOutlook(load(pings, rolling, stops), O, pings, atOnce);
    expect(atOnce.moves?.length).toBe(1099);
    expect(atOnce.moves?.bytes).toBeLessThanOrEqual((1100 + 275 + 16) * 8);
    const oneByOne: OutlookMemo = {};
    for (let n = 1; n <= pings.length; n++)
      loadOutlook(load(pings.slice(0, n), rolling, stops), O, pings.slice(0, n), oneByOne);
    expect(oneByOne.moves?.length).toBe(1099);
    expect(oneByOne.moves?.bytes).toBeLessThanOrEqual((1100 + 137 + 16) * 8);
  });

  it('starts again for new stops and for a new trip', () => {
    const memo = {};
    const pings = drive(T0, 30, 55);
    const at = (pickupMiles: number) => [stopAt(1, 'PICKUP', pickupMiles), stopAt(2, 'DELIVERY', 400)];
    // The first ping is at the pickup: arrived, and gone 5 minutes later.
    const first = loadOutlook(load(pings, rolling, at(0)), O, pings, memo);
    expect(first?.stops[0]).toMatchObject({ arrivedAt: T0, departedAt: T0 + 5 * MIN });
    const moved = load(pings, rolling, at(60));
    expect(loadOutlook(moved, O, pings, memo)).toEqual(loadOutlook(moved, O));
    const newTrip = [...rolling, event(T0 - 10 * MIN, 'Dispatched', 'DSP')];
    const again = load(pings, newTrip, at(0));
    expect(loadOutlook(again, O, pings, memo)).toEqual(loadOutlook(again, O));
  });

  it("reads a load's new status and new events again, not what its memo read of the old", () => {
    const memo: OutlookMemo = {};
    const pings = drive(T0, 12, 55);
    const stops = [stopAt(1, 'PICKUP', 0), stopAt(2, 'DELIVERY', 400)];
    const first = load(pings, rolling, stops);
    loadOutlook(first, O, pings, memo);
    // An event after the last ping, in a new list: the outlook is as of it.
    const later = [...rolling, event(T0 + 2 * HOUR, 'Driver note', 'NT')];
    const noted = { ...first, events: later };
    expect(loadOutlook(noted, O, pings, memo)?.asOf).toBe(T0 + 2 * HOUR);
    expect(loadOutlook(noted, O, pings, memo)).toEqual(loadOutlook(noted, O));
    // A delivered status, a new object: the phone's silence is no longer a reason.
    const delivered = { ...noted, latestStatus: event(T0 + 3 * HOUR, 'Delivered', 'D1') };
    const done = loadOutlook(delivered, O, pings, memo);
    expect(done).toEqual(loadOutlook(delivered, O));
    expect(done?.dark).toBeUndefined();
    expect(done?.asOf).toBe(T0 + 3 * HOUR);
  });
});
