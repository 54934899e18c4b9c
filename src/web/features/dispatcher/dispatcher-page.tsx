import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import type { ClientConfig } from '@/contract/proxy-api';
import { ErrorBanner } from '../../components/error-banner';
import { DispatcherHeader } from './dispatcher-header';
import { LoadBoard } from './load-board';
import { earlyPointsDrawn } from '../../data/early-points';
import { useDispatcherLoads } from './use-dispatcher-loads';
import { useMapLoads } from './use-map-loads';
import { useSelection } from './use-selection';
import { useDispatcherView } from './board-view';
import { ViewSwitch } from './view-switch';
import { WatchListPanel } from './watch-list-panel';

// The boards menu and the selected load's panel are not part of the first view: their code comes
// after the board is up (fetched at once, so a first click rarely waits for it).
const savedBoardsModule = () => import('./saved-boards');
const selectedLoadPanelModule = () => import('./selected-load-panel');
const SavedBoardsMenu = lazy(() => savedBoardsModule().then((m) => ({ default: m.SavedBoardsMenu })));
const SelectedLoadPanel = lazy(() =>
  selectedLoadPanelModule().then((m) => ({ default: m.SelectedLoadPanel })),
);

/** One element for every render: the watch list's panel is memoized. */
const BOARDS_MENU = (
  <Suspense fallback={<span className="ml-auto" />}>
    <SavedBoardsMenu />
  </Suspense>
);

// The map (Leaflet and its layers) is its own chunk, requested as soon as the route loads: the board
// and the watch list come up without waiting for it, and the map arrives while the loads are fetched.
const fleetMapModule = () => import('./fleet-map');
const FleetMap = lazy(() => fleetMapModule().then((m) => ({ default: m.FleetMap })));
export const preloadFleetMap = (): void => void fleetMapModule();

/** `/`: the dispatcher's view: the watch list and the board beside the fleet map (on a phone, one of them). */
export function DispatcherPage({ config }: { config: ClientConfig }) {
  const [mapShown, setMapShown] = useState(false);
  const showMap = useCallback(() => setMapShown(true), []);
  const board = useDispatcherLoads(config, mapShown);
  const { rows } = board;
  const selected = useSelection(rows, config.refreshSeconds);
  const { selection, selectedKey, selectedRow } = selected;
  const map = useMapLoads(board.loads, rows, selectedRow);
  const [view, setView] = useDispatcherView();
  useEffect(() => {
    void selectedLoadPanelModule();
  }, []);

  return (
    // A phone shows the board or the map (the switch, in the URL); wider screens both side by side,
    // the header over the map only, so the board has the column's whole height for its rows.
    <div className="grid h-full grid-cols-1 grid-rows-[auto_auto_minmax(0,1fr)_auto] md:grid-cols-[minmax(22rem,26rem)_minmax(0,1fr)] md:grid-rows-[auto_minmax(0,1fr)]">
      <ViewSwitch view={view} onChange={setView} className="row-start-2 md:hidden" />
      <div
        className={`${view === 'map' ? 'hidden' : 'flex'} row-start-3 min-h-0 flex-col border-panel-line md:col-start-1 md:row-span-2 md:row-start-1 md:flex md:border-r`}
      >
        <WatchListPanel
          entries={board.entries}
          notFound={board.notFound}
          maxIds={config.maxIds}
          menu={BOARDS_MENU}
        />
        {board.error && <ErrorBanner error={board.error} onRetry={board.retry} kept={board.updatedAt > 0} />}
        <div className="min-h-0 flex-1">
          <LoadBoard
            rows={rows}
            cursors={board.cursors}
            selectedKey={selectedKey}
            onSelect={selected.selectRow}
          />
        </div>
      </div>
      {/* After the board in the page's order, so that Tab goes down the board's column first and then
          to the map's header on a wide screen, as the eye does; the grid places it over the map there,
          and first on a phone. */}
      <DispatcherHeader
        className="row-start-1 md:col-start-2 md:row-start-1"
        onMap={map.onMap}
        watched={Math.max(0, board.entries.length - board.notFound.length)}
        filtered={map.filtered}
        onShowAll={map.showAll}
        notFound={board.notFound.length}
        waiting={board.waiting}
        pending={board.pending}
        updatedAt={board.updatedAt}
        boardHashes={board.boardHashes}
        onRefresh={board.refresh}
      />
      {/* Not above the board: a click on a row that opened it there pushed every row down under the
          pointer, and the next click landed on another load. Not below it on a wide screen either,
          where it took the room of half the rows: over the map's top right corner, beside the
          board. On a phone, under the board or the map. */}
      {selection && (
        <div className="row-start-4 md:relative md:z-10 md:col-start-2 md:row-start-2 md:m-2 md:mt-12 md:w-80 md:self-start md:justify-self-end md:shadow-lg">
          <Suspense fallback={null}>
            <SelectedLoadPanel
              selection={selection}
              row={selectedRow}
              filteredOut={map.selectedFilteredOut}
              track={selected.track}
              trackLoading={selected.trackLoading}
              trackFailed={selected.trackFailed}
              onClose={selected.close}
            />
          </Suspense>
        </div>
      )}
      {/* Its own stacking context: Leaflet's panes and controls stay under the selected load's panel. */}
      <div
        className={`${view === 'map' ? 'block' : 'hidden'} relative isolate row-start-3 min-h-0 md:col-start-2 md:row-start-2 md:block`}
      >
        <Suspense
          fallback={
            <div
              role="status"
              className="flex h-full items-center justify-center bg-panel-sunk text-ink-muted"
            >
              Loading the map…
            </div>
          }
        >
          <FleetMap
            tileUrl={config.tileUrl}
            tileAttribution={config.tileAttribution}
            loads={map.mapLoads}
            early={map.filtered ? undefined : board.early}
            onEarlyDrawn={earlyPointsDrawn}
            onShown={showMap}
            now={board.levelNow}
            thresholds={board.thresholds}
            excursionTolerance={config.excursionTolerance}
            lowConfidenceMeters={config.lowConfidenceMeters}
            selectedKey={selectedKey}
            track={selected.track ?? null}
            onSelect={selected.select}
            onShowLate={map.showOnly}
            settled={!board.pending}
          />
        </Suspense>
      </div>
    </div>
  );
}
