import { formatSinceUpdate } from '../lib/format';
import { useNow } from '../lib/use-now';
import { LiveBadge } from './live-badge';

/**
 * "Updated 12 s ago · refreshes every 30 s", the same words on every page that polls. Its own
 * component, so that its clock re-renders nothing else.
 */
export function UpdatedAge({
  updatedAt,
  fetching,
  refreshSeconds,
  className = 'text-ink-muted',
}: {
  updatedAt: number;
  fetching: boolean;
  refreshSeconds: number;
  className?: string;
}) {
  const now = useNow(5_000);
  // Not a live region: a screen reader would read the clock out every few seconds.
  return (
    <span className={className}>
      {fetching ? 'Refreshing…' : updatedAt > 0 ? `Updated ${formatSinceUpdate(now - updatedAt)}` : ''}
      {` · refreshes every ${refreshSeconds} s`}
      <LiveBadge className="ml-2" />
    </span>
  );
}
