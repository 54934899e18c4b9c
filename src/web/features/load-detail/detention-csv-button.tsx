import type { Load } from '@/domain/model';
import { loadStaleness, type StalenessThresholds } from '@/domain/staleness';
import { loadLabel } from '../../lib/load-ref';
import { detentionCsv, hasDetentionEvidence } from './detention-csv';

/**
 * Downloads the load's detention evidence as CSV, built here from the track the page already holds
 * (the proxy's arrivals and departures in its outlook, the pings on the page): no second request.
 */
export function DetentionCsvButton({ load, thresholds }: { load: Load; thresholds?: StalenessThresholds }) {
  const ready = hasDetentionEvidence(load);
  const download = () => {
    const now = Date.now();
    // Judged at the click, as the times are: a phone dark at a stop makes its stay open.
    const dark = loadStaleness(load, now, thresholds) !== 'fresh';
    const blob = new Blob([detentionCsv(load, now, dark)], { type: 'text/csv;charset=utf-8' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `detention-${loadLabel(load).replace(/[^\w.-]+/g, '_')}.csv`;
    document.body.append(a);
    a.click();
    a.remove();
    // The click has handed the file over; the address is no longer needed.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };
  return (
    <p className="flex flex-wrap items-center gap-2">
      <button
        type="button"
        className="rounded border border-panel-line px-2 py-1 hover:bg-panel-line disabled:opacity-50"
        disabled={!ready}
        onClick={download}
        data-detention-csv=""
      >
        Download detention evidence (CSV)
      </button>
      <span className="text-ink-muted">
        {ready
          ? 'Arrivals, departures and each ping in and out of every stop, in the stop’s time and UTC'
          : 'No stop arrived at yet: no evidence to give'}
      </span>
    </p>
  );
}
