import { describe, expect, it } from 'vitest';
import { appointmentOf } from '@/domain/appointment';
import { wireStops } from './app';
import { generateFleet, instantOf } from './fleet';

const startedAt = Date.parse('2026-11-22T15:00:00Z');
const fleet = generateFleet({ seed: 7, loads: 200, speed: 60, startedAt });

describe('the stops the simulator sends (issue 36)', () => {
  it('writes each appointment in the stop local time with its offset from GMT, which reads back to the instant', () => {
    for (const plan of fleet.filter((p) => p.stopStyle === 'plain').slice(0, 40)) {
      wireStops(plan, 60).forEach((wire, i) => {
        const stop = plan.stops[i]!;
        expect(wire).toMatchObject({
          orderNumber: i + 1,
          stopType: i === 0 ? 'PICKUP' : 'DELIVERY',
          city: stop.city.name,
        });
        if (stop.appointmentMinute === undefined) {
          expect(wire.datetime).toBeNull();
          return;
        }
        expect(wire.datetime).toMatch(/^\d\d\/\d\d\/\d{4} \d\d:\d\d$/);
        const back = appointmentOf(wire.datetime as string, wire.stopGMTDiff as string);
        // The text is to the minute.
        expect(Math.abs(back!.instant! - instantOf(plan, stop.appointmentMinute, 60))).toBeLessThan(60_000);
      });
    }
  });

  it('sends some stops carelessly (numbers as text, no offset) and some with no appointment', () => {
    const styles = new Set(fleet.map((p) => p.stopStyle));
    expect(styles).toEqual(new Set(['plain', 'odd', 'no-offset']));
    const odd = wireStops(
      fleet.find((p) => p.stopStyle === 'odd')!,
      60,
    )[0]!;
    expect(typeof odd.orderNumber).toBe('string');
    expect(typeof odd.lat).toBe('string');
    expect(typeof odd.zipcode).toBe('number');
    expect(
      wireStops(
        fleet.find((p) => p.stopStyle === 'no-offset')!,
        60,
      )[0],
    ).not.toHaveProperty('stopGMTDiff');
    expect(fleet.some((p) => p.stops.some((s) => s.appointmentMinute === undefined))).toBe(true);
  });

  it('has trips that make their delivery appointment and trips that miss it', () => {
    const margins = fleet.map((p) => p.stops[1]!.appointmentMinute! - p.driveMinutes).filter(Number.isFinite);
    expect(margins.some((m) => m > 90)).toBe(true);
    expect(margins.some((m) => m >= 0 && m < 50)).toBe(true);
    expect(margins.some((m) => m < -30)).toBe(true);
  });

  it('is the same for the same seed', () => {
    const again = generateFleet({ seed: 7, loads: 200, speed: 60, startedAt });
    expect(again.map((p) => wireStops(p, 60))).toEqual(fleet.map((p) => wireStops(p, 60)));
    expect(again.map((p) => [p.dark, p.silentSince])).toEqual(fleet.map((p) => [p.dark, p.silentSince]));
  });
});
