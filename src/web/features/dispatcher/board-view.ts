import { useCallback, useMemo } from 'react';
import { useUrlParam } from '../../lib/url-state';
import type { BoardFilter, SortKey } from './board-rows';

const SORT_KEYS: readonly SortKey[] = ['staleness', 'status', 'id'];

/** A filter's text is searched for in a load's fields: a longer one finds nothing, and bloats the URL. */
const MAX_TEXT = 200;

/**
 * The board's filter, kept in the URL (`q`, `status`, `stale=1`, `reefer=1`) so a reload or a shared
 * link opens the same selection of loads, and read by the page too: the map draws what the board shows.
 * The setter changes the fields it is given and keeps the others.
 */
export function useBoardFilter(): [BoardFilter, (change: Partial<BoardFilter>) => void] {
  const [text, setText] = useUrlParam('q');
  const [status, setStatus] = useUrlParam('status');
  const [stale, setStale] = useUrlParam('stale');
  const [reefer, setReefer] = useUrlParam('reefer');
  const filter = useMemo(
    (): BoardFilter => ({
      text: (text ?? '').slice(0, MAX_TEXT),
      // An empty `status=` is no status filter, not a filter on an empty name.
      status: status || null,
      staleOnly: stale === '1',
      reeferOnly: reefer === '1',
    }),
    [text, status, stale, reefer],
  );
  const change = useCallback(
    (next: Partial<BoardFilter>) => {
      // Each writer reads the query as it is when it runs, so several fields can change at once.
      if (next.text !== undefined) setText(next.text === '' ? null : next.text.slice(0, MAX_TEXT));
      if (next.status !== undefined) setStatus(next.status);
      if (next.staleOnly !== undefined) setStale(next.staleOnly ? '1' : null);
      if (next.reeferOnly !== undefined) setReefer(next.reeferOnly ? '1' : null);
    },
    [setText, setStatus, setStale, setReefer],
  );
  return [filter, change];
}

/** The board's sort, in the URL as `sort=status` or `sort=id` (most urgent first needs none). */
export function useBoardSort(): [SortKey, (sort: SortKey) => void] {
  const [text, setText] = useUrlParam('sort');
  const sort = SORT_KEYS.find((k) => k === text) ?? 'staleness';
  const set = useCallback((next: SortKey) => setText(next === 'staleness' ? null : next), [setText]);
  return [sort, set];
}
