import { Link } from 'wouter';
import type { Load } from '@/domain/model';
import { formatAccuracy } from '../../lib/format';
import { loadPageHref, type LoadRef } from '../../lib/load-ref';
import { watchList } from '../../lib/watch-list';
import type { BoardRow } from './board-rows';

export interface SelectedLoadPanelProps {
  selection: LoadRef;
  row: BoardRow | undefined;
  /** On the map (it is selected) but not on the board. */
  filteredOut: boolean;
  track: Load | null | undefined;
  trackLoading: boolean;
  trackFailed: boolean;
  onClose: () => void;
}

function trackText({ track, trackLoading, trackFailed }: SelectedLoadPanelProps): string {
  if (trackLoading) return 'Loading its track…';
  if (track) {
    return `${track.pings.length} pings · ${track.events.length} status events · ${track.documents.length} documents · last fix ${formatAccuracy(track.latestLocation?.accuracy ?? null)}`;
  }
  return trackFailed ? 'Its track could not be loaded.' : 'The tracking service does not know this load.';
}

/** The selected load under the board: what it is, a link to its page, and a way to stop watching it. */
export function SelectedLoadPanel(props: SelectedLoadPanelProps) {
  const { selection, row, filteredOut, onClose } = props;
  return (
    <section aria-label="Selected load" className="border-t border-panel-line bg-blue-50 p-2 text-sm">
      <div className="flex items-center gap-2">
        <strong className="truncate">{row?.label ?? selection.id}</strong>
        <span className="truncate text-ink-muted">{row?.status ?? ''}</span>
        {/* The header counts it, the rows do not. */}
        {filteredOut && <span className="text-xs text-ink-muted">not in the board's filter</span>}
        <Link
          href={loadPageHref(selection)}
          className="ml-auto rounded border border-panel-line bg-panel px-2 py-0.5 text-status-selected"
        >
          Details
        </Link>
        <button
          type="button"
          aria-label="Close selection"
          className="rounded border border-panel-line bg-panel px-2 py-0.5"
          onClick={onClose}
        >
          ×
        </button>
      </div>
      <div className="mt-1 flex items-baseline gap-2">
        <p className="min-w-0 flex-1 text-xs text-ink-muted">{trackText(props)}</p>
        {/* Away from "Details": a slip should not drop the load from the watch list. */}
        <button
          type="button"
          className="shrink-0 text-xs text-ink-muted underline hover:text-ink"
          onClick={() => {
            watchList.remove(selection);
            // Its panel and trail go with it: a load no longer watched is not followed.
            onClose();
          }}
        >
          Stop watching
        </button>
      </div>
    </section>
  );
}
