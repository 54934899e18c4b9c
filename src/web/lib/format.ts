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

/** A place by its coordinates, for a position the service sent without a place name. */
export function coordinatesText(p: { lat: number; lon: number }): string {
  return `${p.lat.toFixed(4)}, ${p.lon.toFixed(4)}`;
}
