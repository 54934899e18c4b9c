import { nearMeters, SURE_METERS, type TrackPoint } from './geofence';
import { CADENCE_WINDOW, SPEED_WINDOW_HOURS, type OutlookOptions } from './outlook';

const HOUR = 3_600_000;
/** Numbers per point: instant, lat, lon, accuracy (NaN: none given). */
const STRIDE = 4;
/** Older than the cadence window, one point per this many minutes of the track's clock is enough for speeds and rests. */
const THIN_MINUTES = 10;
/** Points added after a thinning before the next one: the work is a pass over the trail per stop. */
const THIN_EVERY = 64;

/**
 * What the outlook needs of a trip's pings, in bounded memory: the puller keeps one per watched load
 * instead of the trip's pings (the store has them all), so its heap does not grow with a long trip.
 *
 * Points are four numbers in one typed array, in time order, one per (instant, place), as ping keys
 * are. `thin` drops what no outlook reads:
 * - the last `CADENCE_WINDOW` points stay whole (the usual cadence and its gaps, the last moves);
 * - back to the hours a driver's rest is looked for (`driveHours + restHours`, and the speed window),
 *   one sure point per `THIN_MINUTES` (speeds and driving time change little between two of them);
 * - at any age, each stay's evidence at each stop: the first and last sure point inside its fence and
 *   the first sure point after it. `scanStay` reads only these: a later outside point of the same
 *   absence is nearer the truck's return, so it cannot depart where the first one did not.
 * So an arrival days ago stays exact; the hours driven since the last rest are read back at most
 * over that window, as if the driver had rested before it.
 */
export class Trail {
  private data = new Float64Array(0);
  private n = 0;
  /** Points after the last `thin`: the next one comes when as many again have been added. */
  private thinnedAt = 0;

  get length(): number {
    return this.n;
  }

  /** The bytes its numbers take, room to grow included. */
  get bytes(): number {
    return this.data.byteLength;
  }

  /** Adds what is not held yet; whether anything was. */
  add(pings: readonly TrackPoint[]): boolean {
    let added = false;
    for (const p of pings) {
      if (!Number.isFinite(p.instant)) continue;
      const at = this.insertionIndex(p);
      if (at < 0) continue;
      this.grow();
      const d = this.data;
      d.copyWithin((at + 1) * STRIDE, at * STRIDE, this.n * STRIDE);
      d[at * STRIDE] = p.instant;
      d[at * STRIDE + 1] = p.lat;
      d[at * STRIDE + 2] = p.lon;
      d[at * STRIDE + 3] = p.accuracy ?? Number.NaN;
      this.n++;
      added = true;
    }
    return added;
  }

  /** Forgets the points before `instant` (a new trip began then). */
  cutBefore(instant: number | undefined): void {
    if (instant === undefined) return;
    const from = this.firstFrom(instant);
    if (from === 0) return;
    this.data.copyWithin(0, from * STRIDE, this.n * STRIDE);
    this.n -= from;
    this.thinnedAt = Math.min(this.thinnedAt, this.n);
  }

  /** Thins the trail when it grew enough since the last time (see the class); `stops`: the load's, with points. */
  thinIfGrown(
    stops: readonly { lat?: number | undefined; lon?: number | undefined }[],
    o: OutlookOptions,
  ): void {
    if (this.n > CADENCE_WINDOW + THIN_EVERY && this.n >= this.thinnedAt + THIN_EVERY) this.thin(stops, o);
  }

  thin(stops: readonly { lat?: number | undefined; lon?: number | undefined }[], o: OutlookOptions): void {
    const n = this.n;
    const d = this.data;
    const keep = new Uint8Array(n);
    const isSure = (i: number) => {
      const a = d[i * STRIDE + 3] as number;
      return Number.isNaN(a) || a <= SURE_METERS;
    };
    for (const stop of stops) {
      if (stop.lat === undefined || stop.lon === undefined) continue;
      const at = { lat: stop.lat, lon: stop.lon };
      let lastInside = -1;
      for (let i = 0; i < n; i++) {
        if (!isSure(i)) continue;
        const accuracy = d[i * STRIDE + 3] as number;
        const fence = o.stopRadiusMeters + (Number.isNaN(accuracy) ? 0 : accuracy);
        const inside =
          nearMeters({ lat: d[i * STRIDE + 1] as number, lon: d[i * STRIDE + 2] as number }, at) <= fence;
        if (inside) {
          if (lastInside < 0) keep[i] = 1;
          lastInside = i;
        } else if (lastInside >= 0) {
          keep[lastInside] = 1;
          keep[i] = 1;
          lastInside = -1;
        }
      }
      if (lastInside >= 0) keep[lastInside] = 1;
    }
    const recentFrom = Math.max(0, n - CADENCE_WINDOW);
    const last = n > 0 ? (d[(n - 1) * STRIDE] as number) : 0;
    const hotHours = o.driveHours + o.restHours + SPEED_WINDOW_HOURS;
    const hotFrom = last - (hotHours * HOUR) / o.clockScale;
    const every = (THIN_MINUTES * 60_000) / o.clockScale;
    let keptAt = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < n; i++) {
      const instant = d[i * STRIDE] as number;
      if (i >= recentFrom) keep[i] = 1;
      else if (!keep[i] && instant >= hotFrom && isSure(i) && instant - keptAt >= every) keep[i] = 1;
      if (keep[i]) keptAt = instant;
    }
    let m = 0;
    for (let i = 0; i < n; i++) {
      if (!keep[i]) continue;
      if (m !== i) d.copyWithin(m * STRIDE, i * STRIDE, (i + 1) * STRIDE);
      m++;
    }
    this.n = m;
    this.thinnedAt = m;
    // Room for what comes until the next thinning, no more: a long trip's first pull took far more.
    if (d.length > (m + 2 * THIN_EVERY) * STRIDE) this.data = d.slice(0, (m + THIN_EVERY) * STRIDE);
  }

  /** The points as the outlook reads them: made anew each time, for one reckoning. */
  points(): TrackPoint[] {
    const d = this.data;
    const out: TrackPoint[] = new Array(this.n);
    for (let i = 0; i < this.n; i++) {
      const accuracy = d[i * STRIDE + 3] as number;
      out[i] = {
        instant: d[i * STRIDE] as number,
        lat: d[i * STRIDE + 1] as number,
        lon: d[i * STRIDE + 2] as number,
        accuracy: Number.isNaN(accuracy) ? null : accuracy,
      };
    }
    return out;
  }

  /** Index of the first point at or after `instant`. */
  private firstFrom(instant: number): number {
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.data[mid * STRIDE] as number) < instant) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Where `p` goes to keep time order; -1 when a point of its instant and place is held. */
  private insertionIndex(p: TrackPoint): number {
    const d = this.data;
    // Most pings come after the last one held.
    if (this.n === 0 || (d[(this.n - 1) * STRIDE] as number) < p.instant) return this.n;
    let i = this.firstFrom(p.instant);
    for (; i < this.n && d[i * STRIDE] === p.instant; i++)
      if (d[i * STRIDE + 1] === p.lat && d[i * STRIDE + 2] === p.lon) return -1;
    return i;
  }

  private grow(): void {
    if ((this.n + 1) * STRIDE <= this.data.length) return;
    // A quarter more each time: thousands of trails are held, and their slack with them.
    const next = new Float64Array((this.n + Math.max(16, this.n >> 2)) * STRIDE);
    next.set(this.data.subarray(0, this.n * STRIDE));
    this.data = next;
  }
}
