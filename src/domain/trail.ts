import { nearMeters, SURE_METERS, type TrackPoint } from './geofence';
import { CADENCE_WINDOW, SPEED_WINDOW_HOURS, type OutlookOptions } from './outlook';

const HOUR = 3_600_000;
/** Numbers per point: instant, lat, lon, accuracy (NaN: none given). */
const STRIDE = 4;
/** The compact form's lat and lon are whole ten-millionths of a degree: a phone's fix has no more decimals. */
const DEGREE_UNITS = 1e7;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
/** Older than the cadence window, one point per this many minutes of the track's clock is enough for speeds and rests. */
const THIN_MINUTES = 10;
/** Points added after a thinning before the next one: the work is a pass over the trail per stop. */
const THIN_EVERY = 64;

/**
 * What the outlook needs of a trip's pings, in bounded memory: the puller keeps one per watched load
 * instead of the trip's pings (the store has them all), so its heap does not grow with a long trip.
 *
 * Points are four numbers in one typed array, in time order, one per (instant, place), as ping keys
 * are. While every point fits exactly, they are held in 32 bits each (half the bytes): the instant
 * as milliseconds from the first one's, lat and lon in ten-millionths of a degree, the accuracy as a
 * 32-bit float; a point that does not round-trip turns the whole trail to 64-bit numbers, so what
 * `points` gives back is always what was added. `thin` drops what no outlook reads:
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
  /** The points' numbers: 64-bit when `wide`, else 32-bit integers (the accuracy's bits a float's). */
  private cells: Float64Array | Int32Array = new Int32Array(0);
  /** The compact form's accuracies: a float view of `cells`' buffer. */
  private accuracies: Float32Array<ArrayBufferLike> = new Float32Array(0);
  private wide = false;
  /** The compact form's instants are milliseconds after this one. */
  private base = Number.NaN;
  private n = 0;
  /** Points after the last `thin`: the next one comes when as many again have been added. */
  private thinnedAt = 0;
  private rewrites = 0;

  /**
   * How many times points were put before the last one, or taken out (a late ping, a cut, a
   * thinning): a reckoning that went on from the points it read last must start over once it moved.
   */
  get rewritten(): number {
    return this.rewrites;
  }

  get length(): number {
    return this.n;
  }

  /** The bytes its numbers take, room to grow included. */
  get bytes(): number {
    return this.cells.byteLength;
  }

  /** Adds what is not held yet; whether anything was. */
  add(pings: readonly TrackPoint[]): boolean {
    let added = false;
    for (const p of pings) {
      if (!Number.isFinite(p.instant)) continue;
      const at = this.insertionIndex(p);
      if (at < 0) continue;
      if (this.n === 0 && !this.wide) this.base = p.instant;
      if (!this.wide && !this.fits(p)) this.widen();
      this.grow();
      if (at < this.n) this.rewrites++;
      this.cells.copyWithin((at + 1) * STRIDE, at * STRIDE, this.n * STRIDE);
      this.write(at, p);
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
    this.rewrites++;
    this.cells.copyWithin(0, from * STRIDE, this.n * STRIDE);
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
    const keep = new Uint8Array(n);
    const isSure = (i: number) => {
      const a = this.accuracyAt(i);
      return Number.isNaN(a) || a <= SURE_METERS;
    };
    for (const stop of stops) {
      if (stop.lat === undefined || stop.lon === undefined) continue;
      const at = { lat: stop.lat, lon: stop.lon };
      let lastInside = -1;
      for (let i = 0; i < n; i++) {
        if (!isSure(i)) continue;
        const accuracy = this.accuracyAt(i);
        const fence = o.stopRadiusMeters + (Number.isNaN(accuracy) ? 0 : accuracy);
        const inside = nearMeters({ lat: this.latAt(i), lon: this.lonAt(i) }, at) <= fence;
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
    const last = n > 0 ? this.instantAt(n - 1) : 0;
    const hotHours = o.driveHours + o.restHours + SPEED_WINDOW_HOURS;
    const hotFrom = last - (hotHours * HOUR) / o.clockScale;
    const every = (THIN_MINUTES * 60_000) / o.clockScale;
    let keptAt = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < n; i++) {
      const instant = this.instantAt(i);
      if (i >= recentFrom) keep[i] = 1;
      else if (!keep[i] && instant >= hotFrom && isSure(i) && instant - keptAt >= every) keep[i] = 1;
      if (keep[i]) keptAt = instant;
    }
    const d = this.cells;
    let m = 0;
    for (let i = 0; i < n; i++) {
      if (!keep[i]) continue;
      if (m !== i) d.copyWithin(m * STRIDE, i * STRIDE, (i + 1) * STRIDE);
      m++;
    }
    if (m < n) this.rewrites++;
    this.n = m;
    this.thinnedAt = m;
    // Room for what comes until the next thinning, no more: a long trip's first pull took far more.
    if (d.length > (m + 2 * THIN_EVERY) * STRIDE) this.hold(d.slice(0, (m + THIN_EVERY) * STRIDE));
  }

  /** The points as the outlook reads them: made anew each time, for one reckoning. */
  points(): TrackPoint[] {
    const out: TrackPoint[] = new Array(this.n);
    for (let i = 0; i < this.n; i++) {
      const accuracy = this.accuracyAt(i);
      out[i] = {
        instant: this.instantAt(i),
        lat: this.latAt(i),
        lon: this.lonAt(i),
        accuracy: Number.isNaN(accuracy) ? null : accuracy,
      };
    }
    return out;
  }

  private instantAt(i: number): number {
    const c = this.cells[i * STRIDE] as number;
    return this.wide ? c : this.base + c;
  }

  private latAt(i: number): number {
    const c = this.cells[i * STRIDE + 1] as number;
    return this.wide ? c : c / DEGREE_UNITS;
  }

  private lonAt(i: number): number {
    const c = this.cells[i * STRIDE + 2] as number;
    return this.wide ? c : c / DEGREE_UNITS;
  }

  /** NaN: none given. */
  private accuracyAt(i: number): number {
    return (this.wide ? this.cells : this.accuracies)[i * STRIDE + 3] as number;
  }

  /** Whether the compact form gives back exactly this point (-0 and fractions of a millisecond do not). */
  private fits(p: TrackPoint): boolean {
    const offset = p.instant - this.base;
    if (!(offset >= INT32_MIN && offset <= INT32_MAX) || !Object.is(this.base + (offset | 0), p.instant))
      return false;
    const degrees = (x: number) => {
      const units = Math.round(x * DEGREE_UNITS);
      return units >= INT32_MIN && units <= INT32_MAX && Object.is((units | 0) / DEGREE_UNITS, x);
    };
    const accuracy = p.accuracy ?? Number.NaN;
    return (
      degrees(p.lat) &&
      degrees(p.lon) &&
      (Number.isNaN(accuracy) || Object.is(Math.fround(accuracy), accuracy))
    );
  }

  private write(i: number, p: TrackPoint): void {
    const at = i * STRIDE;
    const accuracy = p.accuracy ?? Number.NaN;
    if (this.wide) {
      const d = this.cells;
      d[at] = p.instant;
      d[at + 1] = p.lat;
      d[at + 2] = p.lon;
      d[at + 3] = accuracy;
      return;
    }
    const d = this.cells;
    d[at] = p.instant - this.base;
    d[at + 1] = Math.round(p.lat * DEGREE_UNITS);
    d[at + 2] = Math.round(p.lon * DEGREE_UNITS);
    this.accuracies[at + 3] = accuracy;
  }

  /** Holds these numbers (of the form the trail is in). */
  private hold(cells: Float64Array | Int32Array): void {
    this.cells = cells;
    if (cells instanceof Int32Array)
      this.accuracies = new Float32Array(cells.buffer, cells.byteOffset, cells.length);
  }

  /** Turns the trail to 64-bit numbers, its room kept. */
  private widen(): void {
    const wide = new Float64Array(this.cells.length);
    for (let i = 0; i < this.n; i++) {
      wide[i * STRIDE] = this.instantAt(i);
      wide[i * STRIDE + 1] = this.latAt(i);
      wide[i * STRIDE + 2] = this.lonAt(i);
      wide[i * STRIDE + 3] = this.accuracyAt(i);
    }
    this.wide = true;
    this.hold(wide);
  }

  /** Index of the first point at or after `instant`. */
  private firstFrom(instant: number): number {
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.instantAt(mid) < instant) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Where `p` goes to keep time order; -1 when a point of its instant and place is held. */
  private insertionIndex(p: TrackPoint): number {
    // Most pings come after the last one held.
    if (this.n === 0 || this.instantAt(this.n - 1) < p.instant) return this.n;
    let i = this.firstFrom(p.instant);
    for (; i < this.n && this.instantAt(i) === p.instant; i++)
      if (this.latAt(i) === p.lat && this.lonAt(i) === p.lon) return -1;
    return i;
  }

  private grow(): void {
    if ((this.n + 1) * STRIDE <= this.cells.length) return;
    // A quarter more each time: thousands of trails are held, and their slack with them.
    const length = (this.n + Math.max(16, this.n >> 2)) * STRIDE;
    const next = this.wide ? new Float64Array(length) : new Int32Array(length);
    next.set(this.cells.subarray(0, this.n * STRIDE));
    this.hold(next);
  }
}
