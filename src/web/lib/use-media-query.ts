import { useCallback, useSyncExternalStore } from 'react';

/** Whether a media query matches now, following it as the window changes; false where none is known. */
export function useMediaQuery(query: string): boolean {
  // One subscription per query: a new function each render would unsubscribe and subscribe again.
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => typeof window.matchMedia === 'function' && window.matchMedia(query).matches,
    () => false,
  );
}
