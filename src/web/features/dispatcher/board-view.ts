import { useCallback, useMemo } from 'react';
import { loadKey, parseLoadKey } from '../../lib/load-ref';
import { useUrlParam } from '../../lib/url-state';
import { decodeWatch, encodeWatch } from '../../lib/watch-list';
import type { BoardFilter, SortKey } from './board-rows';

const SORT_KEYS: readonly SortKey[] = ['staleness', 'status', 'id'];

/** A filter's text is searched for in a load's fields: a longer one finds nothing, and bloats the URL. */
const MAX_TEXT = 200;

/**
 * The board's filter, kept in the URL (`q`, `status`, `stale=1`: needs attention, `reefer=1`,
 * `hide=finished`, `only=`: the loads a cluster's late count named) so a reload or a shared link opens the same selection of loads, and read by the
 * page too: the map draws what the board shows. `stale=1` keeps the name it had as "stale only", so
 * links made before still open the loads that need attention. The setter changes the fields it is
 * given and keeps the others.
 */
export function useBoardFilter(): [BoardFilter, (change: Partial<BoardFilter>) => void] {
  const [text, setText] = useUrlParam('q');
  const [status, setStatus] = useUrlParam('status');
  const [stale, setStale] = useUrlParam('stale');
  const [reefer, setReefer] = useUrlParam('reefer');
  const [hide, setHide] = useUrlParam('hide');
  const [only, setOnly] = useUrlParam('only');
  const filter = useMemo(
    (): BoardFilter => ({
      text: (text ?? '').slice(0, MAX_TEXT),
      // An empty `status=` is no status filter, not a filter on an empty name.
      status: status || null,
      attentionOnly: stale === '1',
      reeferOnly: reefer === '1',
      hideFinished: hide === 'finished',
      // Written as the watch list is (`e:700114,700135;n:LN1`); a list that names no load is none.
      only: only === null ? null : new Set(decodeWatch(only).map(loadKey)),
    }),
    [text, status, stale, reefer, hide, only],
  );
  const change = useCallback(
    (next: Partial<BoardFilter>) => {
      // Each writer reads the query as it is when it runs, so several fields can change at once.
      if (next.text !== undefined) setText(next.text === '' ? null : next.text.slice(0, MAX_TEXT));
      if (next.status !== undefined) setStatus(next.status);
      if (next.attentionOnly !== undefined) setStale(next.attentionOnly ? '1' : null);
      if (next.reeferOnly !== undefined) setReefer(next.reeferOnly ? '1' : null);
      if (next.hideFinished !== undefined) setHide(next.hideFinished ? 'finished' : null);
      if (next.only !== undefined)
        setOnly(
          next.only === null ? null : encodeWatch([...next.only].flatMap((key) => parseLoadKey(key) ?? [])),
        );
    },
    [setText, setStatus, setStale, setReefer, setHide, setOnly],
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

/** What a phone shows of the dispatcher's page: the board, or the map. */
export type DispatcherView = 'board' | 'map';

/**
 * The phone's choice between the board and the map, in the URL as `view=map` (the board needs none)
 * like the rest of the board's state, so a reload or a shared link opens the same. Wider screens
 * show both and ignore it.
 */
export function useDispatcherView(): [DispatcherView, (view: DispatcherView) => void] {
  const [text, setText] = useUrlParam('view');
  const view: DispatcherView = text === 'map' ? 'map' : 'board';
  const set = useCallback((next: DispatcherView) => setText(next === 'board' ? null : next), [setText]);
  return [view, set];
}
