import { useSyncExternalStore } from 'react';
import type { TimeZoneChoice } from './time-format';

/**
 * Whose zone times are written in, the driver's or the viewer's: a view preference, kept in this
 * browser, the same on every page (the load page's chart and timeline, the documents inbox) and in
 * every tab.
 */
export const TIME_ZONE_STORAGE_KEY = 'haulview.timeZone';

const listeners = new Set<() => void>();

function read(): TimeZoneChoice {
  try {
    return window.localStorage.getItem(TIME_ZONE_STORAGE_KEY) === 'mine' ? 'mine' : 'driver';
  } catch {
    // Storage blocked: the default.
    return 'driver';
  }
}

export function setTimeZoneChoice(choice: TimeZoneChoice): void {
  try {
    window.localStorage.setItem(TIME_ZONE_STORAGE_KEY, choice);
  } catch {
    // Storage blocked or full: the choice holds until the page is left.
    fallback = choice;
  }
  for (const listener of listeners) listener();
}

let fallback: TimeZoneChoice | undefined;
const snapshot = (): TimeZoneChoice => fallback ?? read();

function onStorage(e: StorageEvent) {
  if (e.key === TIME_ZONE_STORAGE_KEY || e.key === null) for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) window.addEventListener('storage', onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('storage', onStorage);
  };
}

/** The viewer's choice of zone; every reader renders again when it changes, here or in another tab. */
export function useTimeZoneChoice(): TimeZoneChoice {
  return useSyncExternalStore(subscribe, snapshot, () => 'driver');
}
