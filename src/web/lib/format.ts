import { formatAge } from '@/domain/staleness';

/**
 * How long ago a view's data came, as "Updated … ago" says it: in seconds for the first minute (a
 * board that polls every 30 s and reads "just now" for a minute hides a poll that did not come),
 * then as ages are written elsewhere ("4 min ago").
 */
export function formatSinceUpdate(ms: number): string {
  if (!Number.isFinite(ms) || ms >= 60_000) return formatAge(ms);
  const seconds = Math.floor(Math.max(0, ms) / 1000);
  return seconds < 1 ? 'just now' : `${seconds} s ago`;
}

/**
 * A phone number as a `tel:` address: digits and a leading plus only; none without 3 digits. An
 * extension, or a second number after a comma, slash or semicolon, is left out: joined to the first
 * number's digits it would dial another number.
 */
export function telHref(phone: string): string | undefined {
  const first = phone.split(/\s*(?:\bext\b\.?|\bx(?=\s*\d)|[,;/])\s*/i)[0] ?? '';
  const digits = first.replace(/[^\d+]/g, '').replace(/(?!^)\+/g, '');
  return /\d{3,}/.test(digits) ? `tel:${digits}` : undefined;
}

const COUNT = new Intl.NumberFormat('en-US');

/** A count of loads, documents and the like, its thousands separated: "10,000". */
export const formatCount = (n: number): string => COUNT.format(n);

/** Accuracy as a dispatcher reads it: "±12 m", "±1.5 km", or "unknown". */
export function formatAccuracy(meters: number | null): string {
  if (meters === null) return 'unknown';
  if (meters < 1000) return `±${Math.round(meters)} m`;
  return `±${(meters / 1000).toFixed(meters < 10_000 ? 1 : 0)} km`;
}

/** The viewer's own local time of an instant, short. */
export function formatLocal(instant: number): string {
  return new Date(instant).toLocaleString(undefined, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

const VIEWER = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
});

/** An instant in the viewer's own zone, with the zone's name: "Nov 22, 2026, 08:15:47 AM EST". */
export function viewerTime(instant: number): string {
  return VIEWER.format(new Date(instant));
}

/** The viewer's own zone, short ("EST", "UTC", "GMT+1"), as of `instant`. */
export function viewerZone(instant: number = Date.now()): string {
  return VIEWER.formatToParts(new Date(instant)).find((p) => p.type === 'timeZoneName')?.value ?? '';
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant written the way the service writes UTC: "11/22/2026 13:15:47 UTC" (or without seconds). */
export function utcText(instant: number, seconds = true): string {
  const d = new Date(instant);
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}${seconds ? `:${pad(d.getUTCSeconds())}` : ''}`;
  return `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()} ${time} UTC`;
}
