import { useEffect, useMemo, useState } from 'react';
import { useMap } from 'react-leaflet';
import { MarkerEngine } from '../core/marker-engine';
import type { MarkerPoint } from '../core/marker-point';
import { ClusterBadgesLayer } from './cluster-badges-layer';
import { CoveredBadgeLabelsLayer } from './covered-badge-labels-layer';
import { PointMarkersLayer } from './point-markers-layer';
import { SelectedMarkerLayer } from './selected-marker-layer';

export type { MarkerPoint } from '../core/marker-point';

export interface LoadMarkersLayerProps {
  points: readonly MarkerPoint[];
  selectedKey: string | null;
  onSelect?: (key: string) => void;
  /** Below this zoom, nearby points are clustered with counts. */
  clusterBelowZoom?: number;
  /** A cluster's late count was clicked: the keys of the loads it counts. */
  onShowLate?: (keys: string[]) => void;
  /** These points are drawn (called after each redraw's last slice). */
  onDrawn?: (() => void) | undefined;
}

/**
 * Many loads on the map: their markers and circles, clusters with counts at low zoom, the selected
 * load drawn alone above them, and the counts of the badges it covers written again above it. One
 * layer per thing drawn; they share a `MarkerEngine`, which redraws once per commit and after the
 * view moved, and writes what was drawn on the map's container (`map-test-attributes`).
 */
export function LoadMarkersLayer({
  points,
  selectedKey,
  onSelect,
  clusterBelowZoom = 6,
  onShowLate,
  onDrawn,
}: LoadMarkersLayerProps) {
  const map = useMap();
  const [engine] = useState(() => new MarkerEngine(map));
  const selected = useMemo(
    () => (selectedKey === null ? undefined : points.find((p) => p.key === selectedKey)),
    [points, selectedKey],
  );
  useEffect(() => engine.attach(), [engine]);
  useEffect(() => engine.whenDrawn(onDrawn), [engine, onDrawn]);
  // After the layers' effects (a parent's run after its children's): one redraw for all they changed.
  useEffect(() => engine.redrawIfDirty());

  return (
    <>
      <PointMarkersLayer engine={engine} points={points} selectedKey={selectedKey} onSelect={onSelect} />
      <ClusterBadgesLayer
        engine={engine}
        points={points}
        selectedKey={selectedKey}
        clusterBelowZoom={clusterBelowZoom}
        onShowLate={onShowLate}
      />
      <CoveredBadgeLabelsLayer engine={engine} />
      <SelectedMarkerLayer point={selected} />
    </>
  );
}
