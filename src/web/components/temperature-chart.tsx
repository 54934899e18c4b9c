import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type uPlot from 'uplot';
import { mirrorCanvas } from '../lib/bitmap-mirror';
import { perfMark } from '../lib/perf-marks';
import type { TimeSource } from '../lib/time-store';
import { formatTime, timeTickLabels, type ZoneSpec } from '../lib/time-format';
import { statusColors } from '../../../tailwind.config';
import { unitLabel, type Band, type ChartTimeAxis, type TemperatureSeries } from '../lib/temperature-series';

const HEIGHT = 260;
const SHADE = 'rgba(185, 28, 28, 0.14)';

/** Shades the excursion spans under the lines; a span of one reading gets a few pixels. */
function drawBands(u: uPlot, bands: readonly Band[]) {
  const ctx = u.ctx;
  const minWidth = 6 * (globalThis.devicePixelRatio || 1);
  ctx.save();
  ctx.fillStyle = SHADE;
  for (const band of bands) {
    const x0 = u.valToPos(band.from, 'x', true);
    const x1 = u.valToPos(band.to, 'x', true);
    const width = Math.max(x1 - x0, minWidth);
    const left = x1 - x0 < minWidth ? (x0 + x1) / 2 - width / 2 : x0;
    ctx.fillRect(left, u.bbox.top, width, u.bbox.height);
  }
  ctx.restore();
}

/** Where each chart's line was last put (CSS px; NaN: hidden), so a frame that moves it by less than a quarter pixel writes nothing. */
const placed = new WeakMap<HTMLDivElement, number>();

/** Moves the line that marks an instant by its style alone: redrawing 20,000 points per frame is not cheap. */
function placeLine(u: uPlot | null, el: HTMLDivElement | null, at: number | null | undefined) {
  if (!u || !el) return;
  const x = at === undefined || at === null ? NaN : u.valToPos(at / 1000, 'x');
  // The plot's width from uPlot's own box (device pixels): reading the element's would force a layout.
  const width = u.bbox.width / (globalThis.devicePixelRatio || 1);
  const shown = x >= 0 && x <= width ? x : NaN;
  const before = placed.get(el);
  if (before !== undefined && (Number.isNaN(shown) ? Number.isNaN(before) : Math.abs(before - shown) < 0.25))
    return;
  placed.set(el, shown);
  el.style.display = Number.isNaN(shown) ? 'none' : 'block';
  if (!Number.isNaN(shown)) el.style.transform = `translateX(${shown}px)`;
}

/**
 * A date whose local fields read as the wall time of a fixed zone: uPlot places its ticks on whole
 * hours and days of the dates `tzDate` gives.
 */
function wallDate(ms: number, zone: ZoneSpec): Date {
  if (zone.kind === 'mine') return new Date(ms);
  const wall = ms + zone.offset * 60_000;
  return new Date(wall + new Date(wall).getTimezoneOffset() * 60_000);
}

/**
 * Supply, return and set temperatures over time, excursions shaded. uPlot draws on a canvas, so
 * it is made here, in an effect, and loaded on demand; where it cannot draw (no canvas) the section
 * says so and its table shows the same readings. Tests check the series handed in, not pixels.
 */
export function TemperatureChart({
  series,
  label,
  axis,
  cursor,
  onPick,
}: {
  series: TemperatureSeries;
  label: string;
  /** The zone the time axis is written in, and its label. */
  axis: ChartTimeAxis;
  /** An instant (epoch ms) marked by a line across the chart: a replay's time, followed as it moves. */
  cursor?: TimeSource;
  /** Called with the instant under the pointer while it is pressed or dragged on the chart. */
  onPick?: (instant: number) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef(series);
  const line = useRef<HTMLDivElement | null>(null);
  const cursorNow = useRef(cursor);
  const pick = useRef(onPick);
  useLayoutEffect(() => {
    pick.current = onPick;
    cursorNow.current = cursor;
    placeLine(plot.current, line.current, cursor?.get());
    // The line follows the time in the task that moves it: the chart itself does not render again.
    return cursor?.subscribe((t) => placeLine(plot.current, line.current, t));
  }, [cursor, onPick]);
  const [failed, setFailed] = useState(false);
  const unit = unitLabel(series.unit);
  const { zone, label: axisLabel } = axis;
  const zoneKey = zone.kind === 'mine' ? 'mine' : `${zone.offset} ${zone.name}`;

  useEffect(() => {
    latest.current = series;
    plot.current?.setData(series.data);
  }, [series]);

  useEffect(() => {
    let cancelled = false;
    let drawn = false;
    let observer: ResizeObserver | undefined;
    let mirror: ReturnType<typeof mirrorCanvas>;
    const target = box.current;
    Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')])
      .then(([{ default: UPlot }]) => {
        if (cancelled || !target) return;
        if (!document.createElement('canvas').getContext('2d')) throw new Error('no canvas');
        const options: uPlot.Options = {
          width: Math.max(280, target.clientWidth),
          height: HEIGHT,
          scales: { x: { time: true } },
          tzDate: (ts) => wallDate(ts * 1000, zone),
          series: [
            // The legend's time under the pointer, written as the axis is.
            { value: (_u, x) => (x === null ? '--' : formatTime(x * 1000, zone)) },
            { label: 'Supply', stroke: statusColors.accuracy, width: 2 },
            { label: 'Return', stroke: statusColors.stale, width: 2, dash: [8, 4] },
            { label: 'Set', stroke: statusColors.unknown, width: 1.5, dash: [2, 4] },
          ],
          // The axis is written as every other time on the page, in the zone the viewer chose.
          axes: [
            {
              label: axisLabel,
              labelSize: 24,
              size: 56,
              // A tick with seconds (readings over minutes, not hours) is half as wide again.
              space: (_u, _axis, min, max) => (max - min < 30 * 60 ? 80 : 50),
              values: (_u, splits) =>
                timeTickLabels(
                  splits.map((x) => x * 1000),
                  zone,
                ),
            },
            { label: unit ? `Temperature (${unit})` : 'Temperature', size: 60 },
          ],
          hooks: {
            drawClear: [(u) => drawBands(u, latest.current.bands)],
            draw: [
              () => {
                // The chart is shown through a copy made at each draw: see `mirrorCanvas`.
                mirror?.update();
                if (drawn) return;
                drawn = true;
                perfMark('chart-drawn', { points: latest.current.data[0].length });
              },
            ],
          },
        };
        perfMark('chart-start');
        const u = new UPlot(options, latest.current.data, target);
        plot.current = u;
        // After the first draw (in the constructor): from now on each draw updates the copy.
        mirror = mirrorCanvas(u.ctx.canvas);
        mirror?.update();
        const mark = document.createElement('div');
        mark.dataset.chartCursor = '';
        mark.style.cssText = `position:absolute;top:0;bottom:0;left:0;width:2px;margin-left:-1px;background:${statusColors.selected};pointer-events:none;display:none;will-change:transform`;
        u.over.appendChild(mark);
        line.current = mark;
        placeLine(u, mark, cursorNow.current?.get());
        // Pressing or dragging on the plot names the instant under the pointer.
        let pressed = false;
        const toInstant = (e: PointerEvent) =>
          u.posToVal(e.clientX - u.over.getBoundingClientRect().left, 'x') * 1000;
        u.over.addEventListener('pointerdown', (e) => {
          if (!pick.current) return;
          pressed = true;
          u.over.setPointerCapture?.(e.pointerId);
          pick.current(toInstant(e));
        });
        u.over.addEventListener('pointermove', (e) => {
          if (pressed) pick.current?.(toInstant(e));
        });
        const release = () => (pressed = false);
        u.over.addEventListener('pointerup', release);
        u.over.addEventListener('pointercancel', release);
        if (typeof ResizeObserver !== 'undefined') {
          observer = new ResizeObserver(() => {
            plot.current?.setSize({ width: Math.max(280, target.clientWidth), height: HEIGHT });
            placeLine(u, mark, cursorNow.current?.get());
          });
          observer.observe(target);
        }
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      observer?.disconnect();
      mirror?.remove();
      plot.current?.destroy();
      plot.current = null;
      line.current = null;
    };
    // A new zone draws the chart anew: uPlot takes its axes once. `zoneKey` stands for `zone`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [unit, zoneKey, axisLabel]);

  if (failed)
    return (
      <p className="rounded border border-panel-line bg-panel-sunk p-3 text-sm">
        The chart cannot be drawn in this browser. The table shows the same readings.
      </p>
    );
  return <div ref={box} role="img" aria-label={label} className="min-h-[260px] w-full" />;
}
