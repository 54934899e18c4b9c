import type { Document } from '@/domain/model';
import { utcText, viewerTime } from '../../lib/format';

/** The time of a document as words, for labels: the driver's text, and what is known about it. */
export function documentTimeText(doc: Pick<Document, 'time' | 'instant'>): string {
  const { local, zoneKnown } = doc.time;
  if (local !== undefined) return zoneKnown ? local : `${local} (zone unknown)`;
  return doc.instant === null ? 'time unknown' : utcText(doc.instant, false);
}

/**
 * When a document was uploaded, as the driver's phone showed it (device-local text with its zone),
 * marked in words when the zone is unknown; the viewer's own time on hover.
 */
export function DocumentTime({ doc }: { doc: Pick<Document, 'time' | 'instant'> }) {
  const { instant, time } = doc;
  const mine = instant === null ? undefined : viewerTime(instant);
  const text = time.local ?? (instant === null ? 'time unknown' : utcText(instant, false));
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
