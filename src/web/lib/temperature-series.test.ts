import { isExcursion } from '@/domain/temperature';
import { describe, expect, it } from 'vitest';
import type { TemperatureReading } from '@/domain/model';
import { excursionRuns, formatTemperature, temperatureSeries, unitLabel } from './temperature-series';

const T0 = Date.parse('2026-11-22T13:00:00Z');

function reading(
  minute: number,
  supply?: number,
  ret?: number,
  set?: number,
  unit = 'Fahrenheit',
): TemperatureReading {
  const instant = T0 + minute * 60_000;
  return {
    key: `RF|${instant}`,
    instant,
    time: { instant, approximate: false, local: `t+${minute}`, zone: 'CST', zoneKnown: true },
    deviceId: 'RF',
    supply,
    return: ret,
    set,
    unit,
    position: undefined,
  };
}

const x = (minute: number) => (T0 + minute * 60_000) / 1000;

describe('isExcursion', () => {
  it('is supply or return beyond set ± tolerance; without a set point it cannot be judged', () => {
    expect(isExcursion(reading(0, 34, 39, 34), 5)).toBe(false);
    expect(isExcursion(reading(0, 34, 39.1, 34), 5)).toBe(true);
    expect(isExcursion(reading(0, 28.9, 34, 34), 5)).toBe(true);
    expect(isExcursion(reading(0, undefined, 40, 34), 5)).toBe(true);
    expect(isExcursion(reading(0, 50, 50, undefined), 5)).toBe(false);
  });
});

describe('temperatureSeries', () => {
  it('hands uPlot x in seconds and supply, return, set with gaps as null', () => {
    const s = temperatureSeries([reading(0, 34, 35, 34), reading(15, undefined, 36, 34, 'Celsius')], 5);
    expect(s.data).toEqual([
      [x(0), x(15)],
      [34, null],
      [35, 36],
      [34, 34],
    ]);
    expect(s.unit).toBe('Celsius');
  });

  it('shades one band per run of excursion readings, from its first to its last reading', () => {
    const readings = [
      reading(0, 34, 35, 34),
      reading(15, 34, 41, 34), // out
      reading(30, 34, 44, 34), // out
      reading(45, 34, 36, 34),
      reading(60, 20, 36, 34), // out, alone
      reading(75, 34, 35, 34),
      reading(90, 34, 45, 34), // out, the last reading
    ];
    const s = temperatureSeries(readings, 5);
    expect(s.excursion).toEqual([false, true, true, false, true, false, true]);
    expect(s.bands).toEqual([
      { from: x(15), to: x(30) },
      { from: x(60), to: x(60) },
      { from: x(90), to: x(90) },
    ]);
  });

  it('follows the tolerance it is given', () => {
    const readings = [reading(0, 34, 37, 34), reading(15, 34, 38, 34)];
    expect(temperatureSeries(readings, 5).bands).toEqual([]);
    expect(temperatureSeries(readings, 2).bands).toEqual([{ from: x(0), to: x(15) }]);
  });

  it('handles no readings', () => {
    expect(temperatureSeries([], 5)).toEqual({
      unit: undefined,
      data: [[], [], [], []],
      excursion: [],
      bands: [],
    });
  });
});

describe('excursionRuns', () => {
  it('names each run by its first reading, with its worst deviation and whether it goes on', () => {
    const readings = [
      reading(0, 34, 41, 34),
      reading(15, 25, 44, 34),
      reading(30, 34, 35, 34),
      reading(45, 34, 40, 34),
    ];
    const runs = excursionRuns(readings, 5);
    expect(runs).toHaveLength(2);
    expect(runs[0]).toMatchObject({ key: readings[0]!.key, readings: 2, ongoing: false, last: readings[1] });
    expect(runs[0]!.worst).toMatchObject({ which: 'return', value: 44, deviation: 10 });
    expect(runs[1]).toMatchObject({ key: readings[3]!.key, readings: 1, ongoing: true });
  });
});

describe('units', () => {
  it('writes degrees the short way and keeps what it does not know', () => {
    expect(unitLabel('Fahrenheit')).toBe('°F');
    expect(unitLabel('celsius')).toBe('°C');
    expect(unitLabel('Kelvin')).toBe('Kelvin');
    expect(unitLabel(undefined)).toBe('');
    expect(formatTemperature(33.14, 'Fahrenheit')).toBe('33.1 °F');
    expect(formatTemperature(34, undefined)).toBe('34');
    expect(formatTemperature(undefined, 'Fahrenheit')).toBe('—');
  });
});
