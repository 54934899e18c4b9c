import type { TemperatureReading } from '@/domain/model';
import { isExcursion } from '@/domain/temperature';
import { driverZoneOf, UTC_ZONE, viewerZoneName, type TimeZoneChoice, type ZoneSpec } from './time-format';

/** Supply or return outside set ± tolerance: the domain's rule. */
export const isExcursionReading = (r: TemperatureReading, tolerance: number): boolean =>
  isExcursion(r, tolerance);

/** "°F" for Fahrenheit, "°C" for Celsius, else the unit as the service wrote it. */
export function unitLabel(unit: string | undefined): string {
  const u = unit?.trim() ?? '';
  if (/^(°?f|fahrenheit|degf)$/i.test(u)) return '°F';
  if (/^(°?c|celsius|centigrade|degc)$/i.test(u)) return '°C';
  return u;
}

/** A temperature with its unit: "33.1 °F"; "—" when absent. */
export function formatTemperature(value: number | undefined, unit: string | undefined): string {
  if (value === undefined) return '—';
  const label = unitLabel(unit);
  const text = Number.isInteger(value) ? String(value) : value.toFixed(1);
  return label ? `${text} ${label}` : text;
}

/** A span of time the chart shades, in uPlot's x unit (seconds). */
export interface Band {
  from: number;
  to: number;
}

export interface TemperatureSeries {
  /** The unit of the latest reading that names one. */
  unit: string | undefined;
  /** uPlot's aligned data: x in epoch seconds, then supply, return and set (null where absent). */
  data: [number[], (number | null)[], (number | null)[], (number | null)[]];
  /** For each reading, whether it is an excursion. */
  excursion: boolean[];
  /** One shaded span per run of consecutive excursion readings, from its first to its last reading. */
  bands: Band[];
}

/** What the chart is handed: readings (oldest first, as the domain keeps them) as series and bands. */
export function temperatureSeries(
  readings: readonly TemperatureReading[],
  tolerance: number,
): TemperatureSeries {
  // Sized once: pushing a reefer's tens of thousands of readings into each of five lists copies each
  // several times over.
  const n = readings.length;
  const xs = new Array<number>(n);
  const supply = new Array<number | null>(n);
  const ret = new Array<number | null>(n);
  const set = new Array<number | null>(n);
  const excursion = new Array<boolean>(n);
  const bands: Band[] = [];
  let unit: string | undefined;
  let open: Band | null = null;
  for (let i = 0; i < n; i++) {
    const r = readings[i] as TemperatureReading;
    const x = r.instant / 1000;
    xs[i] = x;
    supply[i] = r.supply ?? null;
    ret[i] = r.return ?? null;
    set[i] = r.set ?? null;
    if (r.unit) unit = r.unit;
    const out = isExcursion(r, tolerance);
    excursion[i] = out;
    if (out) {
      if (open) open.to = x;
      else {
        open = { from: x, to: x };
        bands.push(open);
      }
    } else open = null;
  }
  return { unit, data: [xs, supply, ret, set], excursion, bands };
}

/** One excursion: a run of consecutive readings outside set ± tolerance. */
export interface ExcursionRun {
  /** The key of its first reading: stable while the run grows with new readings. */
  key: string;
  first: TemperatureReading;
  last: TemperatureReading;
  readings: number;
  /** The reading furthest from its set point, and by how much. */
  worst: { reading: TemperatureReading; which: 'supply' | 'return'; value: number; deviation: number };
  /** Whether the latest reading is still out of range. */
  ongoing: boolean;
}

export function excursionRuns(readings: readonly TemperatureReading[], tolerance: number): ExcursionRun[] {
  const runs: ExcursionRun[] = [];
  let run: ExcursionRun | null = null;
  for (const r of readings) {
    if (!isExcursion(r, tolerance)) {
      run = null;
      continue;
    }
    const set = r.set as number;
    for (const which of ['supply', 'return'] as const) {
      const value = r[which];
      if (value === undefined) continue;
      const deviation = value - set;
      if (!run) {
        run = {
          key: r.key,
          first: r,
          last: r,
          readings: 1,
          worst: { reading: r, which, value, deviation },
          ongoing: false,
        };
        runs.push(run);
      } else if (Math.abs(deviation) > Math.abs(run.worst.deviation)) {
        run.worst = { reading: r, which, value, deviation };
      }
    }
    if (run && run.last !== r) {
      run.last = r;
      run.readings++;
    }
  }
  const lastRun = runs[runs.length - 1];
  if (lastRun && lastRun.last === readings[readings.length - 1]) lastRun.ongoing = true;
  return runs;
}

/** The zone a chart's time axis is written in, and the label that names it. */
export interface ChartTimeAxis {
  zone: ZoneSpec;
  label: string;
}

/**
 * The chart's time axis in the zone the viewer chose. In the driver's, it takes the zone of the
 * latest reading that has a known one (a load crossing zones is drawn in the one it is in now), or
 * UTC when none has.
 */
export function chartTimeAxis(
  readings: readonly TemperatureReading[],
  choice: TimeZoneChoice,
): ChartTimeAxis {
  if (choice === 'mine') {
    const last = readings[readings.length - 1];
    return { zone: { kind: 'mine' }, label: `Your time (${viewerZoneName(last?.instant)})` };
  }
  const zoned = readings.findLast((r) => driverZoneOf(r.time) !== undefined);
  const zone = zoned && driverZoneOf(zoned.time);
  if (zone?.kind === 'fixed' && zone.name) return { zone, label: `Driver’s time (${zone.name})` };
  return { zone: UTC_ZONE, label: 'Time (UTC: the readings name no zone)' };
}
