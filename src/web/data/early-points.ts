import { useCallback, useEffect, useSyncExternalStore } from 'react';
import type { LoadBy } from '@/domain/model';
import type { EarlyPoints, LookRules } from '../lib/load-look';
import { loadQueries } from './load-queries';
import { pullsOffPage } from './pull-thread';

/**
 * The map's points of a board's last whole answer, sent by the pull worker before the loads (none
 * without a worker, or before the first answer). `rules` are told to the worker before any pull of
 * this render can start: the looks it sends are judged by them. While `wanted` (the map will draw
 * them, and say so with `earlyPointsDrawn`), the loads that follow them wait for that.
 */
export function useEarlyPoints(
  by: LoadBy,
  ids: readonly string[],
  rules: LookRules,
  wanted: boolean,
): EarlyPoints | undefined {
  pullsOffPage.lookRules(rules);
  const view = loadQueries.boardView(by, ids);
  useEffect(() => (wanted ? pullsOffPage.awaitEarly(view) : undefined), [view, wanted]);
  const read = useCallback(() => pullsOffPage.earlyPoints(view), [view]);
  return useSyncExternalStore(pullsOffPage.onEarlyPoints, read, read);
}

/** The map drew the early points it waited for: their loads may come to the page now. */
export const earlyPointsDrawn = (): void => pullsOffPage.earlyDrawn();
