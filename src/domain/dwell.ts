import type { Load, Outlook, Ping, StopOutlook } from './model';
import { pingAtStop, tripStart } from './geofence';
import { durationText } from './outlook-text';

/**
 * Dwell and detention at a stop (issue 36): time inside its fence, from arrival to departure or to
 * now while the truck is still there, against the free time; what is beyond it is detention, which
 * carriers bill by the hour. Pure: the page's clock comes in as `now`, so the board's clock runs.
 */
export interface Dwell {
  /** Minutes inside on the track's clock. */
  insideMinutes: number;
  freeMinutes: number;
  /** Minutes beyond the free time; 0 within it. */
  detentionMinutes: number;
  /** Still there: the clock runs. */
  running: boolean;
  /**
   * The phone went dark at the stop and no departure is known: the clock runs on to `now`, and what
   * the pings prove is only the stay up to the last one inside.
   */
  open?: OpenDwell;
}

/** A stay whose end nobody saw: the phone went quiet inside the stop's fence. */
export interface OpenDwell {
  lastPingAt: number;
  /** The last ping's distance from the stop, when the proxy measured it. */
  meters: number | undefined;
  /** Minutes inside and of detention up to the last ping: what the detention is at least. */
  provenInsideMinutes: number;
  provenDetentionMinutes: number;
}

/** What tells a stay is open: the phone's last ping, inside the stop's fence, and its distance. */
export interface DarkAtStop {
  lastPingAt: number;
  meters: number | undefined;
}

/**
 * Whether the load's phone went dark at `stop` with no departure known: `dark` is the caller's
 * staleness (not fresh), `lastPingAt` the load's newest ping. Only a stay whose last ping is known to
 * be inside counts: the proxy's reason says so, or the stay was found by pings, which end it at the
 * first ping outside that the truck does not come back from.
 */
export function darkAtStop(
  outlook: Outlook | undefined,
  stop: StopOutlook,
  lastPingAt: number | undefined,
  dark: boolean,
): DarkAtStop | undefined {
  if (!dark || lastPingAt === undefined || stop.progress !== 'arrived') return undefined;
  if (stop.arrivedAt === undefined || stop.departedAt !== undefined || lastPingAt < stop.arrivedAt)
    return undefined;
  const reason = outlook?.dark;
  if (reason?.reason === 'at-stop' && reason.stopOrder === stop.order)
    return { lastPingAt, meters: reason.meters };
  // Another reason (the service's notice of the app closing, say) came after a stay found by pings.
  if (stop.arrivedBy === 'pings' && reason?.reason !== 'at-stop') return { lastPingAt, meters: undefined };
  return undefined;
}

/**
 * A stop's dwell at `now`; undefined when it has none to tell: not arrived, left at a time nobody
 * saw (a stop passed on the way to a later one), or reckoned without a free time.
 * `clockScale`: track minutes per real minute (the simulator's speed in the demo).
 */
export function stopDwell(
  stop: StopOutlook,
  now: number,
  clockScale = 1,
  dark?: DarkAtStop,
): Dwell | undefined {
  const { arrivedAt, departedAt, freeMinutes } = stop;
  if (arrivedAt === undefined || freeMinutes === undefined || stop.progress === 'upcoming') return undefined;
  if (stop.progress === 'departed' && departedAt === undefined) return undefined;
  const running = departedAt === undefined;
  const end = departedAt ?? now;
  // A page clock a little behind the track's newest ping must not count backwards.
  const minutesTo = (t: number) => Math.max(0, Math.floor(((t - arrivedAt) * clockScale) / 60_000));
  const insideMinutes = minutesTo(end);
  const dwell: Dwell = {
    insideMinutes,
    freeMinutes,
    detentionMinutes: Math.max(0, insideMinutes - freeMinutes),
    running,
  };
  if (running && dark) {
    const proven = minutesTo(dark.lastPingAt);
    dwell.open = {
      lastPingAt: dark.lastPingAt,
      meters: dark.meters,
      provenInsideMinutes: proven,
      provenDetentionMinutes: Math.max(0, proven - freeMinutes),
    };
  }
  return dwell;
}

/**
 * Said before an open stay's clock: it runs while nobody knows the truck left. One word, first, so
 * the board's one-line row shows it before its cut; the load page says why (`openDwellText`).
 */
export const OPEN_WORDS = 'open';

/**
 * The dwell in a few words: "detention 1 h 20 min", "45 min of 2 h free" ("open, " first when the
 * phone went dark there and no departure is known); once left, "inside 3 h 20 min, detention 1 h 20 min"
 * or "inside 40 min, within 2 h free".
 */
export function dwellText(d: Dwell): string {
  const free = durationText(d.freeMinutes);
  const open = d.open ? `${OPEN_WORDS}, ` : '';
  if (d.running)
    return d.detentionMinutes > 0
      ? `${open}detention ${durationText(d.detentionMinutes)}`
      : `${open}${durationText(d.insideMinutes)} of ${free} free`;
  return d.detentionMinutes > 0
    ? `inside ${durationText(d.insideMinutes)}, detention ${durationText(d.detentionMinutes)}`
    : `inside ${durationText(d.insideMinutes)}, within ${free} free`;
}

/** One ping of a stop's evidence: where it was against the stop's fence. */
export interface EvidencePing {
  ping: Ping;
  /** Undefined for a fix too unsure to count (a cell-tower fix). */
  inside: boolean | undefined;
  meters: number | undefined;
  fence: number | undefined;
}

/**
 * The pings that show a stop's stay, for a detention claim: the last one before the truck came in,
 * every one while it was there (bounces out included), and the first one after it left. Only the
 * trip now: a load id reused for a next trip brings the earlier trip's pings too.
 */
export function stopEvidence(load: Load, stop: StopOutlook, radiusMeters: number): EvidencePing[] {
  if (stop.arrivedAt === undefined || stop.lat === undefined || stop.lon === undefined) return [];
  const start = tripStart(load.events) ?? -Infinity;
  const pings = load.pings.filter((p) => p.instant >= start);
  const from = stop.arrivedAt;
  const to = stop.departedAt ?? Infinity;
  let first = pings.findIndex((p) => p.instant >= from);
  if (first === -1) first = pings.length;
  let last = pings.findIndex((p) => p.instant >= to);
  if (last === -1) last = pings.length - 1;
  const at = { lat: stop.lat, lon: stop.lon };
  return pings.slice(Math.max(0, first - 1), last + 1).map((ping) => {
    const where = pingAtStop(ping, at, radiusMeters);
    return { ping, inside: where?.inside, meters: where?.meters, fence: where?.fence };
  });
}
