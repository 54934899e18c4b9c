import { formatAge } from '@/domain/staleness';
import { useNow } from '../lib/use-now';

/**
 * "Updated 2 min ago · refreshes every 30 s", the same words on every page that polls. Its own
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
  const now = useNow(10_000);
  return (
    <span className={className} aria-live="polite">
      {fetching ? 'Refreshing…' : updatedAt > 0 ? `Updated ${formatAge(Math.max(0, now - updatedAt))}` : ''}
      {` · refreshes every ${refreshSeconds} s`}
    </span>
  );
}
