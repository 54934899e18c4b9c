import { useQuery } from '@tanstack/react-query';
import type { ClientConfig } from '@/contract/proxy-api';
import type { LoadBy } from '@/domain/model';
import { formatAge } from '@/domain/staleness';
import { ErrorBanner } from '../../components/error-banner';
import { loadQueries } from '../../lib/load-queries';
import { useNow } from '../../lib/use-now';
import { MapShell } from '../../map/core/map-shell';
import { FitToLoads } from '../../map/controls/fit-to-loads';
import { LoadPositionsLayer } from '../../map/layers/load-positions-layer';
import { statusColors } from '../../../../tailwind.config';

export interface FleetMapProps {
  config: ClientConfig;
  by: LoadBy;
  ids: readonly string[];
}

const LEGEND = [
  ['fresh', 'Reporting'],
  ['stale', 'Stale (30 min +)'],
  ['silent', 'Silent (2 h +)'],
] as const;

/** The dispatcher's map: every watched load's latest location and accuracy circle, kept live. */
export function FleetMap({ config, by, ids }: FleetMapProps) {
  const board = useQuery(loadQueries.board(by, ids, config.refreshSeconds));
  const now = useNow(5_000);
  const loads = board.data?.loads ?? [];
  const placed = loads.filter((l) => l.latestLocation).length;

  return (
    <div className="flex h-full flex-col">
      <div className="flex items-center gap-4 border-b border-panel-line bg-panel px-4 py-2 text-sm">
        <span>
          <strong>{placed}</strong> of {ids.length} loads on the map
        </span>
        {board.data && board.data.missing.length > 0 && (
          <span className="text-status-stale">{board.data.missing.length} not found</span>
        )}
        <span className="text-ink-muted" aria-live="polite">
          {board.isPending && ids.length > 0
            ? 'Loading…'
            : board.dataUpdatedAt > 0
              ? `Updated ${formatAge(now - board.dataUpdatedAt)}`
              : ''}
        </span>
        <button
          type="button"
          className="rounded border border-panel-line px-2 py-0.5 hover:bg-panel-sunk disabled:opacity-50"
          onClick={() => void board.refetch()}
          disabled={board.isFetching}
        >
          {board.isFetching ? 'Refreshing…' : 'Refresh'}
        </button>
        <ul className="ml-auto flex gap-3" aria-label="Legend">
          {LEGEND.map(([level, text]) => (
            <li key={level} className="flex items-center gap-1">
              <span
                aria-hidden="true"
                className="inline-block h-3 w-3 rounded-full"
                style={{ background: statusColors[level] }}
              />
              {text}
            </li>
          ))}
          <li className="flex items-center gap-1">
            <span
              aria-hidden="true"
              className="inline-block h-3 w-3 rounded-full border border-status-accuracy bg-status-accuracy/15"
            />
            Accuracy (68%)
          </li>
        </ul>
      </div>
      {board.isError && <ErrorBanner error={board.error} onRetry={() => void board.refetch()} />}
      <div className="relative flex-1" role="region" aria-label="Map of watched loads">
        <MapShell tileUrl={config.tileUrl} tileAttribution={config.tileAttribution}>
          <LoadPositionsLayer loads={loads} now={now} />
          <FitToLoads loads={loads} />
        </MapShell>
      </div>
    </div>
  );
}
