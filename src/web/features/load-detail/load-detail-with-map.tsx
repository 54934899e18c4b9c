import { useQuery } from '@tanstack/react-query';
import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { Link } from 'wouter';
import type { ClientConfig } from '@/contract/proxy-api';
import { loadStaleness } from '@/domain/staleness';
import { LoadDetailPage } from './load-detail-page';
import { pointOf } from '../../map/layers/load-point';
import { loadQueries } from '../../data/load-queries';
import type { LoadRef } from '../../lib/load-ref';
import { boardHref } from '../../lib/url-state';
import { replayHref } from '../../lib/replay-link';
import { useNow } from '../../lib/use-now';
import { MapShell } from '../../map/core/map-shell';
import { FlyTo, type FlyTarget } from '../../map/controls/fly-to';
import { MapView } from '../../map/controls/map-view';
import { BreadcrumbLayer, placesOf } from '../../map/layers/breadcrumb-layer';
import { LoadMarkersLayer } from '../../map/layers/load-markers-layer';

/** `/loads/:by/:id`: everything about one load, beside a map of its trail. */
export function LoadDetailWithMap({ loadRef, config }: { loadRef: LoadRef; config: ClientConfig }) {
  const { by, id } = loadRef;
  const track = useQuery(loadQueries.detail(by, id, config.refreshSeconds));
  const [target, setTarget] = useState<FlyTarget | null>(null);
  const panTo = useCallback((p: FlyTarget) => setTarget({ ...p }), []);
  // The map follows the panel: a trail of 20,000 pings is drawn in a render of its own, after the
  // panel is on screen, rather than holding the panel back.
  const load = useDeferredValue(track.data?.load ?? null);
  const pings = useMemo(() => load?.pings ?? [], [load]);
  const places = useMemo(() => placesOf(load), [load]);
  // Where the load is now, coloured by staleness, with its accuracy circle (it is the selected load).
  const now = useNow(30_000);
  const level = loadStaleness(load ?? {}, now, {
    staleAfterMinutes: config.staleAfterMinutes,
    silentAfterMinutes: config.silentAfterMinutes,
  });
  const latest = useMemo(
    () => (load ? pointOf(load, level, config.excursionTolerance) : undefined),
    [load, level, config.excursionTolerance],
  );
  const latestPoints = useMemo(() => (latest ? [latest] : []), [latest]);
  return (
    // A phone: one column, the map a strip above the page (where a ping picked below flies to).
    <div className="grid h-full grid-cols-1 grid-rows-[14rem_minmax(0,1fr)] md:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] md:grid-rows-1">
      <div className="row-start-2 grid min-h-0 grid-rows-[auto_minmax(0,1fr)] border-panel-line md:row-start-1 md:border-r">
        <nav className="flex gap-4 border-b border-panel-line bg-panel px-4 py-2 text-sm">
          <Link href={boardHref(loadRef)} className="text-status-selected underline">
            ← Back to the map
          </Link>
          <Link href={replayHref([loadRef])} className="text-status-selected underline">
            Replay
          </Link>
        </nav>
        <LoadDetailPage by={by} id={id} config={config} onPanTo={panTo} />
      </div>
      <div className="relative row-start-1 min-h-0" role="region" aria-label="Map of this load">
        <MapShell tileUrl={config.tileUrl} tileAttribution={config.tileAttribution}>
          <MapView fitTo={pings} urlParam={null} />
          {pings.length > 0 && (
            <BreadcrumbLayer pings={pings} places={places} lowConfidenceMeters={config.lowConfidenceMeters} />
          )}
          <LoadMarkersLayer points={latestPoints} selectedKey={latest?.key ?? null} />
          <FlyTo target={target} />
        </MapShell>
      </div>
    </div>
  );
}
