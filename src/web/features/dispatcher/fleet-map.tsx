import { memo, useEffect, useMemo } from 'react';
import type { Load } from '@/domain/model';
import { loadStaleness, type StalenessThresholds } from '@/domain/staleness';
import { levelCache } from '../../lib/index-cache';
import { useSameList } from '../../lib/same-list';
import { MapShell } from '../../map/core/map-shell';
import { FitButtons, MapView, PanToSelection, type LatLon } from '../../map/controls/map-view';
import { BreadcrumbLayer, placesOf, type CrumbPing } from '../../map/layers/breadcrumb-layer';
import { makeFineBasemapAhead } from '../../map/layers/basemap-layer';
import { PlaceSwatch } from '../../map/layers/place-marker';
import { LoadMarkersLayer, type MarkerPoint } from '../../map/layers/load-markers-layer';
import { earlyPoints, pointOf } from '../../map/layers/load-point';
import type { EarlyPoints } from '../../lib/load-look';
import { phaseColors } from '../../../../tailwind.config';
import { LegendItem } from '../../components/legend-item';

export interface FleetMapProps {
  tileUrl: string | null;
  tileAttribution: string;
  loads: readonly Load[];
  /** The time staleness is judged at (it moves on when a load changes level: see useLevelNow). */
  now: number;
  thresholds: StalenessThresholds;
  /** Degrees out of its set point at which a reefer's reading is an excursion (it needs attention). */
  excursionTolerance: number;
  lowConfidenceMeters: number;
  selectedKey: string | null;
  /** The selected load with its whole track (pings, documents, comments), once loaded. */
  track: Load | null;
  onSelect: (key: string) => void;
  /** A cluster's late count was clicked: the keys of the loads it counts. */
  onShowLate?: (keys: string[]) => void;
  /** False while some of the loads are still being fetched: the first fit waits for all of them. */
  settled: boolean;
  /** The map's points of first answers whose loads are not here yet (unfiltered only). */
  early?: EarlyMapPoints | undefined;
  /** The early points are drawn: their loads may come. */
  onEarlyDrawn?: () => void;
  /** The map is on the page (called once mounted): early points may wait for it. */
  onShown?: () => void;
}

const NO_POINTS: readonly LatLon[] = [];

/** The marker's middle dot: where in its trip a load is (no dot: its status does not say). */
const PHASES = [
  ['planned', 'Planned'],
  ['pickup', 'At pickup'],
  ['transit', 'In transit'],
  ['delivery', 'At delivery'],
  ['delivered', 'Delivered'],
] as const;

const TRAIL_PLACES = [
  ['document', 'Document sent here'],
  ['comment', 'Comment sent here'],
] as const;

/**
 * The map's points of a board's first answers, come before their loads: those of the loads by
 * external id (`before` the loads the map has), by load number (`after` them), and whether every
 * watched load has its point or load now (the first fit waits for that).
 */
export interface EarlyMapPoints {
  before: EarlyPoints | undefined;
  after: EarlyPoints | undefined;
  whole: boolean;
}

const NO_MARKERS: MarkerPoint[] = [];

/** The dispatcher's map: every watched load's latest position, and the selected load's trail. */
// Memoized: the dispatcher renders again when a fetch starts or ends; the map has nothing to redo then.
export const FleetMap = memo(function FleetMap(p: FleetMapProps) {
  const { onShown } = p;
  useEffect(() => onShown?.(), [onShown]);
  // Once the fleet is in, a dispatcher soon zooms into a region: its finer coast is made ahead.
  const fleetIn = p.settled && p.loads.length > 0;
  useEffect(() => {
    if (fleetIn) makeFineBasemapAhead();
  }, [fleetIn]);
  // The same list until a load moves or crosses a staleness threshold: the cluster index and the
  // markers are not rebuilt on every clock tick, and when `now` moves on only the loads that
  // changed level get another point.
  const pointsOf = useMemo(
    () =>
      levelCache(
        (l: Load, at: number) => loadStaleness(l, at, p.thresholds),
        (l, level) => pointOf(l, level, p.excursionTolerance),
      ),
    [p.thresholds, p.excursionTolerance],
  );
  const fromLoads = useMemo(
    () => pointsOf(p.loads, p.now).filter((pt): pt is MarkerPoint => pt !== undefined),
    [pointsOf, p.loads, p.now],
  );
  // In the order the loads will have: by external id, then by load number.
  const before = useMemo(
    () => (p.early?.before ? earlyPoints(p.early.before) : NO_MARKERS),
    [p.early?.before],
  );
  const after = useMemo(() => (p.early?.after ? earlyPoints(p.early.after) : NO_MARKERS), [p.early?.after]);
  const points = useSameList(
    useMemo(
      () => (before.length + after.length === 0 ? fromLoads : [...before, ...fromLoads, ...after]),
      [before, fromLoads, after],
    ),
  );
  const crumbs = useMemo((): CrumbPing[] => p.track?.pings ?? [], [p.track]);
  const places = useMemo(() => placesOf(p.track), [p.track]);
  // Looked up only with a selection: not a pass over 10,000 points on every refresh without one.
  const selectedPoint = useMemo(
    () => (p.selectedKey === null ? null : (points.find((pt) => pt.key === p.selectedKey) ?? null)),
    [points, p.selectedKey],
  );
  const selectedPoints = useMemo((): readonly LatLon[] => {
    if (crumbs.length > 0) return crumbs;
    return selectedPoint ? [selectedPoint] : [];
  }, [crumbs, selectedPoint]);

  return (
    <div className="relative h-full" role="region" aria-label="Map of watched loads">
      <MapShell tileUrl={p.tileUrl} tileAttribution={p.tileAttribution}>
        <MapView fitTo={p.settled || p.early?.whole ? points : NO_POINTS} />
        {p.track && p.track.pings.length > 0 && (
          <BreadcrumbLayer pings={crumbs} places={places} lowConfidenceMeters={p.lowConfidenceMeters} />
        )}
        <LoadMarkersLayer
          points={points}
          selectedKey={p.selectedKey}
          onSelect={p.onSelect}
          onShowLate={p.onShowLate}
          onDrawn={p.early ? p.onEarlyDrawn : undefined}
        />
        <PanToSelection selectedKey={p.selectedKey} place={selectedPoint} />
        <FitButtons all={points} selected={selectedPoints} />
      </MapShell>
      <div className="pointer-events-none absolute right-2 bottom-6 left-2 z-[1000] flex flex-col items-start gap-1 text-xs">
        {/* What the selected load's trail draws, over the map while it is drawn (in the page's
            legend it wrapped the header onto a second line and moved the board). */}
        {crumbs.length > 0 && (
          <ul
            aria-label="Trail legend"
            className="flex flex-wrap gap-x-3 rounded bg-panel/90 px-2 py-1 shadow"
          >
            <LegendItem swatch="h-0.5 w-4 bg-status-selected">Trail</LegendItem>
            {/* The very shapes the map draws: a page, a speech bubble (not a disc like a load's). */}
            {TRAIL_PLACES.map(([kind, text]) => (
              <li key={kind} className="flex items-center gap-1">
                <PlaceSwatch kind={kind} />
                {text}
              </li>
            ))}
          </ul>
        )}
        {/* The marker's colour is its last ping's age (the page's legend); its dot, its trip phase. */}
        <ul
          aria-label="Status legend"
          className="flex flex-wrap gap-x-3 rounded bg-panel/90 px-2 py-1 shadow"
        >
          <li className="text-ink-muted">Dot: status</li>
          {PHASES.map(([phase, text]) => (
            <LegendItem
              key={phase}
              swatch="h-3 w-3 rounded-full border-[3px] border-status-unknown"
              color={phaseColors[phase]}
            >
              {text}
            </LegendItem>
          ))}
          {/* The ring: how its next stop stands against its appointment (issue 36). */}
          <li className="ml-2 text-ink-muted">Ring: next stop</li>
          <LegendItem swatch="h-3 w-3 rounded-full border-2 border-status-silent bg-status-unknown">
            Late
          </LegendItem>
          <LegendItem swatch="h-3 w-3 rounded-full border-2 border-status-stale bg-status-unknown">
            At risk
          </LegendItem>
        </ul>
      </div>
    </div>
  );
});
