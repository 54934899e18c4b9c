// Pure helpers of the memory bench (bench/memory.ts): memory per tracked load, the proxy's beside its
// peers' (the raw upstream answer's bytes; that answer JSON.parsed and kept in a Map).
import type { Figure } from './figures';
import { peerFigure } from './peer-figures';

/** A process's memory, in bytes, after a full collection. */
export interface Memory {
  heapUsed: number;
  rss: number;
}

/** What the memory bench measured for one fleet size. */
export interface MemoryRun {
  loads: number;
  /** The proxy's process with none of the loads held, and with all of them in its track cache. */
  proxy: { before: Memory; after: Memory };
  /** The bytes of the upstream's answers for the same loads (every list, `sendNewData: no`). */
  rawBytes: number;
  /** A plain process before and after JSON.parse of those answers, kept in a Map by load id. */
  parsed: { before: Memory; after: Memory };
  /** Pings in the raw answers (how full the tracks were). */
  pings: number;
}

/**
 * KiB per load that a process grew by from `before` to `after`. NaN for no loads, or when a figure is
 * missing: a bench that held nothing has no figure per load, and must not print 0.
 */
export function kibPerLoad(before: number, after: number, loads: number): number {
  if (!(loads > 0) || !Number.isFinite(before) || !Number.isFinite(after)) return NaN;
  return (after - before) / 1024 / loads;
}

/** The figures of one run: heap and RSS per tracked load, each with its peers and the ratios. */
export function memoryFigures(run: MemoryRun): Figure[] {
  const n = run.loads;
  const of = `${n.toLocaleString('en-US')} loads`;
  const raw = { name: 'raw answer', value: kibPerLoad(0, run.rawBytes, n) };
  return [
    peerFigure(
      `memory: proxy heap per tracked load after GC, ${of}`,
      'KiB',
      kibPerLoad(run.proxy.before.heapUsed, run.proxy.after.heapUsed, n),
      [
        raw,
        {
          name: 'JSON.parse in a Map',
          value: kibPerLoad(run.parsed.before.heapUsed, run.parsed.after.heapUsed, n),
        },
      ],
    ),
    peerFigure(
      `memory: proxy RSS per tracked load, ${of}`,
      'KiB',
      kibPerLoad(run.proxy.before.rss, run.proxy.after.rss, n),
      [
        raw,
        { name: 'JSON.parse in a Map', value: kibPerLoad(run.parsed.before.rss, run.parsed.after.rss, n) },
      ],
    ),
    {
      figure: `memory: pings per load in the raw answer, ${of}`,
      value: n > 0 ? Math.round(run.pings / n) : NaN,
      unit: 'ping',
      goal: '-',
      pass: true,
    },
  ];
}
