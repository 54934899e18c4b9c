import { useLiveState } from '../data/live-state';

/**
 * "Live" while changes come as they happen (the stream is open), "Polling" while the page waits for
 * its next refresh; nothing where no stream runs.
 */
export function LiveBadge({ className = '' }: { className?: string }) {
  const state = useLiveState();
  if (state === 'off') return null;
  const live = state === 'live';
  return (
    <span
      className={`${live ? 'text-status-fresh' : 'text-ink-muted'} ${className}`}
      title={
        live
          ? 'Changes show as they arrive'
          : 'The live connection is down: the page refreshes on its timer and reconnects by itself'
      }
    >
      {live ? '● Live' : '○ Polling'}
    </span>
  );
}
