import { lazy, Suspense } from 'react';
import type { ClientConfig } from '@/contract/proxy-api';
import { ErrorBanner } from '../../components/error-banner';
import { DispatcherHeader } from './dispatcher-header';
import { LoadBoard } from './load-board';
import { SelectedLoadPanel } from './selected-load-panel';
import { useDispatcherLoads } from './use-dispatcher-loads';
import { useMapLoads } from './use-map-loads';
import { useSelection } from './use-selection';
import { WatchListPanel } from './watch-list-panel';

// The map (Leaflet and its layers) is its own chunk, requested as soon as the route loads: the board
// and the watch list come up without waiting for it, and the map arrives while the loads are fetched.
const fleetMapModule = () => import('./fleet-map');
const FleetMap = lazy(() => fleetMapModule().then((m) => ({ default: m.FleetMap })));
export const preloadFleetMap = (): void => void fleetMapModule();

/** `/`: the dispatcher's view: the watch list and the board beside the fleet map. */
export function DispatcherPage({ config }: { config: ClientConfig }) {
  const board = useDispatcherLoads(config);
  const { rows, now } = board;
  const selected = useSelection(rows, config.refreshSeconds);
  const { selection, selectedKey, selectedRow } = selected;
  const map = useMapLoads(board.loads, rows, selectedRow);

  return (
    <div className="grid h-full grid-cols-[minmax(22rem,26rem)_1fr] grid-rows-[auto_1fr]">
      <DispatcherHeader
        onMap={map.onMap}
        watched={Math.max(0, board.entries.length - board.notFound.length)}
        filtered={map.filtered}
        onShowAll={map.showAll}
        notFound={board.notFound.length}
        pending={board.pending}
        updatedAt={board.updatedAt}
        now={now}
        boardHashes={board.boardHashes}
        onRefresh={board.refresh}
      />
      <div className="flex min-h-0 flex-col border-r border-panel-line">
        <WatchListPanel entries={board.entries} notFound={board.notFound} maxIds={config.maxIds} />
        {board.error && <ErrorBanner error={board.error} onRetry={board.retry} />}
        <div className="min-h-0 flex-1">
          <LoadBoard rows={rows} now={now} selectedKey={selectedKey} onSelect={selected.selectRow} />
        </div>
        {/* Below the board, not above it: a click on a row that opened it above pushed every row
            down under the pointer, and the next click landed on another load. */}
        {selection && (
          <SelectedLoadPanel
            selection={selection}
            row={selectedRow}
            filteredOut={map.selectedFilteredOut}
            track={selected.track}
            trackLoading={selected.trackLoading}
            trackFailed={selected.trackFailed}
            now={now}
            onClose={selected.close}
          />
        )}
      </div>
      <Suspense
        fallback={
          <div role="status" className="flex items-center justify-center bg-panel-sunk text-ink-muted">
            Loading the map…
          </div>
        }
      >
        <FleetMap
          tileUrl={config.tileUrl}
          tileAttribution={config.tileAttribution}
          loads={map.mapLoads}
          now={board.levelNow}
          thresholds={board.thresholds}
          excursionTolerance={config.excursionTolerance}
          lowConfidenceMeters={config.lowConfidenceMeters}
          selectedKey={selectedKey}
          track={selected.track ?? null}
          onSelect={selected.select}
          settled={!board.pending}
        />
      </Suspense>
    </div>
  );
}
