import { useMemo, useState } from 'react';
import type { Load, TemperatureReading } from '@/domain/model';
import { itemTimeWords } from '../../lib/time-format';
import { ItemTimeText } from '../../components/item-time';
import { useTimeZoneChoice } from '../../lib/time-zone-choice';
import { TemperatureChart } from '../../components/temperature-chart';
import { chartTimeAxis, formatTemperature, temperatureSeries, unitLabel } from '../../lib/temperature-series';

/** The most readings the table lists at once: the latest. */
const MAX_TABLE_ROWS = 500;

/** Where a reefer's readings are: in, on their way, failed, or never sent (by load number). */
export type ReadingsState = 'ready' | 'loading' | 'failed' | 'not-sent';

export interface TemperaturesProps {
  load: Load;
  readings: ReadingsState;
  excursionTolerance: number;
}

/**
 * A reefer's readings: supply, return and set over time with excursions shaded, or as a table.
 * The by-load-number operation sends no temperatures at all; that is said in words.
 */
export function Temperatures({ load, readings, excursionTolerance }: TemperaturesProps) {
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const series = useMemo(
    () => temperatureSeries(load.readings, excursionTolerance),
    [load.readings, excursionTolerance],
  );
  const choice = useTimeZoneChoice();
  const axis = useMemo(() => chartTimeAxis(load.readings, choice), [load.readings, choice]);

  if (readings === 'not-sent')
    return (
      <p className="text-sm">
        No temperatures here: the tracking service sends reefer readings only when a load is looked up by its
        external id{load.ltExternalId ? ` (this one’s is ${load.ltExternalId})` : ''}, not by its load number.
      </p>
    );
  if (load.readings.length === 0 && readings === 'loading')
    return (
      <p role="status" className="text-sm text-ink-muted">
        Loading the temperature readings…
      </p>
    );
  if (load.readings.length === 0 && readings === 'failed')
    return (
      <p role="alert" className="text-sm">
        The temperature readings could not be loaded. Haulview asks again with the next refresh.
      </p>
    );
  if (load.readings.length === 0)
    return (
      <p className="text-sm text-ink-muted">
        No temperature readings for this load: it has no reefer unit reporting, or none has reported yet.
      </p>
    );

  const unit = unitLabel(series.unit);
  const excursions = series.bands.length;
  const first = load.readings[0];
  const last = load.readings[load.readings.length - 1];
  const when = (r: TemperatureReading | undefined) =>
    r ? itemTimeWords(r.time, r.instant, choice).text : '?';
  const label = `Temperature chart: ${load.readings.length} readings from ${when(first)} to ${when(last)}; ${excursions} ${
    excursions === 1 ? 'excursion' : 'excursions'
  } shaded.`;
  const rows = load.readings.slice(-MAX_TABLE_ROWS).reverse();
  const rowOffset = load.readings.length - rows.length;

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <div role="group" aria-label="Show temperatures as" className="flex">
          {(['chart', 'table'] as const).map((v) => (
            <button
              key={v}
              type="button"
              aria-pressed={view === v}
              onClick={() => setView(v)}
              className={`border border-panel-line px-2 py-0.5 first:rounded-l last:rounded-r ${
                view === v ? 'bg-ink text-white' : 'bg-panel hover:bg-panel-sunk'
              }`}
            >
              {v === 'chart' ? 'Chart' : 'Table'}
            </button>
          ))}
        </div>
        <span className="text-ink-muted">
          {load.readings.length} readings{unit && `, in ${unit}`} · {excursions}{' '}
          {excursions === 1 ? 'excursion' : 'excursions'}{' '}
          {`(supply or return beyond set ±${formatTemperature(excursionTolerance, series.unit)})`}
        </span>
      </div>
      {view === 'chart' ? (
        <>
          <TemperatureChart series={series} label={label} axis={axis} />
          <p className="text-xs text-ink-muted">
            Supply: solid line · Return: long dashes · Set: short dashes · Shaded: excursion.
          </p>
        </>
      ) : (
        <div className="max-h-80 overflow-auto rounded border border-panel-line">
          <table className="w-full text-sm">
            <caption className="sr-only">Temperature readings, newest first</caption>
            <thead className="sticky top-0 bg-panel-sunk text-left text-xs">
              <tr>
                <th scope="col" className="px-2 py-1">
                  Time
                </th>
                <th scope="col" className="px-2 py-1">
                  Supply
                </th>
                <th scope="col" className="px-2 py-1">
                  Return
                </th>
                <th scope="col" className="px-2 py-1">
                  Set
                </th>
                <th scope="col" className="px-2 py-1">
                  Excursion
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => {
                const out = series.excursion[rowOffset + rows.length - 1 - i] ?? false;
                return (
                  <tr key={r.key} className={`border-t border-panel-line ${out ? 'bg-red-50' : ''}`}>
                    <td className="px-2 py-1">
                      <ItemTimeText time={r.time} instant={r.instant} />
                    </td>
                    <td className="px-2 py-1">{formatTemperature(r.supply, r.unit)}</td>
                    <td className="px-2 py-1">{formatTemperature(r.return, r.unit)}</td>
                    <td className="px-2 py-1">{formatTemperature(r.set, r.unit)}</td>
                    <td className="px-2 py-1">
                      {out ? <strong className="text-status-silent">yes</strong> : 'no'}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {load.readings.length > rows.length && (
            <p className="p-2 text-xs text-ink-muted">
              The latest {rows.length} of {load.readings.length} readings.
            </p>
          )}
        </div>
      )}
    </div>
  );
}
