import { useCallback } from 'react';
import { useSearchParams } from 'wouter';

/**
 * One value kept in the URL's query, so a reload or a shared link restores it. Changes replace the
 * history entry: panning the map or selecting a load is not a page to go back to.
 */
export function useUrlParam(name: string): [string | null, (value: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const value = params.get(name);
  const set = useCallback(
    (next: string | null) =>
      setParams(
        (current) => {
          const copy = new URLSearchParams(current);
          if (next === null) copy.delete(name);
          else copy.set(name, next);
          return copy;
        },
        { replace: true },
      ),
    [name, setParams],
  );
  return [value, set];
}
