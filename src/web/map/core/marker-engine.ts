import L from 'leaflet';
import { afterPaint, perfMarkAfterPaint } from '../../lib/perf-marks';
import type { ClusterBadge } from './cluster-badge';
import type { ClusterAnswer } from './cluster-engine';
import { writeMarkerState } from './map-test-attributes';
import type { MarkerPoint } from './marker-point';

/** The view a redraw draws: its zoom, and its bounds with a margin. */
export interface MarkerView {
  zoom: number;
  south: number;
  west: number;
  north: number;
  east: number;
}

/** The clusters and lone points of a view, named by their place in the list the index holds. */
export interface ClusterFound {
  answer: ClusterAnswer;
  list: readonly MarkerPoint[];
}

/** The point markers layer's part in a redraw. */
export interface PointsPart {
  /** How many points it holds. */
  size(): number;
  /** The selected point, if it holds it. */
  selected(): MarkerPoint | undefined;
  /**
   * Decides which markers and circles show: every point in view, or when clustering the keys in
   * `visible` (the lone points); the selected one always, at once. `apply` makes the other changes,
   * a slice per frame, and calls `done` after the last.
   */
  plan(
    view: MarkerView,
    visible: ReadonlySet<string> | null,
  ): { markers: number; circles: number; apply(done: () => void): void };
}

/** What the cluster badges show once placed. */
export interface BadgesDrawn {
  shown: number;
  /** The loads they count, and the late ones among them. */
  clustered: number;
  clusteredLate: number;
  /** Where each is drawn, as `data-badges` lists them. */
  places: string;
  made: number;
  /** Those the selected marker covers. */
  covered: ClusterBadge[];
}

/** The cluster badges layer's part in a redraw. */
export interface ClustersPart {
  /** Whether points are clustered at this zoom. */
  clustersAt(zoom: number): boolean;
  /** The view's clusters, the selected point left out of them; null while the index holds no list. */
  query(
    view: MarkerView,
  ): { answer: ClusterAnswer | Promise<ClusterAnswer>; list: readonly MarkerPoint[] } | null;
  /** Shows the badges of what was found (none for null); returns the keys of the lone points (null: not clustering). */
  place(view: MarkerView, found: ClusterFound | null): Set<string> | null;
  /** Tells each badge whether the selected marker, at `at` (container pixels), covers it. */
  cover(at: L.Point | undefined): BadgesDrawn;
  where(): string;
}

/** The covered badge labels layer's part in a redraw. */
export interface LabelsPart {
  show(covered: readonly ClusterBadge[]): void;
}

/**
 * What the load markers' layers share: their parts in a redraw, the one tooltip, and the redraw that
 * runs them in order (the clusters, the markers, the covered badges' labels). Layers call `changed`
 * in their effects and the load markers layer redraws once per commit: a refresh changes the points
 * and the index together, and is drawn once, not once for each.
 */
export class MarkerEngine {
  private readonly parts: { points?: PointsPart; clusters?: ClustersPart; labels?: LabelsPart } = {};
  private dirty = false;
  /** One tooltip for every marker and badge: one bound to each marker is an object per marker to keep. */
  readonly tooltip = L.tooltip({ direction: 'top', offset: [0, -8] });
  /** Redraws asked for: an answer of the cluster index for one that is no longer the last is dropped. */
  private turn = 0;
  /** Called when a redraw's last slice is drawn (the page waits for it to bring what comes next). */
  private onDrawn: (() => void) | undefined;

  constructor(readonly map: L.Map) {}

  /** A layer's part in the redraw, from its mount; returns the unplugging, for its unmount. */
  plug<K extends keyof MarkerEngine['parts']>(
    slot: K,
    part: NonNullable<MarkerEngine['parts'][K]>,
  ): () => void {
    this.parts[slot] = part;
    this.dirty = true;
    return () => {
      if (this.parts[slot] === part) delete this.parts[slot];
    };
  }

  /** What to call when a redraw's last slice is drawn. */
  whenDrawn(call: (() => void) | undefined): void {
    this.onDrawn = call;
  }

  /** Something a redraw shows changed (called from the layers' effects). */
  changed(): void {
    this.dirty = true;
  }

  closeTooltip(): void {
    this.map.closeTooltip(this.tooltip);
  }

  /** Redraws when the view moved, and closes the tooltip as it starts to; returns the undoing. */
  attach(): () => void {
    const { map } = this;
    // No "N loads" left behind where the view moved from (the pointer did not move, so no mouseout).
    const closeTooltip = () => this.closeTooltip();
    map.on('movestart zoomstart', closeTooltip);
    // In the next frame: the frame that ends a zoom already has Leaflet's own work (every layer
    // projected and the canvas drawn again), and a zoom ends with both events, one redraw for both.
    let viewFrame = 0;
    const onView = () => {
      writeMarkerState(map.getContainer(), { drawing: 'pending' });
      cancelAnimationFrame(viewFrame);
      viewFrame = requestAnimationFrame(() => {
        viewFrame = 0;
        this.redraw();
      });
    };
    map.on('zoomend moveend', onView);
    return () => {
      cancelAnimationFrame(viewFrame);
      map.off('zoomend moveend', onView);
      map.off('movestart zoomstart', closeTooltip);
      this.closeTooltip();
    };
  }

  /** One redraw for whatever the layers' effects changed. */
  redrawIfDirty(): void {
    if (!this.dirty) return;
    this.dirty = false;
    this.redraw();
  }

  /** What shows at this zoom and place: clusters or markers, circles or not, the selection on top. */
  redraw(): void {
    const { map } = this;
    const { points, clusters } = this.parts;
    if (!points || !clusters) return;
    const zoom = map.getZoom();
    const clustering = clusters.clustersAt(zoom) && points.size() > 1;
    // What is drawn is what is in view, and a fifth of it around: Leaflet's canvas projects and
    // redraws every layer it holds at each zoom. A pan adds what comes into view at its end.
    const b = map.getBounds().pad(0.2);
    const view: MarkerView = {
      zoom,
      south: b.getSouth(),
      west: b.getWest(),
      north: b.getNorth(),
      east: b.getEast(),
    };
    writeMarkerState(map.getContainer(), { drawing: 'pending' });
    const turn = ++this.turn;
    // The selected load is taken out of the clusters: its badge counts the others, and it is drawn
    // alone. The index finds the cluster that held it; it is not built again.
    const asked = clustering ? clusters.query(view) : null;
    if (!asked) {
      this.show(points, clusters, view, null);
      return;
    }
    const { answer, list } = asked;
    if (!(answer instanceof Promise)) this.show(points, clusters, view, { answer, list });
    else
      void answer.then((a) => {
        // A later redraw (a pan, a refresh) asked again: its answer decides.
        if (turn === this.turn && this.parts.points === points && this.parts.clusters === clusters)
          this.show(points, clusters, view, { answer: a, list });
      });
  }

  /** The rest of a redraw, with the view's clusters when it clusters. */
  private show(
    points: PointsPart,
    clusters: ClustersPart,
    view: MarkerView,
    found: ClusterFound | null,
  ): void {
    const visible = clusters.place(view, found);
    const { markers, circles, apply } = points.plan(view, visible);
    const chosen = points.selected();
    const badges = clusters.cover(chosen && this.map.latLngToContainerPoint([chosen.lat, chosen.lon]));
    this.parts.labels?.show(badges.covered);
    const container = this.map.getContainer();
    writeMarkerState(container, {
      points: points.size(),
      markers,
      circles,
      clusters: badges.shown,
      badgesRelabelled: badges.covered.length,
      clustered: badges.clustered,
      clusteredLate: badges.clusteredLate,
      badges: badges.places,
      badgesMade: badges.made,
      clustersIn: clusters.where(),
    });
    apply(() => {
      writeMarkerState(container, { drawing: 'done' });
      perfMarkAfterPaint('markers-drawn', { points: points.size(), markers, circles });
      // Once on screen: what the page does next (a board's loads copied) would hold the frame back.
      const drawn = this.onDrawn;
      if (drawn) afterPaint(drawn);
    });
  }
}
