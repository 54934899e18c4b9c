import { useQuery } from '@tanstack/react-query';
import { startTransition, useCallback, useEffect, useMemo, useState } from 'react';
import type { Load } from '@/domain/model';
import type { ClientConfig } from '@/contract/proxy-api';
import type { StalenessThresholds } from '@/domain/staleness';
import { loadQueries } from '../../data/load-queries';
import type { LoadRef } from '../../lib/load-ref';
import { useSameList } from '../../lib/same-list';
import { useLevelNow, useNow } from '../../lib/use-now';
import {
  idsBy,
  useDemoFleetOnFirstVisit,
  useWatchedLoads,
  useWatchList,
  useWatchListInUrl,
} from '../../lib/watch-list';
import { boardRows } from './board-rows';

/**
 * The watched loads, pulled in two views (by external id, by load number), their board rows, and
 * what the header says of the pulls.
 */
export function useDispatcherLoads(config: ClientConfig) {
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
  // With the cursors of the answers they are of: the bench reads when a change is on screen.
  const cursors = [byExternal.data?.cursor, byNumber.data?.cursor].filter(Boolean).join(' ');
  const current = useMemo(() => ({ loads, levelNow, cursors }), [loads, levelNow, cursors]);
  const { forBoard, mapDrew } = useBoardAfterMap(current);
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
    mapDrew,
    now,
    thresholds,
    loads,
    levelNow,
    rows,
    cursors: forBoard.cursors,
    notFound,
    waiting,
    error: byExternal.error ?? byNumber.error,
    retry: () => void (byExternal.isError ? refetchExternal : refetchNumber)(),
    updatedAt,
    boardHashes,
    refresh,
    pending,
  };
}

/** How long a new set of loads waits for the map before the board makes its rows anyway. */
const BOARD_WAITS_MS = 1000;

/**
 * What the board shows of the loads. A new set of loads (the first answer, another watch list): the
 * map first. Its points go to the cluster worker, and the board's rows (10,000 made and sorted, one
 * block of work) wait until the map has drawn, or a second: made at once, they held the page's thread
 * while the worker's clusters and the map's frame waited. A refresh of the same loads is drawn in one
 * pass: its rows cost little, and a pass later is a render, a commit and a frame more, with the board
 * a version behind the map in between. `mapDrew` is the map's to call after each draw.
 */
export function useBoardAfterMap<T extends { loads: Load[] }>(
  current: T,
): { forBoard: T; mapDrew: (() => void) | undefined } {
  const [shown, setShown] = useState(current);
  const [released, setReleased] = useState<readonly Load[] | null>(null);
  const waiting = current.loads.length !== shown.loads.length && released !== current.loads;
  // What the board shows, kept for the next new set to wait with (set while rendering: a value
  // derived from the props, as React's docs do it, without an effect's extra commit).
  if (!waiting && shown !== current) setShown(current);
  const set = waiting ? current.loads : null;
  // Only while a set waits: the map's other draws (a pan) call nothing.
  const mapDrew = useMemo(() => (set ? () => startTransition(() => setReleased(set)) : undefined), [set]);
  useEffect(() => {
    if (!set) return;
    const timer = setTimeout(() => startTransition(() => setReleased(set)), BOARD_WAITS_MS);
    return () => clearTimeout(timer);
  }, [set]);
  return { forBoard: waiting ? shown : current, mapDrew };
}
