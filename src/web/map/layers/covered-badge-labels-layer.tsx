import L from 'leaflet';
import { useEffect } from 'react';
import { badgeLabel } from '../core/cluster-badge';
import type { LabelsPart, MarkerEngine } from '../core/marker-engine';

/**
 * The pane of the counts of the badges the selected marker covers, written again above it (and under
 * tooltips): the selected load is out of its cluster (see `ClusterIndex.query`), but its marker can
 * still sit on a neighbouring badge, and drawn over the count it made "93" read "9●".
 */
const BADGE_LABEL_PANE = 'haulview-selected-badges';

/**
 * The counts of the cluster badges under the selected marker, written again above it; the engine's
 * redraw hands it those badges. Made again only when they change, not at every redraw of a pan.
 */
export function CoveredBadgeLabelsLayer({ engine }: { engine: MarkerEngine }) {
  useEffect(() => {
    const { map } = engine;
    const pane = map.getPane(BADGE_LABEL_PANE) ?? map.createPane(BADGE_LABEL_PANE);
    pane.style.zIndex = '630';
    pane.style.pointerEvents = 'none';
    const labels = L.layerGroup().addTo(map);
    /** Which badges are labelled (place, count, late count), to leave the labels alone while it holds. */
    let labelled = '';
    const part: LabelsPart = {
      show(covered) {
        const now = covered
          .map((b) => `${b.getLatLng().lat},${b.getLatLng().lng},${b.count},${b.late}`)
          .join(' ');
        if (now === labelled) return;
        labelled = now;
        labels.clearLayers();
        for (const badge of covered)
          L.marker(badge.getLatLng(), {
            icon: badgeLabel(badge.count, badge.late),
            pane: BADGE_LABEL_PANE,
            interactive: false,
            keyboard: false,
          }).addTo(labels);
      },
    };
    const unplug = engine.plug('labels', part);
    return () => {
      unplug();
      labels.remove();
    };
  }, [engine]);

  return null;
}
