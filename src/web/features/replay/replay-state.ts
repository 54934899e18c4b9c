import type { Load, StopOutlook } from '@/domain/model';

/**
 * What a replay shows at one instant, as pure functions of the loads and the time: where each load
 * was (between two pings, on the straight line between them), how far its trail reaches, where each
 * stop stood and which documents and comments had been sent. Every lookup is a binary search over
 * the instants, so a frame costs the same at the first ping as at the 20,000th.
 */

/** Pings further apart than this are not joined by an invented straight drive: the load holds still. */
export const GAP_MS = 30 * 60_000;

/** The speeds offered, in track seconds per real second. */
export const SPEEDS = [1, 10, 60, 300, 600, 1800, 3600] as const;
export const DEFAULT_SPEED = 60;

/** A load's pings laid out for lookups: instants, coordinates and accuracy (NaN: unknown) side by side. */
export interface ReplayTrack {
  key: string;
  times: Float64Array;
  lats: Float64Array;
  lons: Float64Array;
  accuracies: Float64Array;
}

export function trackOf(key: string, load: Pick<Load, 'pings'>): ReplayTrack {
  const n = load.pings.length;
  const track: ReplayTrack = {
    key,
    times: new Float64Array(n),
    lats: new Float64Array(n),
    lons: new Float64Array(n),
    accuracies: new Float64Array(n),
  };
  load.pings.forEach((p, i) => {
    track.times[i] = p.instant;
    track.lats[i] = p.lat;
    track.lons[i] = p.lon;
    track.accuracies[i] = p.accuracy ?? Number.NaN;
  });
  return track;
}

/** How many of the sorted instants are at or before `t`: the trail's prefix at `t`. */
export function countUntil(times: ArrayLike<number>, t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((times[mid] as number) <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface ReplayPosition {
  lat: number;
  lon: number;
  /** Metres holding the load with 68% likelihood; null when unknown (no circle). */
  accuracy: number | null;
  /**
   * `moving`: between two pings, interpolated; `gap`: held at the last ping, the next one is over
   * GAP_MS away; `last`: at or after its last ping.
   */
  state: 'moving' | 'gap' | 'last';
  /** Pings at or before `t`. */
  pings: number;
  /** The instant of the last ping at or before `t`. */
  since: number;
}

/** Where the load was at `t`; undefined before its first ping (nothing known yet). */
export function positionAt(track: ReplayTrack, t: number): ReplayPosition | undefined {
  const n = countUntil(track.times, t);
  if (n === 0) return undefined;
  const i = n - 1;
  const since = track.times[i] as number;
  const at = (state: ReplayPosition['state']): ReplayPosition => {
    const acc = track.accuracies[i] as number;
    return {
      lat: track.lats[i] as number,
      lon: track.lons[i] as number,
      accuracy: Number.isNaN(acc) ? null : acc,
      state,
      pings: n,
      since,
    };
  };
  if (n === track.times.length) return at('last');
  const next = track.times[n] as number;
  if (next - since > GAP_MS) return at('gap');
  const f = next === since ? 0 : (t - since) / (next - since);
  const lerp = (a: Float64Array) => (a[i] as number) + ((a[n] as number) - (a[i] as number)) * f;
  const acc = lerp(track.accuracies);
  return {
    lat: lerp(track.lats),
    lon: lerp(track.lons),
    // Unknown at either end: unknown between them.
    accuracy: Number.isNaN(acc) ? null : acc,
    state: 'moving',
    pings: n,
    since,
  };
}

/** The span a replay runs over: its loads' first and last timed items. Undefined with nothing timed. */
export function replaySpan(loads: readonly Load[]): { from: number; to: number } | undefined {
  let from = Infinity;
  let to = -Infinity;
  const see = (t: number | null | undefined) => {
    if (t === null || t === undefined || !Number.isFinite(t)) return;
    if (t < from) from = t;
    if (t > to) to = t;
  };
  for (const load of loads) {
    for (const list of [load.pings, load.events, load.comments, load.readings]) {
      // Sorted oldest first: the ends are enough.
      see(list[0]?.instant);
      see(list[list.length - 1]?.instant);
    }
    for (const d of load.documents) see(d.instant);
  }
  return from <= to ? { from, to } : undefined;
}

export const clampTime = (t: number, span: { from: number; to: number }): number =>
  Math.min(span.to, Math.max(span.from, t));

/** A stop as it stood at `t`: its progress then, and minutes inside its fence so far. */
export interface StopAt {
  progress: 'upcoming' | 'arrived' | 'departed';
  /** Minutes inside its fence by `t` (arrived or departed); undefined when upcoming. */
  insideMinutes: number | undefined;
  /** Minutes beyond its free time by `t`; 0 within it; undefined without a free time. */
  detentionMinutes: number | undefined;
}

/**
 * A stop at `t`, from the arrival and departure the proxy reckoned: upcoming before its arrival,
 * arrived until its departure, departed after it. A stop passed at a time nobody saw stays upcoming
 * until the end, since the replay cannot say when.
 */
export function stopAt(stop: StopOutlook, t: number, clockScale = 1): StopAt {
  const { arrivedAt, departedAt, freeMinutes } = stop;
  if (arrivedAt === undefined || t < arrivedAt)
    return { progress: 'upcoming', insideMinutes: undefined, detentionMinutes: undefined };
  const left = departedAt !== undefined && t >= departedAt;
  const end = left ? departedAt : t;
  // `clockScale`: track minutes per real minute (the simulator's speed in the demo), as dwell.ts reads it.
  const insideMinutes = Math.floor(((end - arrivedAt) * clockScale) / 60_000);
  return {
    progress: left ? 'departed' : 'arrived',
    insideMinutes,
    detentionMinutes: freeMinutes === undefined ? undefined : Math.max(0, insideMinutes - freeMinutes),
  };
}

/** One thing sent during the trip, for the replay's list and map: a document or a comment. */
export interface SentItem {
  key: string;
  load: string;
  kind: 'document' | 'comment';
  instant: number;
  text: string;
  lat: number | undefined;
  lon: number | undefined;
}

/** A load's documents and comments with a known time, oldest first. */
export function sentItemsOf(loadKey: string, load: Load): SentItem[] {
  const items: SentItem[] = [];
  for (const d of load.documents)
    if (d.instant !== null)
      items.push({
        key: `${loadKey} d ${d.key}`,
        load: loadKey,
        kind: 'document',
        instant: d.instant,
        text: d.type ?? 'Document',
        lat: d.position?.lat,
        lon: d.position?.lon,
      });
  for (const c of load.comments)
    items.push({
      key: `${loadKey} c ${c.key}`,
      load: loadKey,
      kind: 'comment',
      instant: c.instant,
      text: c.text ?? '(no text)',
      lat: c.position?.lat,
      lon: c.position?.lon,
    });
  return items.sort((a, b) => a.instant - b.instant);
}

/** The instant a URL's `t` names: epoch milliseconds or an ISO time; undefined for anything else. */
export function parseReplayTime(text: string | null): number | undefined {
  if (text === null || text.trim() === '') return undefined;
  const t = /^\d{1,15}$/.test(text) ? Number(text) : Date.parse(text);
  return Number.isFinite(t) ? t : undefined;
}

/** A URL's `speed`: one of SPEEDS, else the default. */
export function parseSpeed(text: string | null): number {
  const n = Number(text);
  return SPEEDS.find((s) => s === n) ?? DEFAULT_SPEED;
}

/** The next speed up (+1) or down (-1), held at the ends. */
export function nextSpeed(speed: number, direction: 1 | -1): number {
  const i = SPEEDS.findIndex((s) => s >= speed);
  const at = i === -1 ? SPEEDS.length - 1 : i;
  return SPEEDS[Math.min(SPEEDS.length - 1, Math.max(0, at + direction))] as number;
}

/** One step back or forward: a minute of track time, or more at higher speeds (a real second's worth). */
export const stepMs = (speed: number): number => Math.max(60_000, speed * 1000);

/** The south-west and north-east corners of a track's pings; none without pings. */
export function trackCorners(track: ReplayTrack): { lat: number; lon: number }[] {
  const n = track.times.length;
  if (n === 0) return [];
  let south = Infinity;
  let west = Infinity;
  let north = -Infinity;
  let east = -Infinity;
  for (let i = 0; i < n; i++) {
    const lat = track.lats[i] as number;
    const lon = track.lons[i] as number;
    if (lat < south) south = lat;
    if (lat > north) north = lat;
    if (lon < west) west = lon;
    if (lon > east) east = lon;
  }
  return [
    { lat: south, lon: west },
    { lat: north, lon: east },
  ];
}
