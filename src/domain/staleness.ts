/**
 * How long since a load's phone last reported. `stale` means look soon; `silent` means the driver's
 * phone has stopped reporting and someone should call. Thresholds are configurable.
 */
export type Staleness = 'fresh' | 'stale' | 'silent' | 'unknown';

export interface StalenessThresholds {
  staleAfterMinutes: number;
  silentAfterMinutes: number;
}

export const DEFAULT_THRESHOLDS: StalenessThresholds = { staleAfterMinutes: 30, silentAfterMinutes: 120 };

export function staleness(lastPingAt: number | undefined, now: number, t = DEFAULT_THRESHOLDS): Staleness {
  if (lastPingAt === undefined) return 'unknown';
  // In milliseconds, the way nextLevelChange adds them up: the two agree at the very boundary.
  const age = now - lastPingAt;
  if (age >= t.silentAfterMinutes * 60_000) return 'silent';
  if (age >= t.staleAfterMinutes * 60_000) return 'stale';
  return 'fresh';
}

/** A load's staleness at `now`, from its latest location (the board, the markers, a load's page). */
export function loadStaleness(
  load: { latestLocation?: { instant: number } | undefined },
  now: number,
  t = DEFAULT_THRESHOLDS,
): Staleness {
  return staleness(load.latestLocation?.instant, now, t);
}

/**
 * The first moment after `now` at which one of these loads changes level (fresh to stale, stale to
 * silent), or Infinity if none will. Until then every load's staleness is what it is at `now`: a
 * clock that ticks every few seconds need not judge 10,000 loads again.
 */
export function nextLevelChange(
  loads: readonly { latestLocation?: { instant: number } | undefined }[],
  now: number,
  t = DEFAULT_THRESHOLDS,
): number {
  const stale = t.staleAfterMinutes * 60_000;
  const silent = t.silentAfterMinutes * 60_000;
  let next = Infinity;
  for (const load of loads) {
    const at = load.latestLocation?.instant;
    if (at === undefined) continue;
    if (at + stale > now && at + stale < next) next = at + stale;
    if (at + silent > now && at + silent < next) next = at + silent;
  }
  return next;
}

/** "just now", "4 min ago", "2 h 5 min ago", "3 d ago": for a dispatcher, not a log. */
export function formatAge(ms: number): string {
  if (!Number.isFinite(ms)) return 'never';
  // A minute of clock skew between device, server and browser is no news.
  if (ms < -60_000) return 'in the future';
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h ago` : `${hours} h ${minutes % 60} min ago`;
  return `${Math.floor(hours / 24)} d ago`;
}
