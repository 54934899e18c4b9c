import { useIsFetching, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useMemo } from 'react';
import { Link } from 'wouter';
import type { ClientConfig } from '@/contract/proxy-api';
import type { StalenessThresholds } from '@/domain/staleness';
import { ErrorBanner } from '../../components/error-banner';
import {
  boardRows,
  filterRows,
  isUnfiltered,
  NO_FILTER,
  type BoardRow,
} from '../../features/dispatcher/board-rows';
import { useBoardFilter } from '../../features/dispatcher/board-view';
import { BOARD_FILTER_ID, LoadBoard } from '../../features/dispatcher/load-board';
import { WatchListPanel } from '../../features/dispatcher/watch-list-panel';
import { formatAccuracy, formatCount, formatSinceUpdate } from '../../lib/format';
import {
  formatLoadParam,
  loadKey,
  loadPageHref,
  parseLoadKey,
  parseLoadParam,
  type LoadRef,
} from '../../lib/load-ref';
import { configQuery, loadQueries } from '../../data/load-queries';
import { useLevelNow, useNow } from '../../lib/use-now';
import { useSameList } from '../../lib/same-list';
import { useUrlParam } from '../../lib/url-state';
import {
  idsBy,
  useDemoFleetOnFirstVisit,
  useWatchedLoads,
  useWatchList,
  useWatchListInUrl,
  watchList,
} from '../../lib/watch-list';
import { statusColors } from '../../../../tailwind.config';
import { LegendItem } from '../../components/legend-item';
import { DISABLED_LOOK } from '../../components/disabled-look';

// The map (Leaflet and its layers) is its own chunk, requested as soon as this page loads: the board
// and the watch list come up without waiting for it, and the map arrives while the loads are fetched.
const fleetMapModule = () => import('../../features/dispatcher/fleet-map');
const FleetMap = lazy(() => fleetMapModule().then((m) => ({ default: m.FleetMap })));

const LEGEND = [
  ['fresh', 'Reporting'],
  ['stale', 'Stale'],
  ['silent', 'Silent'],
  ['unknown', 'No ping'],
] as const;

/**
 * "Refresh", and "Refreshing…" while a board's pull runs. It watches the pulls itself: when a poll
 * starts, this button renders again, not the page with its 10,000 loads' hooks and memos.
 */
function RefreshButton({
  hashes,
  onRefresh,
  disabled,
}: {
  hashes: readonly string[];
  onRefresh: () => void;
  disabled: boolean;
}) {
  const fetching = useIsFetching({ predicate: (query) => hashes.includes(query.queryHash) }) > 0;
  return (
    <button
      type="button"
      className={`rounded border border-panel-line px-2 py-0.5 hover:bg-panel-sunk ${DISABLED_LOOK}`}
      onClick={onRefresh}
      disabled={fetching || disabled}
    >
      {fetching ? 'Refreshing…' : 'Refresh'}
    </button>
  );
}

/** `/`: the dispatcher's view, with the config loaded. */
export function DispatcherPage() {
  const config = useQuery(configQuery());
  useEffect(() => void fleetMapModule(), []);
  if (config.isPending) return <p className="p-4 text-ink-muted">Loading Haulview…</p>;
  if (config.isError) return <ErrorBanner error={config.error} onRetry={() => void config.refetch()} />;
  return <Dispatcher config={config.data} />;
}

function Dispatcher({ config }: { config: ClientConfig }) {
  const entries = useWatchList();
  useWatchListInUrl(entries);
  useDemoFleetOnFirstVisit(config.demo);

  const externalIds = useMemo(() => idsBy(entries, 'external-id'), [entries]);
  const loadNumbers = useMemo(() => idsBy(entries, 'load-number'), [entries]);
  const byExternal = useQuery(loadQueries.board('external-id', externalIds, config.refreshSeconds));
  const byNumber = useQuery(loadQueries.board('load-number', loadNumbers, config.refreshSeconds));
  const now = useNow(5_000);
  const thresholds: StalenessThresholds = useMemo(
    () => ({ staleAfterMinutes: config.staleAfterMinutes, silentAfterMinutes: config.silentAfterMinutes }),
    [config.staleAfterMinutes, config.silentAfterMinutes],
  );

  const loads = useWatchedLoads(entries, byExternal, byNumber);
  // The clock ticks every 5 s, but the rows and markers are judged again only when a load crosses
  // a staleness threshold (levelNow moves on then), so 10,000 loads are not redone for nothing.
  const levelNow = useLevelNow(loads, now, thresholds);
  // A refresh replaces a tenth of the loads: the rest keep their rows by place, not by 9,000 lookups;
  // when the clock moves levelNow on, only the loads that changed level get another row.
  const rowsOf = useMemo(
    () => boardRows(thresholds, config.excursionTolerance),
    [thresholds, config.excursionTolerance],
  );
  // The board follows the map: its rows (10,000 made and sorted at the first answer) are rendered in
  // a pass of their own after the map's, so the map's points go to the cluster worker first and the
  // board is made while the worker clusters them, instead of before.
  const forBoard = useDeferredValue(useMemo(() => ({ loads, levelNow }), [loads, levelNow]));
  const rows = useSameList(useMemo(() => rowsOf(forBoard.loads, forBoard.levelNow), [rowsOf, forBoard]));
  const notFound = useMemo(
    (): LoadRef[] => [
      ...(byExternal.data?.missing ?? []).map((id) => ({ by: 'external-id' as const, id })),
      ...(byNumber.data?.missing ?? []).map((id) => ({ by: 'load-number' as const, id })),
    ],
    [byExternal.data?.missing, byNumber.data?.missing],
  );

  // `?load=e:700100`: the selected load, in the URL so a reload or link restores it.
  const [selectionText, setSelectionText] = useUrlParam('load');
  const selection = useMemo(() => parseLoadParam(selectionText), [selectionText]);
  const selectedKey = selection ? loadKey(selection) : null;
  const track = useQuery({
    ...loadQueries.detail(selection?.by ?? 'external-id', selection?.id ?? '', config.refreshSeconds),
    enabled: selection !== null,
  });
  // The selected load's own track: not the last load's, kept on screen while another one loads
  // (the detail query's placeholder), nor after the selection is closed.
  const selectedTrack = selection && !track.isPlaceholderData ? track.data : undefined;
  // Not a pass over 10,000 rows at each refresh when nothing is selected.
  const selectedRow = useMemo(
    () => (selectedKey === null ? undefined : rows.find((r) => r.key === selectedKey)),
    [rows, selectedKey],
  );
  // The map draws what the board shows: with a filter set, the loads of the board's rows that pass
  // it (a pass later than the map's own loads, like the rows), and the selected load whatever the
  // filter. Unfiltered, the loads themselves: a refresh reaches the map before the board is made.
  const [boardFilter, setBoardFilter] = useBoardFilter();
  const mapFilter = useDeferredValue(boardFilter);
  const filtered = !isUnfiltered(mapFilter);
  const { mapLoads, selectedFilteredOut } = useMemo(() => {
    if (!filtered) return { mapLoads: loads, selectedFilteredOut: false };
    const passed = filterRows(rows, mapFilter).map((r) => r.load);
    const out = selectedRow !== undefined && !passed.includes(selectedRow.load);
    return { mapLoads: out ? [...passed, selectedRow.load] : passed, selectedFilteredOut: out };
  }, [filtered, loads, rows, mapFilter, selectedRow]);
  // Counted, not filtered: a list of 10,000 loads made at each refresh to read its length. From the
  // loads the map draws, not the board's rows: those follow a pass later.
  const onMap = useMemo(() => mapLoads.reduce((n, l) => (l.latestLocation ? n + 1 : n), 0), [mapLoads]);
  const select = useCallback(
    (key: string) => {
      const sel = parseLoadKey(key);
      if (sel) setSelectionText(formatLoadParam(sel));
    },
    [setSelectionText],
  );
  const selectRow = useCallback(
    (row: BoardRow) => setSelectionText(formatLoadParam(row.load)),
    [setSelectionText],
  );

  const errors = [byExternal.error, byNumber.error].filter(Boolean);
  const updatedAt = Math.max(byExternal.dataUpdatedAt, byNumber.dataUpdatedAt);
  // Read here, `isFetching` would render the whole page when a poll starts; the button watches it.
  const boardHashes = useMemo(
    () => [
      loadQueries.boardHash('external-id', externalIds),
      loadQueries.boardHash('load-number', loadNumbers),
    ],
    [externalIds, loadNumbers],
  );
  const { refetch: refetchExternal } = byExternal;
  const { refetch: refetchNumber } = byNumber;
  const refresh = useCallback(() => {
    void refetchExternal();
    void refetchNumber();
  }, [refetchExternal, refetchNumber]);
  const pending =
    (externalIds.length > 0 && byExternal.isPending) || (loadNumbers.length > 0 && byNumber.isPending);

  return (
    <div className="grid h-full grid-cols-[minmax(22rem,26rem)_1fr] grid-rows-[auto_1fr]">
      <div className="col-span-2 flex flex-wrap items-center gap-x-4 gap-y-1 border-b border-panel-line bg-panel px-4 py-2 text-sm">
        <span>
          <strong>{formatCount(onMap)}</strong> of {formatCount(entries.length)} loads on the map
          {filtered && ', as filtered on the board'}
        </span>
        {filtered && (
          <button
            type="button"
            className="rounded border border-panel-line px-2 py-0.5 hover:bg-panel-sunk"
            onClick={() => {
              setBoardFilter(NO_FILTER);
              // The button goes with the filter: the keyboard's focus moves to the filter's text box.
              document.getElementById(BOARD_FILTER_ID)?.focus();
            }}
          >
            Show all
          </button>
        )}
        {notFound.length > 0 && <span className="text-status-stale">{notFound.length} not found</span>}
        {/* Not a live region: a screen reader would read the clock out every few seconds. */}
        <span className="text-ink-muted">
          {pending ? 'Loading…' : updatedAt > 0 ? `Updated ${formatSinceUpdate(now - updatedAt)}` : ''}
        </span>
        <RefreshButton hashes={boardHashes} onRefresh={refresh} disabled={entries.length === 0} />
        <ul className="ml-auto flex gap-3" aria-label="Legend">
          {LEGEND.map(([level, text]) => (
            <LegendItem key={level} swatch="h-3 w-3 rounded-full" color={statusColors[level]}>
              {text}
            </LegendItem>
          ))}
          <LegendItem swatch="h-3 w-3 rounded-full border border-status-accuracy bg-status-accuracy/15">
            Accuracy (68%)
          </LegendItem>
        </ul>
      </div>
      <div className="flex min-h-0 flex-col border-r border-panel-line">
        <WatchListPanel entries={entries} notFound={notFound} maxIds={config.maxIds} />
        {errors.length > 0 && (
          <ErrorBanner
            error={errors[0]}
            onRetry={() => void (byExternal.isError ? byExternal : byNumber).refetch()}
          />
        )}
        <div className="min-h-0 flex-1">
          <LoadBoard rows={rows} now={now} selectedKey={selectedKey} onSelect={selectRow} />
        </div>
        {/* Below the board, not above it: a click on a row that opened it above pushed every row
            down under the pointer, and the next click landed on another load. */}
        {selection && (
          <section aria-label="Selected load" className="border-t border-panel-line bg-blue-50 p-2 text-sm">
            <div className="flex items-center gap-2">
              <strong className="truncate">{selectedRow?.label ?? selection.id}</strong>
              <span className="truncate text-ink-muted">{selectedRow?.status ?? ''}</span>
              {/* On the map (it is selected) but not on the board: the header counts it, the rows do not. */}
              {selectedFilteredOut && (
                <span className="text-xs text-ink-muted">not in the board's filter</span>
              )}
              <Link
                href={loadPageHref(selection)}
                className="ml-auto rounded border border-panel-line bg-panel px-2 py-0.5 text-status-selected"
              >
                Details
              </Link>
              <button
                type="button"
                aria-label="Close selection"
                className="rounded border border-panel-line bg-panel px-2 py-0.5"
                onClick={() => setSelectionText(null)}
              >
                ×
              </button>
            </div>
            <div className="mt-1 flex items-baseline gap-2">
              <p className="min-w-0 flex-1 text-xs text-ink-muted">
                {track.isPending || track.isPlaceholderData
                  ? 'Loading its track…'
                  : selectedTrack?.load
                    ? `${selectedTrack.load.pings.length} pings · ${selectedTrack.load.events.length} status events · ${selectedTrack.load.documents.length} documents · last fix ${formatAccuracy(selectedTrack.load.latestLocation?.accuracy ?? null)}`
                    : track.isError
                      ? 'Its track could not be loaded.'
                      : 'The tracking service does not know this load.'}
              </p>
              {/* Away from "Details": a slip should not drop the load from the watch list. */}
              <button
                type="button"
                className="shrink-0 text-xs text-ink-muted underline hover:text-ink"
                onClick={() => {
                  watchList.remove(selection);
                  // Its panel and trail go with it: a load no longer watched is not followed.
                  setSelectionText(null);
                }}
              >
                Stop watching
              </button>
            </div>
          </section>
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
          loads={mapLoads}
          now={levelNow}
          thresholds={thresholds}
          lowConfidenceMeters={config.lowConfidenceMeters}
          selectedKey={selectedKey}
          track={selectedTrack?.load ?? null}
          onSelect={select}
          settled={!pending}
        />
      </Suspense>
    </div>
  );
}
