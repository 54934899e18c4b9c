import { describe, expect, it } from 'vitest';
import { generateFleet } from './fleet';
import { trackAt, type Timed } from './track';

const startedAt = Date.parse('2026-11-22T15:00:00Z');
const options = { seed: 11, speed: 60, publicUrl: 'http://127.0.0.1:1' };
const newer = <T>(list: Timed<T>[], after: number) => list.filter((t) => t.at > after);

describe('trackAt after an instant (what a sendNewData: yes pull needs)', () => {
  // 12 loads (reefers, silent phones, delivered ones) and one long track, at several moments.
  const fleet = [
    ...generateFleet({ seed: 11, loads: 12, speed: 60, startedAt }),
    ...generateFleet({ seed: 11, loads: 1, speed: 60, startedAt, longTrackPings: 1_000 }),
  ];
  const moments = [0, 40_000, 600_000, 3_600_000, 86_400_000].map((d) => startedAt + d);

  it('keeps every item newer than the instant, as built whole, and the last ping and reading', () => {
    let compared = 0;
    for (const plan of fleet) {
      for (const now of moments) {
        const whole = trackAt(plan, now, options);
        const afters = [now - 86_400_000, now - 600_000, now - 2_500, now - 1, now];
        for (const after of afters) {
          const part = trackAt(plan, now, options, after);
          for (const kind of ['pings', 'events', 'comments', 'documents', 'readings'] as const) {
            const [mine, all]: [Timed<unknown>[], Timed<unknown>[]] = [part[kind], whole[kind]];
            // Compared as JSON texts: a deep equality of a few thousand items is slow.
            expect(JSON.stringify(newer(mine, after))).toBe(JSON.stringify(newer(all, after)));
            expect(JSON.stringify(mine.at(-1))).toBe(JSON.stringify(all.at(-1)));
          }
          compared++;
        }
      }
    }
    expect(compared).toBe(fleet.length * moments.length * 5);
    // A few hundred tracks built whole: seconds on a busy CI machine.
  }, 30_000);

  it('builds only a few pings of a long track for a delta', () => {
    const plan = fleet.at(-1)!;
    const now = startedAt + 3_600_000;
    expect(trackAt(plan, now, options).pings).toHaveLength(1_000);
    expect(trackAt(plan, now, options, now - 2_500).pings.length).toBeLessThanOrEqual(3);
  });
});
