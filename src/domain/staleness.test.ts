import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextLevelChange, staleness, type StalenessThresholds } from './staleness';

const T: StalenessThresholds = { staleAfterMinutes: 30, silentAfterMinutes: 120 };
const MIN = 60_000;
const at = (instant: number | undefined) => ({
  latestLocation: instant === undefined ? undefined : { instant },
});

describe('staleness', () => {
  it('turns stale and silent at the very minute of each threshold', () => {
    expect(staleness(0, 30 * MIN - 1, T)).toBe('fresh');
    expect(staleness(0, 30 * MIN, T)).toBe('stale');
    expect(staleness(0, 120 * MIN - 1, T)).toBe('stale');
    expect(staleness(0, 120 * MIN, T)).toBe('silent');
    expect(staleness(undefined, 0, T)).toBe('unknown');
  });
});

describe('nextLevelChange', () => {
  it('is the nearest threshold any load crosses after now', () => {
    const now = 1_000 * MIN;
    // Fresh for 10 more minutes; stale, silent in 50; silent already; never reported.
    const loads = [at(now - 20 * MIN), at(now - 70 * MIN), at(now - 200 * MIN), at(undefined)];
    expect(nextLevelChange(loads, now, T)).toBe(now + 10 * MIN);
    expect(nextLevelChange(loads, now + 10 * MIN, T)).toBe(now + 50 * MIN);
    expect(nextLevelChange(loads.slice(2), now, T)).toBe(Infinity);
  });

  it('no load changes level before it, and one does at it', () => {
    const instants = fc.array(fc.option(fc.integer({ min: 0, max: 300 }), { nil: undefined }), {
      maxLength: 12,
    });
    fc.assert(
      fc.property(
        instants,
        fc.integer({ min: 0, max: 500 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (mins, now, f) => {
          const loads = mins.map((m) => at(m === undefined ? undefined : m * MIN));
          const t0 = now * MIN;
          const levels = (t: number) => loads.map((l) => staleness(l.latestLocation?.instant, t, T));
          const next = nextLevelChange(loads, t0, T);
          if (next === Infinity) {
            expect(levels(t0 + 1_000 * MIN)).toEqual(levels(t0));
            return;
          }
          expect(next).toBeGreaterThan(t0);
          const between = t0 + Math.floor(f * (next - t0 - 1));
          expect(levels(between)).toEqual(levels(t0));
          expect(levels(next)).not.toEqual(levels(t0));
        },
      ),
    );
  });
});
