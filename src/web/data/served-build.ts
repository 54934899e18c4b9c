import { useSyncExternalStore } from 'react';
import { BUILD_META } from '@/contract/proxy-api';
import { onServedBuild } from './api-client';

/**
 * Whether the server now serves another build than the one this tab runs: after a deploy, an open
 * tab's code may not read the new answers (nor find its lazy chunks), so it offers a reload.
 */
let own: string | undefined;
let served: string | undefined;
const listeners = new Set<() => void>();

/** Reads the tab's own build from its page, and hears the answers' from then on. */
export function startBuildCheck(doc: Document = document): void {
  own = doc.querySelector<HTMLMetaElement>(`meta[name="${BUILD_META}"]`)?.content || undefined;
  onServedBuild(noteServedBuild);
}

/** The build an answer named (on the page, or relayed by the pull worker). */
export function noteServedBuild(build: string): void {
  if (build === served) return;
  served = build;
  for (const listener of listeners) listener();
}

/** True once an answer came from another build than the page's (a page without one never asks). */
export const servedAnotherBuild = (): boolean => own !== undefined && served !== undefined && served !== own;

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

export function useServedAnotherBuild(): boolean {
  return useSyncExternalStore(subscribe, servedAnotherBuild, () => false);
}
