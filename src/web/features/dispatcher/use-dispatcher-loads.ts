import { useQuery } from '@tanstack/react-query';
import { useCallback, useDeferredValue, useMemo } from 'react';
import type { ClientConfig } from '@/contract/proxy-api';
import type { StalenessThresholds } from '@/domain/staleness';
import { useEarlyPoints } from '../../data/early-points';
import type { EarlyMapPoints } from './fleet-map';
import { loadQueries } from '../../data/load-queries';
import { usePullFailure } from '../../data/use-pull-failure';
import type { LoadRef } from '../../lib/load-ref';
import { useSameList } from '../../lib/same-list';
import { useLevelNow } from '../../lib/use-now';
import {
  idsBy,
  useDemoFleetOnFirstVisit,
  useWatchedLoads,
  useWatchList,
  useWatchListInUrl,
} from '../../lib/watch-list';
import { boardRows, isUnfiltered } from './board-rows';
import { useBoardFilter } from './board-view';

/**
 * The watched loads, pulled in two views (by external id, by load number), their board rows, and
 * what the header says of the pulls. `mapShown`: the map is on the page (its code loaded), so a first
 * answer's points may wait for it to draw them before its loads come.
 */
export function useDispatcherLoads(config: ClientConfig, mapShown: boolean) {
  const entries = useWatchList();
  useWatchListInUrl(entries);
  useDemoFleetOnFirstVisit(config.demo);

  const externalIds = useMemo(() => idsBy(entries, 'external-id'), [entries]);
  const loadNumbers = useMemo(() => idsBy(entries, 'load-number'), [entries]);
  const byExternal = useQuery(loadQueries.board('external-id', externalIds, config.refreshSeconds));
  const byNumber = useQuery(loadQueries.board('load-number', loadNumbers, config.refreshSeconds));
  const thresholds: StalenessThresholds = useMemo(
    () => ({ staleAfterMinutes: config.staleAfterMinutes, silentAfterMinutes: config.silentAfterMinutes }),
    [config.staleAfterMinutes, config.silentAfterMinutes],
  );

  const loads = useWatchedLoads(entries, byExternal, byNumber);
  // The rows and markers are judged again only when a load crosses a staleness threshold (levelNow
  // moves on then), so 10,000 loads are not redone for nothing. The ages read their own clocks.
  const levelNow = useLevelNow(loads, thresholds);
  // A first answer's points reach the map before its loads reach the page: each kind of id's, while
  // its query has no loads yet. The first fit waits for every kind, as it does for the loads.
  // Judged at the instant the loads will be: the early looks are theirs.
  const lookRules = useMemo(
    () => ({ thresholds, excursionTolerance: config.excursionTolerance, at: levelNow }),
    [thresholds, config.excursionTolerance, levelNow],
  );
  const hasExternal = byExternal.data !== undefined;
  const hasNumbers = byNumber.data !== undefined;
  // A filtered map draws the rows that pass the filter: it waits for them, not for the points.
  const [boardFilter] = useBoardFilter();
  const unfiltered = isUnfiltered(boardFilter);
  const earlyExternal = useEarlyPoints(
    'external-id',
    externalIds,
    lookRules,
    mapShown && unfiltered && externalIds.length > 0 && !hasExternal,
  );
  const earlyNumbers = useEarlyPoints(
    'load-number',
    loadNumbers,
    lookRules,
    mapShown && unfiltered && loadNumbers.length > 0 && !hasNumbers,
  );
  const early = useMemo((): EarlyMapPoints | undefined => {
    const before = externalIds.length > 0 && !hasExternal ? earlyExternal : undefined;
    const after = loadNumbers.length > 0 && !hasNumbers ? earlyNumbers : undefined;
    if (!unfiltered || (!before && !after)) return undefined;
    const whole =
      (externalIds.length === 0 || hasExternal || before !== undefined) &&
      (loadNumbers.length === 0 || hasNumbers || after !== undefined);
    return { before, after, whole };
  }, [externalIds, loadNumbers, hasExternal, hasNumbers, earlyExternal, earlyNumbers, unfiltered]);
  // A refresh replaces a tenth of the loads: the rest keep their rows by place, not by 9,000 lookups;
  // when the clock moves levelNow on, only the loads that changed level get another row.
  const rowsOf = useMemo(
    () => boardRows(thresholds, config.excursionTolerance),
    [thresholds, config.excursionTolerance],
  );
  // A new set of loads (the first answer, another watch list): the board follows the map, its rows
  // (10,000 made and sorted) rendered in a pass of their own after the map's, so the map's points go
  // to the cluster worker first and the board is made while the worker clusters them. A refresh of
  // the same loads is drawn in one pass: its rows cost little, and a second pass is a render, a
  // commit and a frame more, with the board a version behind the map in between.
  // With the cursors of the answers they are of: the bench reads when a change is on screen.
  const cursors = [byExternal.data?.cursor, byNumber.data?.cursor].filter(Boolean).join(' ');
  const current = useMemo(() => ({ loads, levelNow, cursors }), [loads, levelNow, cursors]);
  const deferred = useDeferredValue(current);
  const forBoard = deferred.loads.length === current.loads.length ? current : deferred;
  const rows = useSameList(useMemo(() => rowsOf(forBoard.loads, forBoard.levelNow), [rowsOf, forBoard]));
  const notFound = useMemo(
    (): LoadRef[] => [
      ...(byExternal.data?.missing ?? []).map((id) => ({ by: 'external-id' as const, id })),
      ...(byNumber.data?.missing ?? []).map((id) => ({ by: 'load-number' as const, id })),
    ],
    [byExternal.data?.missing, byNumber.data?.missing],
  );

  // Ids the proxy's store has not pulled yet (several instances): watched, neither shown nor missing.
  const waiting = (byExternal.data?.pending?.length ?? 0) + (byNumber.data?.pending?.length ?? 0);

  const updatedAt = Math.max(byExternal.dataUpdatedAt, byNumber.dataUpdatedAt);
  // Read here, `isFetching` would render the whole page when a poll starts; the button watches it.
  const boardHashes = useMemo(
    () => [
      loadQueries.boardHash('external-id', externalIds),
      loadQueries.boardHash('load-number', loadNumbers),
    ],
    [externalIds, loadNumbers],
  );
  const externalFailure = usePullFailure(byExternal);
  const numberFailure = usePullFailure(byNumber);
  const { refetch: refetchExternal } = byExternal;
  const { refetch: refetchNumber } = byNumber;
  const refresh = useCallback(() => {
    void refetchExternal();
    void refetchNumber();
  }, [refetchExternal, refetchNumber]);
  const pending =
    (externalIds.length > 0 && byExternal.isPending) || (loadNumbers.length > 0 && byNumber.isPending);

  return {
    entries,
    thresholds,
    loads,
    early,
    levelNow,
    rows,
    cursors: forBoard.cursors,
    notFound,
    waiting,
    error: externalFailure ?? numberFailure,
    retry: () => void (externalFailure ? refetchExternal : refetchNumber)(),
    updatedAt,
    boardHashes,
    refresh,
    pending,
  };
}
