import type { Load, StopOutlook } from '@/domain/model';
import { darkAtStop, stopDwell, stopEvidence } from '@/domain/dwell';

import { DEFAULT_STOP_RADIUS_METERS } from '@/domain/geofence';
import { offsetText } from '@/domain/outlook-text';
import { loadLabel } from '../../lib/load-ref';

/**
 * A load's detention evidence as CSV (RFC 4180), built in the browser from the load's track: per
 * stop arrived at, its arrival and departure and what told them, every ping in and out of its fence
 * with its accuracy, and the time inside, free time and detention. Each time is given in the stop's
 * zone (the offset it sent with its appointment) and in UTC, so a claim reads the same to both sides.
 */
const COLUMNS = [
  'load',
  'stop',
  'stop_type',
  'facility',
  'city',
  'what',
  'source',
  'stop_time',
  'stop_zone',
  'utc_time',
  'lat',
  'lon',
  'accuracy_m',
  'distance_m',
  'fence_m',
  'inside',
  'minutes',
] as const;
type Row = Partial<Record<(typeof COLUMNS)[number], string | number>>;

/**
 * One field: quoted when it holds a comma, a quote or a line break. Text that a spreadsheet would
 * run as a formula (a facility named "=HYPERLINK(…)") is written with a leading apostrophe.
 */
export function csvField(value: string | number | undefined): string {
  if (value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const pad = (n: number) => String(n).padStart(2, '0');
function wall(instant: number, offsetHours: number): string {
  const d = new Date(instant + Math.round(offsetHours * 60) * 60_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** The instant in the stop's zone (blank when it sent no offset) and in UTC. */
function times(instant: number, stop: StopOutlook): Row {
  const offset = stop.appointment?.offsetHours;
  return {
    stop_time: offset === undefined ? undefined : wall(instant, offset),
    stop_zone: offset === undefined ? 'unknown' : offsetText(offset),
    utc_time: `${wall(instant, 0).replace(' ', 'T')}Z`,
  };
}

const SOURCE = { event: 'status event', pings: 'pings' } as const;

/**
 * `dark`: whether the load's phone is dark now (not fresh); a stay whose phone went quiet inside the
 * fence is then given as open, with its departure unknown.
 */
export function detentionCsv(load: Load, now: number, dark = false): string {
  const outlook = load.outlook;
  const radius = outlook?.radiusMeters ?? DEFAULT_STOP_RADIUS_METERS;
  const rows: Row[] = [];
  for (const stop of outlook?.stops ?? []) {
    if (stop.arrivedAt === undefined) continue;
    const base: Row = {
      load: loadLabel(load),
      stop: stop.order,
      stop_type: stop.type,
      facility: stop.name,
      city: [stop.place?.city, stop.place?.state].filter(Boolean).join(', ') || undefined,
    };
    rows.push({
      ...base,
      what: 'arrival',
      source: stop.arrivedBy && SOURCE[stop.arrivedBy],
      ...times(stop.arrivedAt, stop),
    });
    if (stop.departedAt !== undefined)
      rows.push({
        ...base,
        what: 'departure',
        source: stop.departedBy && SOURCE[stop.departedBy],
        ...times(stop.departedAt, stop),
      });
    for (const e of stopEvidence(load, stop, radius)) {
      rows.push({
        ...base,
        what: 'ping',
        ...times(e.ping.instant, stop),
        lat: e.ping.lat,
        lon: e.ping.lon,
        accuracy_m: e.ping.accuracy ?? undefined,
        distance_m: e.meters === undefined ? undefined : Math.round(e.meters),
        fence_m: e.fence === undefined ? undefined : Math.round(e.fence),
        inside: e.inside === undefined ? 'unsure fix (not counted)' : e.inside ? 'yes' : 'no',
      });
    }
    const dwell = stopDwell(
      stop,
      now,
      outlook?.clockScale,
      darkAtStop(outlook, stop, load.latestLocation?.instant, dark),
    );
    if (dwell?.open) {
      const open = dwell.open;
      rows.push({ ...base, what: 'departure', source: 'unknown: phone dark at the stop' });
      rows.push({
        ...base,
        what: 'last ping inside',
        ...times(open.lastPingAt, stop),
        distance_m: open.meters,
      });
      const still = 'open: no departure known, counted to download';
      rows.push({ ...base, what: 'time inside', source: still, minutes: dwell.insideMinutes });
      rows.push({
        ...base,
        what: 'time inside at least',
        source: 'to the last ping inside',
        minutes: open.provenInsideMinutes,
      });
      rows.push({ ...base, what: 'free time', minutes: dwell.freeMinutes });
      rows.push({ ...base, what: 'detention', source: still, minutes: dwell.detentionMinutes });
      rows.push({
        ...base,
        what: 'detention at least',
        source: 'to the last ping inside',
        minutes: open.provenDetentionMinutes,
      });
    } else if (dwell) {
      const still = dwell.running ? 'still there at download' : undefined;
      rows.push({ ...base, what: 'time inside', source: still, minutes: dwell.insideMinutes });
      rows.push({ ...base, what: 'free time', minutes: dwell.freeMinutes });
      rows.push({ ...base, what: 'detention', source: still, minutes: dwell.detentionMinutes });
    }
  }
  const lines = [COLUMNS.join(','), ...rows.map((r) => COLUMNS.map((c) => csvField(r[c])).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}

/** Whether a load has any stop arrived at, so any evidence to give. */
export const hasDetentionEvidence = (load: Load) =>
  load.outlook?.stops.some((s) => s.arrivedAt !== undefined) ?? false;
