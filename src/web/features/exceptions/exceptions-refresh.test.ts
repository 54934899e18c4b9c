import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyDelta } from '@/domain/merge';
import type { Load } from '@/domain/model';
import { boardOutlook, DEFAULT_OUTLOOK_OPTIONS, withOutlook, type OutlookMemo } from '@/domain/outlook';
import { DEFAULT_THRESHOLDS } from '@/domain/staleness';
import { simulatedRefreshes } from '@/testing/simulated-refreshes';
import { keptExceptionRows } from './exceptions-model';
import { shownRows } from './shown-rows';

const O = DEFAULT_OUTLOOK_OPTIONS;
const board = (l: Load): Load => (l.outlook ? { ...l, outlook: boardOutlook(l.outlook) } : l);
const listed = shownRows;

describe('a simulated fleet through refreshes', () => {
  it('gives the outlooks and exceptions a reckoning that kept nothing gives', () => {
    fc.assert(
      fc.property(
        fc.nat(1000),
        fc.constantFrom(1, 60),
        fc.integer({ min: 0, max: 12 * 60 }),
        // Refreshes from seconds to an hour apart (on the fleet's clock).
        fc.array(fc.integer({ min: 5, max: 3600 }), { minLength: 1, maxLength: 6 }),
        (seed, speed, afterMinutes, seconds) => {
          const { start, refreshes } = simulatedRefreshes({
            seed,
            loads: 25,
            speed,
            afterMs: (afterMinutes * 60_000) / speed,
            everyMs: seconds.map((s) => (s * 1000) / speed),
          });
          // What the proxy does: each load's outlook from its memo, the list kept between calls.
          const memos = new Map<string, OutlookMemo>();
          const reckoned = (l: Load) => {
            let memo = memos.get(l.id);
            if (!memo) memos.set(l.id, (memo = {}));
            return withOutlook(l, l.outlook, O, l.pings, memo);
          };
          const list = keptExceptionRows();
          let loads = start.map(reckoned);
          let boards = loads.map(board);
          // And from nothing kept: each outlook reckoned from the trip's first ping.
          let afresh = start.map((l) => withOutlook(l, l.outlook, O));
          for (const { at, byId } of refreshes) {
            loads = loads.map((l) => {
              const delta = byId.get(l.id);
              return delta ? reckoned(applyDelta(l, delta)) : l;
            });
            // The board keeps its objects of the loads that did not change.
            boards = loads.map((l, i) => (byId.has(l.id) ? board(l) : boards[i]!));
            afresh = afresh.map((l) => {
              const delta = byId.get(l.id);
              return delta ? withOutlook(applyDelta(l, delta), l.outlook, O) : l;
            });
            expect(loads.map((l) => l.outlook)).toEqual(afresh.map((l) => l.outlook));
            const kept = list(boards, [], at, DEFAULT_THRESHOLDS);
            const whole = keptExceptionRows()(structuredClone(afresh.map(board)), [], at, DEFAULT_THRESHOLDS);
            expect(listed(kept)).toEqual(listed(whole));
          }
        },
      ),
      { numRuns: 15 },
    );
    // Each run simulates a fleet through its refreshes: seconds on a busy machine.
  }, 120_000);
});
