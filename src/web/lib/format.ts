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
