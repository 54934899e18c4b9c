import { performance } from 'node:perf_hooks';
import { applyDelta } from '@/domain/merge';
import type { Load } from '@/domain/model';
import { loadStaleness } from '@/domain/staleness';
import { generateFleet } from '@/simulator/fleet';
import { boardRows, toRow, type BoardRow } from '@/web/features/dispatcher/board-rows';
import type { Figure } from './figures';
import { median } from './peer-figures';
import { simulatedLoads } from '@/testing/simulated-answer';

const LOADS = 10_000;
const PINGS_KEPT = 20;
const startedAt = Date.parse('2026-11-22T12:00:00Z');

/**
 * Issue 10's merge figure: a refresh of 10,000 loads in which 10% changed. The delta of a changed
 * load is its track five minutes later (new pings, events, readings); an unchanged load's delta is
 * the very answer it had. Also counts the loads whose object changed: the rest must stay the same
 * objects, so views skip them.
 */
export function benchMerge(): Figure[] {
  const plans = generateFleet({ seed: 5, loads: LOADS, speed: 1, startedAt });
  const at = startedAt + 2 * 60 * 60_000;
  const base = simulatedLoads(plans, at, { speed: 1, seed: 5, lastPings: PINGS_KEPT });
  const changedPlans = plans.filter((_, i) => i % 10 === 0);
  const later = new Map(
    simulatedLoads(changedPlans, at + 5 * 60_000, { speed: 1, seed: 5, lastPings: 5 }).map((l) => [l.id, l]),
  );
  const delta = base.map((l) => later.get(l.id) ?? l);
  const times: number[] = [];
  let changed = 0;
  let unchangedRedone = 0;
  for (let round = 0; round < 7; round++) {
    const t = performance.now();
    const merged = base.map((l, i) => applyDelta(l, delta[i] as Load));
    times.push(performance.now() - t);
    changed = merged.filter((m, i) => m !== base[i]).length;
    unchangedRedone = merged.filter((m, i) => m !== base[i] && !later.has(m.id)).length;
  }
  return [
    {
      figure: `merge: refresh of ${LOADS.toLocaleString('en-US')} loads, 10% changed (median of 7)`,
      value: Math.round(median(times) * 10) / 10,
      unit: 'ms',
      goal: '-',
      pass: true,
    },
    {
      figure: `merge: loads with something new, of the ${later.size.toLocaleString('en-US')} sent a later track`,
      value: changed,
      unit: 'n',
      goal: '-',
      pass: true,
    },
    {
      figure: 'merge: loads without a change that became new objects (views would redraw them)',
      value: unchangedRedone,
      unit: 'n',
      goal: '0',
      pass: unchangedRedone === 0,
    },
    ...clockTick(base),
  ];
}

/**
 * The dispatcher's board rows when its clock moves the staleness time on (a load crossed a
 * threshold): `boardRows` (a `levelCache`) builds rows only for the loads that changed level; without
 * it, every load's row is built again. Measured side by side, alternated, on the same loads and times;
 * both must give rows that read the same.
 */
function clockTick(pulled: Load[]): Figure[] {
  // The loads as a board pull gives them: a latest location (here each load's last ping).
  const loads = pulled.map((l): Load => {
    const last = l.pings.at(-1);
    const place = { city: 'Columbus', state: 'OH', country: 'US' };
    return last ? { ...l, latestLocation: { ...last, place } } : l;
  });
  const thresholds = { staleAfterMinutes: 30, silentAfterMinutes: 120 };
  const levelOf = (l: Load, now: number) => loadStaleness(l, now, thresholds);
  // Two moments one clock tick (5 s) apart, half an hour after the middle load's last ping: some
  // loads are stale, and those whose last ping fell in those 5 s cross the threshold.
  const middle = median(loads.flatMap((l) => l.latestLocation?.instant ?? []));
  const moments = [middle + 30 * 60_000, middle + 30 * 60_000 + 5_000];
  const crossed = loads.filter((l) => levelOf(l, moments[0] as number) !== levelOf(l, moments[1] as number));
  const levelled = boardRows(thresholds, 2);
  const times = { levelled: [] as number[], lookedUp: [] as number[] };
  for (let round = 0; round < 21; round++) {
    const now = moments[round % 2] as number;
    let t = performance.now();
    const a = levelled(loads, now);
    times.levelled.push(performance.now() - t);
    t = performance.now();
    const b = loads.map((l) => toRow(l, now, thresholds, 2));
    times.lookedUp.push(performance.now() - t);
    const differs = (row: BoardRow, i: number) =>
      row.key !== b[i]?.key || row.staleness !== b[i]?.staleness || row.lastPingAt !== b[i]?.lastPingAt;
    if (a.some(differs)) throw new Error('boardRows gave another row than building it again');
  }
  const [levelledMs, lookedUpMs] = [median(times.levelled), median(times.lookedUp)];
  return [
    {
      figure: `merge: board rows of ${LOADS.toLocaleString('en-US')} loads when the clock moves on (${crossed.length} change level): by level / every row built again (median of 21)`,
      value: Math.round((lookedUpMs / levelledMs) * 10) / 10,
      unit: 'x',
      goal: '-',
      pass: true,
    },
    {
      figure: '... by level, ms',
      value: Math.round(levelledMs * 100) / 100,
      unit: 'ms',
      goal: '-',
      pass: true,
    },
    {
      figure: '... every row built again, ms',
      value: Math.round(lookedUpMs * 100) / 100,
      unit: 'ms',
      goal: '-',
      pass: true,
    },
  ];
}
