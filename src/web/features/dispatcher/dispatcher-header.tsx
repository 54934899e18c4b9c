import { useIsFetching } from '@tanstack/react-query';
import { DISABLED_LOOK } from '../../components/disabled-look';
import { LegendItem } from '../../components/legend-item';
import { formatCount, formatSinceUpdate } from '../../lib/format';
import { statusColors } from '../../../../tailwind.config';
import { LiveBadge } from '../../components/live-badge';
import { BOARD_TICK_MS, useNow } from '../../lib/use-now';

const LEGEND = [
  ['fresh', 'Reporting'],
  ['stale', 'Stale'],
  ['silent', 'Silent'],
  ['unknown', 'No ping'],
  ['finished', 'Finished'],
] as const;

/**
 * "Refresh", and "Refreshing…" while a board's pull runs. It watches the pulls itself: when a poll
 * starts, this button renders again, not the page with its 10,000 loads' hooks and memos.
 */
function RefreshButton({
  hashes,
  onRefresh,
  disabled,
}: {
  hashes: readonly string[];
  onRefresh: () => void;
  disabled: boolean;
}) {
  const fetching = useIsFetching({ predicate: (query) => hashes.includes(query.queryHash) }) > 0;
  return (
    <button
      type="button"
      className={`rounded border border-panel-line px-2 py-0.5 hover:bg-panel-sunk ${DISABLED_LOOK}`}
      onClick={onRefresh}
      disabled={fetching || disabled}
    >
      {fetching ? 'Refreshing…' : 'Refresh'}
    </button>
  );
}

export interface DispatcherHeaderProps {
  onMap: number;
  /** Watched loads the service knows; those it does not are `notFound`. */
  watched: number;
  /** The board's filter is set: the map draws only what passes it. */
  filtered: boolean;
  onShowAll: () => void;
  notFound: number;
  /** Watched loads the proxy has asked the service for and not had an answer about yet. */
  waiting: number;
  pending: boolean;
  updatedAt: number;
  boardHashes: readonly string[];
  onRefresh: () => void;
  /** Where the page places it. */
  className?: string;
}

/** "Updated 12 s ago": its own component, so that its clock renders nothing else. */
function SinceUpdate({ pending, updatedAt }: { pending: boolean; updatedAt: number }) {
  const now = useNow(BOARD_TICK_MS);
  // Not a live region: a screen reader would read the clock out every few seconds.
  return (
    <span className="text-ink-muted">
      {pending ? 'Loading…' : updatedAt > 0 ? `Updated ${formatSinceUpdate(now - updatedAt)}` : ''}
    </span>
  );
}

/** Above the board and the map: how many loads are drawn, how fresh the answer is, and the legend. */
export function DispatcherHeader(props: DispatcherHeaderProps) {
  const { onMap, watched, filtered, notFound, waiting, pending, updatedAt } = props;
  return (
    <div
      className={`flex flex-wrap items-center gap-x-4 gap-y-1 border-b border-panel-line bg-panel px-3 py-1 text-sm ${props.className ?? ''}`}
    >
      <span>
        <strong>{formatCount(onMap)}</strong> of {formatCount(watched)} loads on the map
        {filtered && ', as filtered on the board'}
      </span>
      {filtered && (
        <button
          type="button"
          className="rounded border border-panel-line px-2 py-0.5 hover:bg-panel-sunk"
          onClick={props.onShowAll}
        >
          Show all
        </button>
      )}
      {notFound > 0 && <span className="text-status-stale">{notFound} not found</span>}
      {waiting > 0 && (
        <span className="text-ink-muted">{formatCount(waiting)} waiting for the first answer</span>
      )}
      <SinceUpdate pending={pending} updatedAt={updatedAt} />
      <LiveBadge />
      <RefreshButton
        hashes={props.boardHashes}
        onRefresh={props.onRefresh}
        disabled={watched + notFound === 0}
      />
      <ul className="ml-auto flex flex-wrap gap-x-3 text-xs" aria-label="Legend">
        {LEGEND.map(([level, text]) => (
          <LegendItem key={level} swatch="h-3 w-3 rounded-full" color={statusColors[level]}>
            {text}
          </LegendItem>
        ))}
        <LegendItem swatch="h-3 w-3 rounded-full border border-status-accuracy bg-status-accuracy/15">
          Accuracy (68%)
        </LegendItem>
      </ul>
    </div>
  );
}
