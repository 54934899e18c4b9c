import { describe, expect, it } from 'vitest';
import { kibPerLoad, memoryFigures, type MemoryRun } from './memory-figures';

const MiB = 2 ** 20;
const run = (over: Partial<MemoryRun> = {}): MemoryRun => ({
  loads: 1000,
  proxy: { before: { heapUsed: 20 * MiB, rss: 100 * MiB }, after: { heapUsed: 120 * MiB, rss: 300 * MiB } },
  rawBytes: 50 * MiB,
  parsed: { before: { heapUsed: 5 * MiB, rss: 80 * MiB }, after: { heapUsed: 205 * MiB, rss: 380 * MiB } },
  pings: 300_000,
  ...over,
});

describe('kibPerLoad', () => {
  it('is the growth in KiB shared by the loads', () => {
    expect(kibPerLoad(MiB, 3 * MiB, 1024)).toBe(2);
  });

  it('has no figure for no loads, a bad count or a missing measurement', () => {
    expect(kibPerLoad(0, MiB, 0)).toBeNaN();
    expect(kibPerLoad(0, MiB, -5)).toBeNaN();
    expect(kibPerLoad(0, MiB, Number.NaN)).toBeNaN();
    expect(kibPerLoad(Number.NaN, MiB, 10)).toBeNaN();
    expect(kibPerLoad(0, Number.POSITIVE_INFINITY, 10)).toBeNaN();
  });
});

describe('memoryFigures', () => {
  it('puts the proxy heap per load beside the raw answer and the parsed Map, per load', () => {
    const [heap, rss, pings] = memoryFigures(run());
    expect(heap?.figure).toBe('memory: proxy heap per tracked load after GC, 1,000 loads');
    expect(heap?.value).toBe(102.4);
    expect(heap?.unit).toBe('KiB');
    expect(heap?.peers).toEqual([
      { name: 'raw answer', value: 51.2 },
      { name: 'JSON.parse in a Map', value: 204.8 },
    ]);
    expect(rss?.value).toBe(204.8);
    expect(rss?.peers).toEqual([
      { name: 'raw answer', value: 51.2 },
      { name: 'JSON.parse in a Map', value: 307.2 },
    ]);
    expect(pings?.value).toBe(300);
  });

  it('shows a proxy that freed memory as a negative figure, not as zero', () => {
    const [heap] = memoryFigures(
      run({ proxy: { before: { heapUsed: 30 * MiB, rss: 0 }, after: { heapUsed: 20 * MiB, rss: 0 } } }),
    );
    expect(heap?.value).toBeLessThan(0);
  });

  it('has no per-load figures for an empty fleet', () => {
    const figures = memoryFigures(run({ loads: 0 }));
    expect(figures.map((f) => f.value).every(Number.isNaN)).toBe(true);
  });
});
