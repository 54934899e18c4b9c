import type { Document } from '@/domain/model';

const VIEWER = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
});

/** An instant in the viewer's own zone, with the zone's name. */
export function viewerTime(instant: number): string {
  return VIEWER.format(new Date(instant));
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant the way the service writes UTC: "11/22/2026 13:15 UTC". */
function utcText(instant: number): string {
  const d = new Date(instant);
  return `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

/** The time of a document as words, for labels: the driver's text, and what is known about it. */
export function documentTimeText(doc: Pick<Document, 'time' | 'instant'>): string {
  const { local, zoneKnown } = doc.time;
  if (local !== undefined) return zoneKnown ? local : `${local} (zone unknown)`;
  return doc.instant === null ? 'time unknown' : utcText(doc.instant);
}

/**
 * When a document was uploaded, as the driver's phone showed it (device-local text with its zone),
 * marked in words when the zone is unknown; the viewer's own time on hover.
 */
export function DocumentTime({ doc }: { doc: Pick<Document, 'time' | 'instant'> }) {
  const { instant, time } = doc;
  const mine = instant === null ? undefined : viewerTime(instant);
  const text = time.local ?? (instant === null ? 'time unknown' : utcText(instant));
  const note =
    time.local !== undefined
      ? time.zoneKnown
        ? undefined
        : 'zone unknown'
      : instant === null
        ? undefined
        : 'no device time';
  return (
    <span title={mine ? `Your time: ${mine}` : 'No readable time'}>
      <time dateTime={instant === null ? undefined : new Date(instant).toISOString()}>{text}</time>
      {note && <span className="ml-1 text-xs text-status-stale">({note})</span>}
    </span>
  );
}
