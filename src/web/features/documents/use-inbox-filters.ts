import { useCallback, useMemo } from 'react';
import { useUrlParam } from '../../lib/url-state';
import { DEFAULT_FILTERS, type InboxFilters, type ReviewFilter } from './inbox-model';

/** A filter's value is matched exactly: a longer one matches nothing, and bloats the URL. */
const MAX_TEXT = 200;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const reviewOf = (text: string | null): ReviewFilter =>
  text === 'reviewed' || text === 'all' ? text : 'unreviewed';
// An empty `type=` or `stop=` is a filter on documents that give none, so it is kept as ''.
const choiceOf = (text: string | null) => (text === null ? undefined : text.slice(0, MAX_TEXT));
const dayOf = (text: string | null) => (text !== null && DAY.test(text) ? text : '');

/**
 * The inbox's filters and grouping, kept in the URL as the board's are (`show=reviewed|all`, `type`,
 * `load`, `stop`, `from`, `to`, `group=load`, `sort=flagged`), so a reload or a shared link opens the same queue.
 * The defaults (documents to review, every type, load, stop and day, not grouped, newest first) need
 * none; a value
 * that cannot be one (an unknown `show`, a date that is no `YYYY-MM-DD`) reads as the default.
 */
export function useInboxFilters(): {
  filters: InboxFilters;
  setFilters: (next: InboxFilters) => void;
  grouped: boolean;
  setGrouped: (grouped: boolean) => void;
  /** The documents with stop-check flags first, the worst first. */
  flagged: boolean;
  setFlagged: (flagged: boolean) => void;
} {
  const [show, setShow] = useUrlParam('show');
  const [type, setType] = useUrlParam('type');
  const [load, setLoad] = useUrlParam('load');
  const [stop, setStop] = useUrlParam('stop');
  const [from, setFrom] = useUrlParam('from');
  const [to, setTo] = useUrlParam('to');
  const [group, setGroup] = useUrlParam('group');
  const [sort, setSort] = useUrlParam('sort');
  const filters = useMemo(
    (): InboxFilters => ({
      review: reviewOf(show),
      type: choiceOf(type),
      load: choiceOf(load),
      stop: choiceOf(stop),
      from: dayOf(from),
      to: dayOf(to),
    }),
    [show, type, load, stop, from, to],
  );
  const setFilters = useCallback(
    (next: InboxFilters) => {
      // Each writer reads the query as it is when it runs, so several fields can change at once.
      setShow(next.review === DEFAULT_FILTERS.review ? null : next.review);
      setType(next.type ?? null);
      setLoad(next.load ?? null);
      setStop(next.stop ?? null);
      setFrom(next.from || null);
      setTo(next.to || null);
    },
    [setShow, setType, setLoad, setStop, setFrom, setTo],
  );
  const setGrouped = useCallback((on: boolean) => setGroup(on ? 'load' : null), [setGroup]);
  const setFlagged = useCallback((on: boolean) => setSort(on ? 'flagged' : null), [setSort]);
  return {
    filters,
    setFilters,
    grouped: group === 'load',
    setGrouped,
    flagged: sort === 'flagged',
    setFlagged,
  };
}
