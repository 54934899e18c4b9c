import type { ItemTime } from '@/domain/model';
import { utcText, viewerTime } from '../../lib/format';

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
