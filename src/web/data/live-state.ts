import { useSyncExternalStore } from 'react';

/**
 * Whether changes come as they happen: `live` while `/api/stream` is open, `polling` while it is not
 * (the views' own refresh goes on either way), `off` where no stream was started (a share page).
 * Apart from the stream itself, so the badge on the first page does not bring the stream's code.
 */
export type LiveState = 'off' | 'live' | 'polling';

let state: LiveState = 'off';
const watchers = new Set<() => void>();

/** Sets the state (the stream does) and tells those who watch it. */
export function setLiveState(next: LiveState) {
  if (next === state) return;
  state = next;
  for (const w of watchers) w();
}
const subscribe = (w: () => void) => {
  watchers.add(w);
  return () => void watchers.delete(w);
};

/** The state now, outside React. */
export const liveStateNow = (): LiveState => state;

export function useLiveState(): LiveState {
  return useSyncExternalStore(subscribe, () => state);
}
