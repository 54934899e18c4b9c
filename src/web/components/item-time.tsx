import type { ItemTime } from '@/domain/model';
import { formatAge } from '@/domain/staleness';
import { itemTimeWords } from '../lib/time-format';
import { useTimeZoneChoice } from '../lib/time-zone-choice';
import { useNow } from '../lib/use-now';

/** "25 min ago", counting up while one watches. */
function Age({ instant }: { instant: number }) {
  const now = useNow(30_000);
  return <span>{formatAge(now - instant)} · </span>;
}

/**
 * An item's time in the one format, in the zone the viewer chose (driver's or theirs), marked when
 * its zone is unknown; the other zone, UTC and the phone's own text on hover. With `withAge`, its
 * age comes first ("25 min ago · …"): a list of items from several zones reads in order at a glance.
 */
export function ItemTimeText({
  time,
  instant,
  withAge = false,
}: {
  time: ItemTime;
  instant: number | null;
  withAge?: boolean;
}) {
  const choice = useTimeZoneChoice();
  const { text, note, title } = itemTimeWords(time, instant, choice);
  return (
    <span title={title} className="whitespace-nowrap">
      {withAge && instant !== null && <Age instant={instant} />}
      <time dateTime={instant === null ? undefined : new Date(instant).toISOString()}>{text}</time>
      {note && <span className="ml-1 text-xs text-status-stale">({note})</span>}
    </span>
  );
}
