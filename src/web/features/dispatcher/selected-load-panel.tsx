import { Link } from 'wouter';
import type { Load } from '@/domain/model';
import { formatAge } from '@/domain/staleness';
import { formatAccuracy, telHref } from '../../lib/format';
import { viewerTime } from '../../lib/time-format';
import { BOARD_TICK_MS, useNow } from '../../lib/use-now';
import { loadPageHref, type LoadRef } from '../../lib/load-ref';
import { nextStop, tripStops, type TripStop } from '../../lib/trip-stops';
import { useWatchList, watchList } from '../../lib/watch-list';
import { placeText, type BoardRow } from './board-rows';
import { outlookLine, STOP_STATUS_CLASS } from '../../components/outlook-text';
import { STALENESS_CLASS } from '../../components/staleness-text';

export interface SelectedLoadPanelProps {
  selection: LoadRef;
  row: BoardRow | undefined;
  /** On the map (it is selected) but not on the board. */
  filteredOut: boolean;
  track: Load | null | undefined;
  trackLoading: boolean;
  trackFailed: boolean;
  /** The instant its ages are said at; without it, the board's clock. */
  now?: number;
  onClose: () => void;
}

function trackText({ track, trackLoading, trackFailed }: SelectedLoadPanelProps): string {
  if (trackLoading) return 'Loading its track…';
  if (track) {
    return `${track.pings.length} pings · ${track.events.length} status events · ${track.documents.length} documents · last fix ${formatAccuracy(track.latestLocation?.accuracy ?? null)}`;
  }
  return trackFailed ? 'Its track could not be loaded.' : 'The tracking service does not know this load.';
}

/** "12 min ago", the viewer's own time on hover. */
function Age({ instant, now }: { instant: number; now: number }) {
  return (
    <time dateTime={new Date(instant).toISOString()} title={`Your time: ${viewerTime(instant)}`}>
      {formatAge(now - instant)}
    </time>
  );
}

const stopText = (stop: TripStop): string =>
  [
    stop.kind === 'pickup' ? 'Pickup' : stop.kind === 'delivery' ? 'Delivery' : undefined,
    placeText(stop.place),
  ]
    .filter(Boolean)
    .join(' · ') || `Stop ${stop.order ?? ''}`.trim();

/**
 * Where the load is, its status and its next stop: from its own track once that is in (the board's
 * answer carries no stops), from its row before. The next stop is said only where it is certain
 * (`nextStop`); otherwise nothing is.
 */
function LoadFacts({ load, row, now }: { load: Load; row: BoardRow | undefined; now: number }) {
  const at = load.latestLocation;
  const status = load.latestStatus;
  const driver = at?.driver ?? status?.driver;
  const tel = driver?.phone ? telHref(driver.phone) : undefined;
  const next = nextStop(load, tripStops(load));
  const outlook = row ? outlookLine(load, row.staleness, row.attention.finished, now) : undefined;
  return (
    <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 text-xs">
      {outlook?.dark && row && (
        <>
          <dt className="text-ink-muted">Dark</dt>
          <dd className={`truncate ${STALENESS_CLASS[row.staleness]}`}>{outlook.dark}</dd>
        </>
      )}
      {outlook?.next && (
        <>
          <dt className="text-ink-muted">ETA</dt>
          <dd
            className={`truncate ${STOP_STATUS_CLASS[outlook.next.detention ? 'late' : outlook.next.status]}`}
          >
            {outlook.next.text}
          </dd>
        </>
      )}
      <dt className="text-ink-muted">Where</dt>
      <dd className="truncate">
        {at ? (
          <>
            {placeText(at.place) ?? `${at.lat.toFixed(3)}, ${at.lon.toFixed(3)}`} ·{' '}
            <Age instant={at.instant} now={now} />
          </>
        ) : (
          'no position yet'
        )}
      </dd>
      <dt className="text-ink-muted">Status</dt>
      <dd className="truncate">
        {status ? (
          <>
            {status.name ?? status.code ?? 'unnamed'}
            {status.name && status.code && ` (${status.code})`} · <Age instant={status.instant} now={now} />
          </>
        ) : (
          'no status yet'
        )}
      </dd>
      {next && (
        <>
          <dt className="text-ink-muted">{'at' in next ? 'At' : 'Next stop'}</dt>
          <dd className="truncate">
            {'done' in next ? 'none: delivered' : stopText('at' in next ? next.at : next.next)}
          </dd>
        </>
      )}
      {driver?.phone && (
        <>
          <dt className="text-ink-muted">Driver</dt>
          <dd className="truncate">
            {driver.name && `${driver.name} · `}
            {tel ? (
              <a href={tel} className="text-status-selected underline">
                {driver.phone}
              </a>
            ) : (
              driver.phone
            )}
          </dd>
        </>
      )}
    </dl>
  );
}

/** The selected load under the board: what it is, a link to its page, and a way to stop watching it. */
export function SelectedLoadPanel(props: SelectedLoadPanelProps) {
  const { selection, row, filteredOut, onClose, track } = props;
  const clock = useNow(BOARD_TICK_MS);
  const now = props.now ?? clock;
  const load = track ?? row?.load;
  // A load opened by a link (`?load=`) need not be on the watch list: nothing to stop then.
  const watched = useWatchList().some((e) => e.by === selection.by && e.id === selection.id);
  return (
    <section aria-label="Selected load" className="border-t border-panel-line bg-blue-50 p-2 text-sm">
      <div className="flex items-center gap-2">
        <strong className="truncate">{row?.label ?? selection.id}</strong>
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
      {load && <LoadFacts load={load} row={row} now={now} />}
      <div className="mt-1 flex items-baseline gap-2">
        <p className="min-w-0 flex-1 text-xs text-ink-muted">{trackText(props)}</p>
        {/* Away from "Details": a slip should not drop the load from the watch list. */}
        {watched && (
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
        )}
      </div>
    </section>
  );
}
