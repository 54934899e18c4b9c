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

/**
 * Like `useTimeSelect`, but React hears of a change at most once every `everyMs` of real time (the
 * last change always lands): text that moves with a played time is read a few times a second, not
 * laid out again in every frame.
 */
export function useThrottledTimeSelect<T extends string | number | undefined>(
  source: TimeSource,
  select: (time: number | undefined) => T,
  everyMs: number,
): T {
  const subscribe = useCallback(
    (onChange: () => void) => {
      let last = -Infinity;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const fire = () => {
        timer = undefined;
        last = performance.now();
        onChange();
      };
      const unsubscribe = source.subscribe(() => {
        if (timer !== undefined) return;
        const wait = last + everyMs - performance.now();
        // In a task of its own: the frame that moved the time does not also render React.
        timer = setTimeout(fire, Math.max(0, wait));
      });
      return () => {
        unsubscribe();
        clearTimeout(timer);
      };
    },
    [source, everyMs],
  );
  return useSyncExternalStore(subscribe, () => select(source.get()));
}
