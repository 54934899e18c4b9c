import { useCallback, useSyncExternalStore } from 'react';

/**
 * The newest alert each user has looked at, kept in this browser per user name. The bell is a nudge
 * on the screen in front of the user; the team's record of alerts is the server's list, which every
 * browser reads in full. A second browser counts the latest alerts as new once, then keeps up.
 */
export const ALERTS_SEEN_PREFIX = 'haulview.alertsSeen.';

const listeners = new Set<() => void>();
/** What storage could not keep (blocked or full): it holds until the page is left. */
const fallback = new Map<string, number>();

function read(user: string): number {
  try {
    const text = window.localStorage.getItem(ALERTS_SEEN_PREFIX + user);
    const n = text === null ? NaN : Number(text);
    return Number.isSafeInteger(n) ? n : (fallback.get(user) ?? 0);
  } catch {
    return fallback.get(user) ?? 0;
  }
}

function write(user: string, id: number): void {
  // Never backwards: another tab may have seen newer ones.
  if (id <= read(user)) return;
  try {
    window.localStorage.setItem(ALERTS_SEEN_PREFIX + user, String(id));
  } catch {
    fallback.set(user, id);
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab looked: this one's count follows.
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || e.key.startsWith(ALERTS_SEEN_PREFIX)) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** Alert ids are the store's serial numbers: newer is greater. A malformed one counts as unseen. */
export const alertNumber = (id: string): number => {
  const n = Number(id);
  return Number.isSafeInteger(n) ? n : Infinity;
};

/** The newest alert id `user` has seen (0: none), and a way to say they saw up to one. */
export function useAlertsSeen(user: string): [number, (newestId: string) => void] {
  const seen = useSyncExternalStore(subscribe, () => read(user));
  const markSeen = useCallback(
    (newestId: string) => {
      const n = alertNumber(newestId);
      if (Number.isFinite(n)) write(user, n);
    },
    [user],
  );
  return [seen, markSeen];
}
