import { useCallback } from 'react';
import { useLocation, type AroundNavHandler } from 'wouter';
import { useLocationProperty } from 'wouter/use-browser-location';
import { formatLoadParam, mapHref, type LoadRef } from './load-ref';

/**
 * The query parsed once per query text, for every component that reads it: the URL may carry a
 * watch list of thousands of ids, too many to parse again in each reader on every render.
 */
let parsedSearch: { search: string; params: URLSearchParams } | undefined;
function paramsOf(search: string): URLSearchParams {
  if (parsedSearch?.search !== search) parsedSearch = { search, params: new URLSearchParams(search) };
  return parsedSearch.params;
}

/**
 * A query as text, with the `:` and `,` of the values left as they are (`map=39.1,-96.2,4`,
 * `w=e:700100:710099`): both are allowed in a query (RFC 3986) and read back the same, and a link a
 * dispatcher pastes to a colleague stays readable. `URLSearchParams` alone writes them `%3A`, `%2C`.
 */
export function queryText(params: URLSearchParams): string {
  return params.toString().replace(/%3A/gi, ':').replace(/%2C/gi, ',');
}

/**
 * One value kept in the URL's query, so a reload or a shared link restores it. Changes replace the
 * history entry: panning the map or selecting a load is not a page to go back to.
 */
export function useUrlParam(name: string): [string | null, (value: string | null) => void] {
  // Subscribed to this value alone, not to the whole query: the map writes its view at each pan,
  // which must not render again every component that keeps something else in the URL.
  const value = useLocationProperty(() => paramsOf(window.location.search).get(name));
  const [location, navigate] = useLocation();
  const set = useCallback(
    (next: string | null) => {
      // A write from a page that is being left (the map's view, written once the map rested, after
      // a link was followed) must not take the user back to it.
      if (window.location.pathname !== location) return;
      // From the query as it is now: another reader may have changed it since this one rendered.
      const copy = new URLSearchParams(window.location.search);
      if (next === null) copy.delete(name);
      else copy.set(name, next);
      const text = queryText(copy);
      navigate(location + (text ? `?${text}` : ''), { replace: true });
    },
    [name, location, navigate],
  );
  return [value, set];
}

/** URL writes waiting for the page to rest, each by its owner: see `restingWrite`. */
const waitingWrites = new Map<object, () => void>();

/**
 * For wouter's `<Router aroundNav>`: the writes waiting for the page to rest are made before a link
 * is followed, in the entry being left, so that Back returns to what was on screen (the map's view a
 * moment after a zoom), not to what was there before.
 */
export const writeBeforeNavigating: AroundNavHandler = (navigate, to, options) => {
  const writes = [...waitingWrites.values()];
  waitingWrites.clear();
  for (const write of writes) write();
  if (window.location.pathname === '/') boardSearch = window.location.search;
  navigate(to, options);
};

/** The dispatcher page's query when a link last left it: its watch list, filters, sort and view. */
let boardSearch = '';

/**
 * The dispatcher's board as it was left, with this load selected: a load page's way back keeps
 * the board's filters, sort and map view (the plain `mapHref` when the board was never left here).
 */
export function boardHref(ref: LoadRef): string {
  if (!boardSearch) return mapHref(ref);
  const params = new URLSearchParams(boardSearch);
  params.set('load', formatLoadParam(ref));
  return `/?${queryText(params)}`;
}

/**
 * A URL write made once the page has rested `afterMs` since the last `schedule()` (then, with
 * `idleTimeoutMs`, when the browser is idle, at the latest that much later), or at once when a link is
 * followed meanwhile. `hold()` keeps it for a link only, with no timer (a move under way); `cancel()`
 * drops it: a page that is left by Back owns the URL no more.
 */
export function restingWrite(
  write: () => void,
  { afterMs, idleTimeoutMs }: { afterMs: number; idleTimeoutMs?: number },
): { schedule: () => void; hold: () => void; cancel: () => void } {
  const owner = {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  let idle: number | undefined;
  const cancel = () => {
    clearTimeout(timer);
    if (idle !== undefined) window.cancelIdleCallback(idle);
    idle = undefined;
    waitingWrites.delete(owner);
  };
  const now = () => {
    cancel();
    write();
  };
  const hold = () => {
    cancel();
    waitingWrites.set(owner, now);
  };
  const schedule = () => {
    hold();
    timer = setTimeout(() => {
      if (idleTimeoutMs === undefined || typeof window.requestIdleCallback !== 'function') now();
      else idle = window.requestIdleCallback(now, { timeout: idleTimeoutMs });
    }, afterMs);
  };
  return { schedule, hold, cancel };
}
