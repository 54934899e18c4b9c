import { useCallback, useSyncExternalStore } from 'react';

/** A time that changes in every frame, read outside React's render. */
export interface TimeSource {
  get(): number | undefined;
  /** Called at each change, in the task that made it; returns the unsubscribe. */
  subscribe(listener: (time: number) => void): () => void;
}

export interface TimeStore extends TimeSource {
  set(time: number): void;
}

/**
 * A replay's time kept outside React: the map's layers, the charts' lines and the slider subscribe
 * and write to their own canvas or element, so a frame of play renders no component.
 */
export function createTimeStore(initial?: number): TimeStore {
  let current = initial;
  const listeners = new Set<(time: number) => void>();
  return {
    get: () => current,
    set(time) {
      if (time === current) return;
      current = time;
      for (const listener of listeners) listener(time);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * A coarse view of the time for React (the minute, say): the component renders again only when
 * `select` gives another value. `select` must be stable (module level or `useCallback`).
 */
export function useTimeSelect<T extends string | number | undefined>(
  source: TimeSource,
  select: (time: number | undefined) => T,
): T {
  const subscribe = useCallback((onChange: () => void) => source.subscribe(onChange), [source]);
  return useSyncExternalStore(subscribe, () => select(source.get()));
}
