import type { ItemTime } from '@/domain/time';

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

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant written the way the service writes UTC: "11/22/2026 13:15:47 UTC". */
export function utcText(instant: number): string {
  const d = new Date(instant);
  return `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`;
}

/** What is said about an item's time beside its text: its zone is unknown, it has no device time. */
export function timeNote(time: ItemTime, instant: number | null): string | undefined {
  if (time.local !== undefined) return time.zoneKnown ? undefined : 'zone unknown';
  return instant === null ? undefined : 'no device time';
}

/**
 * An item's time as the driver's phone showed it (device-local text with its zone), marked when the
 * zone is unknown; the viewer's own local time on hover and, with `showMine`, beside it.
 */
export function ItemTimeText({
  time,
  instant,
  showMine,
}: {
  time: ItemTime;
  instant: number | null;
  showMine: boolean;
}) {
  const mine = instant === null ? undefined : viewerTime(instant);
  const text = time.local ?? (instant === null ? 'time unknown' : utcText(instant));
  const note = timeNote(time, instant);
  return (
    <span title={mine ? `Your time: ${mine}` : 'No readable time'} className="whitespace-nowrap">
      <time dateTime={instant === null ? undefined : new Date(instant).toISOString()}>{text}</time>
      {note && <span className="ml-1 text-xs text-status-stale">({note})</span>}
      {showMine && mine && <span className="ml-1 text-xs text-ink-muted">· your time {mine}</span>}
    </span>
  );
}
