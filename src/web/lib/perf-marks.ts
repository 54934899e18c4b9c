/**
 * User Timing marks that `npm run bench` reads (bench/browser.ts, with a PerformanceObserver): when
 * an answer arrived, when the map's markers and the board's rows were drawn, when a load's detail and its chart were on
 * screen. Cheap, and each name holds one entry at a time, so a page left open does not pile them up.
 */
export type PerfMark =
  | 'answer'
  | 'markers-drawn'
  | 'board-drawn'
  | 'detail-rendered'
  | 'chart-start'
  | 'chart-drawn'
  | 'clock-tick';

/** What a mark says beyond its time: the path answered, how many points were drawn. */
export type PerfDetail = Record<string, string | number>;

/** Marks now, or at `startTime` (ms on this page's clock): when a worker saw it happen. */
export function perfMark(name: PerfMark, detail?: PerfDetail, startTime?: number): void {
  const timing = globalThis.performance;
  if (typeof timing?.mark !== 'function') return;
  const full = `haulview:${name}`;
  timing.clearMarks(full);
  timing.mark(full, {
    ...(detail === undefined ? {} : { detail }),
    ...(startTime === undefined ? {} : { startTime }),
  });
}

/** The last mark of this name made here, with its time as an epoch instant (the same on every thread). */
export function lastPerfMark(name: PerfMark): { detail: PerfDetail | undefined; at: number } | undefined {
  const timing = globalThis.performance;
  if (typeof timing?.getEntriesByName !== 'function') return undefined;
  const mark = timing.getEntriesByName(`haulview:${name}`).at(-1) as PerformanceMark | undefined;
  return mark && { detail: mark.detail as PerfDetail | undefined, at: timing.timeOrigin + mark.startTime };
}

/**
 * Marks once what was just drawn is on screen: after the next animation frame (Leaflet's canvas
 * draws in one) and the rendering that follows it.
 */
export function perfMarkAfterPaint(name: PerfMark, detail?: PerfDetail): void {
  if (typeof globalThis.requestAnimationFrame !== 'function') return;
  afterPaint(() => perfMark(name, detail));
}

/** Calls `call` once the next frame is painted (in a task after it). */
export function afterPaint(call: () => void): void {
  if (typeof globalThis.requestAnimationFrame !== 'function') return call();
  requestAnimationFrame(() => setTimeout(call, 0));
}
