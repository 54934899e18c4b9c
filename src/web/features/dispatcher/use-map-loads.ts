import { useCallback, useDeferredValue, useMemo } from 'react';
import type { Load } from '@/domain/model';
import { filterRows, isUnfiltered, NO_FILTER, type BoardRow } from './board-rows';
import { useBoardFilter } from './board-view';
import { BOARD_FILTER_ID } from './load-board';

/**
 * The loads the map draws: what the board shows. With a filter set, the loads of the board's rows
 * that pass it (a pass later than the map's own loads, like the rows), and the selected load whatever
 * the filter. Unfiltered, the loads themselves: a refresh reaches the map before the board is made.
 */
export function useMapLoads(loads: Load[], rows: BoardRow[], selectedRow: BoardRow | undefined) {
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
  const showAll = useCallback(() => {
    setBoardFilter(NO_FILTER);
    // The button goes with the filter: the keyboard's focus moves to the filter's text box.
    document.getElementById(BOARD_FILTER_ID)?.focus();
  }, [setBoardFilter]);

  // A cluster's late count: the board and the map show those loads alone, whatever was filtered.
  const showOnly = useCallback(
    (keys: string[]) => setBoardFilter({ ...NO_FILTER, only: new Set(keys) }),
    [setBoardFilter],
  );

  return { filtered, mapLoads, selectedFilteredOut, onMap, showAll, showOnly };
}
