import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import type { SharedLoad, SharedStop, ShareView } from '@/contract/share-api';
import { UpdatedAge } from '../../components/updated-age';
import { formatAccuracy, formatSinceUpdate } from '../../lib/format';
import { viewerTime } from '../../lib/time-format';
import { linkEnded, shareViewQueries } from './share-view-queries';

// Leaflet comes after the words: a phone shows the status and ETAs first.
const ShareMap = lazy(() => import('./share-map').then((m) => ({ default: m.ShareMap })));

/** The token in `/share/<token>`. */
export function tokenOfPath(pathname: string): string {
  return decodeURIComponent(pathname.replace(/^\/share\/?/, '').split('/')[0] ?? '');
}

const PROGRESS = { upcoming: 'Expected', arrived: 'Arrived', departed: 'Departed' } as const;
const STANDING = {
  'on-time': 'On time',
  'at-risk': 'At risk',
  late: 'Late',
  'no-appointment': '',
  unknown: '',
} as const;

const placeText = (p: { city?: string; state?: string; country?: string } | undefined) =>
  [p?.city, p?.state].filter(Boolean).join(', ');

function StopLine({ stop }: { stop: SharedStop }) {
  const when =
    stop.progress === 'upcoming' ? stop.eta : stop.progress === 'arrived' ? stop.arrivedAt : stop.departedAt;
  return (
    <li className="border-t border-slate-200 py-2" data-testid="share-stop">
      <div className="flex justify-between gap-2">
        <span className="font-medium">
          {stop.type === 'pickup' ? 'Pickup' : stop.type === 'delivery' ? 'Delivery' : `Stop ${stop.order}`}
          {placeText(stop.place) && ` · ${placeText(stop.place)}`}
        </span>
        {STANDING[stop.status] && <span className="text-sm">{STANDING[stop.status]}</span>}
      </div>
      {stop.name && <div className="text-sm text-ink-muted">{stop.name}</div>}
      <div className="text-sm">
        {when !== undefined ? `${PROGRESS[stop.progress]} ${viewerTime(when)}` : PROGRESS[stop.progress]}
        {stop.progress === 'departed' &&
          stop.arrivedAt !== undefined &&
          ` (arrived ${viewerTime(stop.arrivedAt)})`}
      </div>
      {stop.appointmentAt !== undefined ? (
        <div className="text-sm text-ink-muted">Appointment {viewerTime(stop.appointmentAt)}</div>
      ) : (
        stop.appointment && (
          <div className="text-sm text-ink-muted">
            Appointment {stop.appointment}, the stop&rsquo;s local time
          </div>
        )
      )}
    </li>
  );
}

function LoadCard({ load, servedAt }: { load: SharedLoad; servedAt: number }) {
  if (!load.found)
    return (
      <section className="rounded border border-slate-200 bg-white p-3">
        <h2 className="font-semibold">Load {load.label}</h2>
        <p className="text-sm text-ink-muted" role={load.pending ? 'status' : undefined}>
          {load.pending
            ? 'Waiting for the first tracking data of this load: it shows here as soon as it comes.'
            : 'No tracking information for this load yet.'}
        </p>
      </section>
    );
  return (
    <section className="rounded border border-slate-200 bg-white p-3" data-testid="share-load">
      <h2 className="font-semibold">Load {load.label}</h2>
      {load.status && (
        <p>
          <span className="font-medium">{load.status.name}</span>{' '}
          <span className="text-sm text-ink-muted">{viewerTime(load.status.at)}</span>
        </p>
      )}
      {load.ended && (
        <p className="text-sm text-ink-muted" data-testid="share-trip-ended">
          This shipment&rsquo;s trip is over: tracking stopped with it.
        </p>
      )}
      {load.position && (
        <p className="text-sm" data-testid="share-position">
          Last position {placeText(load.place) && `near ${placeText(load.place)}, `}
          {formatSinceUpdate(Math.max(0, servedAt - load.position.at))} ({viewerTime(load.position.at)})
          {load.position.accuracy !== null && `, ${formatAccuracy(load.position.accuracy)}`}
        </p>
      )}
      {load.stops && load.stops.length > 0 && (
        <ol className="mt-2">
          {load.stops.map((s) => (
            <StopLine key={s.order} stop={s} />
          ))}
        </ol>
      )}
      {load.pod && load.pod.length > 0 && (
        <p className="mt-2 text-sm">
          Proof of delivery:{' '}
          {load.pod.map((d, i) => (
            <a key={d.url} href={d.url} target="_blank" rel="noreferrer noopener" className="underline">
              {i === 0 ? 'open' : `open (${i + 1})`}
            </a>
          ))}
        </p>
      )}
    </section>
  );
}

function Shared({ view, updatedAt, fetching }: { view: ShareView; updatedAt: number; fetching: boolean }) {
  return (
    <>
      {view.shows.map && view.loads.some((l) => l.position) && (
        <div className="h-72 w-full sm:h-96" data-testid="share-map">
          <Suspense fallback={null}>
            <ShareMap loads={view.loads} tileUrl={view.tileUrl} tileAttribution={view.tileAttribution} />
          </Suspense>
        </div>
      )}
      <div className="flex flex-col gap-3 p-3">
        {view.loads.map((load) => (
          <LoadCard key={load.label} load={load} servedAt={view.servedAt} />
        ))}
        <p className="text-sm wrap-anywhere text-ink-muted">
          Shared by {view.broker}. This link works until {viewerTime(Date.parse(view.expiresAt))}.
          <br />
          <UpdatedAge updatedAt={updatedAt} fetching={fetching} refreshSeconds={view.refreshSeconds} />
        </p>
      </div>
    </>
  );
}

/** `/share/<token>`: a customer's read-only tracking page, with no login. */
export function SharePage({ token }: { token: string }) {
  const view = useQuery(shareViewQueries.view(token));
  return (
    <div className="min-h-full bg-slate-50 text-ink">
      <header className="bg-ink px-3 py-2 text-white">
        <h1 className="text-lg font-semibold">Load tracking</h1>
      </header>
      {view.isPending ? (
        <p className="p-3 text-ink-muted">Loading…</p>
      ) : linkEnded(view.error) ? (
        <div className="p-3" role="alert" data-testid="share-ended">
          <h2 className="text-lg font-semibold">This tracking link is not valid</h2>
          <p>It may have expired or been withdrawn. Ask the sender for a new link.</p>
        </div>
      ) : view.data ? (
        <>
          {view.isError && (
            <p className="bg-amber-100 p-2 text-sm" role="status">
              Could not refresh: {view.error.message}
            </p>
          )}
          <Shared view={view.data} updatedAt={view.dataUpdatedAt} fetching={view.isFetching} />
        </>
      ) : (
        <p className="p-3" role="alert">
          {view.error?.message ?? 'The tracking page could not be loaded.'}
        </p>
      )}
    </div>
  );
}
