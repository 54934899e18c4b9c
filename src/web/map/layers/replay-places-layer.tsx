import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useMap } from 'react-leaflet';
import type { TimeSource } from '../../lib/time-store';
import { statusColors } from '../../../../tailwind.config';

/** A stop on a replay's map: its point, its fence, and when the load came and went (epoch ms). */
export interface ReplayStopPlace {
  key: string;
  lat: number;
  lon: number;
  fenceMeters: number;
  label: string;
  arrivedAt: number | undefined;
  departedAt: number | undefined;
  /** Shown from this instant: the stops are of the trip that began then (-Infinity: always). */
  from: number;
  /** Shown until this instant, when the next trip began (Infinity: the current trip's). */
  to: number;
}

/** A document or comment sent from a place, shown from the instant it was sent. */
export interface ReplaySentPlace {
  key: string;
  lat: number;
  lon: number;
  instant: number;
  kind: 'document' | 'comment';
  label: string;
}

type Progress = 'upcoming' | 'arrived' | 'departed';

const STOP_COLOR: Record<Progress, string> = {
  upcoming: statusColors.unknown,
  arrived: statusColors.stale,
  departed: statusColors.fresh,
};

const progressAt = (s: ReplayStopPlace, t: number): Progress =>
  s.arrivedAt === undefined || t < s.arrivedAt
    ? 'upcoming'
    : s.departedAt !== undefined && t >= s.departedAt
      ? 'departed'
      : 'arrived';

/**
 * A replay's stops (each with its fence, coloured by where the load stood with it at the time) and
 * the documents and comments sent so far. Made once; each frame only restyles a stop whose progress
 * changed and adds or removes an item whose instant (or a stop whose trip's start or end) was crossed.
 */
export function ReplayPlacesLayer({
  stops,
  sent,
  time,
}: {
  stops: readonly ReplayStopPlace[];
  sent: readonly ReplaySentPlace[];
  /** The replay's time: the layer follows it outside React's render. */
  time: TimeSource;
}) {
  const map = useMap();
  const stopLayers = useRef<
    { fence: L.Circle; dot: L.CircleMarker; progress: Progress | undefined; shown: boolean }[]
  >([]);
  const sentLayers = useRef<{ dot: L.CircleMarker; shown: boolean }[]>([]);

  useEffect(() => {
    const made = stops.map((s) => {
      const fence = L.circle([s.lat, s.lon], { radius: s.fenceMeters, weight: 1, fillOpacity: 0.08 });
      const dot = L.circleMarker([s.lat, s.lon], { radius: 6, weight: 2, color: '#fff', fillOpacity: 1 });
      dot.bindTooltip(s.label);
      return { fence, dot, progress: undefined as Progress | undefined, shown: false };
    });
    stopLayers.current = made;
    return () => {
      for (const m of made) {
        m.fence.remove();
        m.dot.remove();
      }
    };
  }, [map, stops]);

  useEffect(() => {
    const made = sent.map((s) => {
      const dot = L.circleMarker([s.lat, s.lon], {
        radius: 5,
        weight: 2,
        color: s.kind === 'document' ? statusColors.document : statusColors.comment,
        fillColor: '#fff',
        fillOpacity: 1,
      });
      dot.bindTooltip(s.label);
      return { dot, shown: false };
    });
    sentLayers.current = made;
    return () => {
      for (const m of made) m.dot.remove();
    };
  }, [map, sent]);

  useEffect(() => {
    const draw = (time: number) => {
      stopLayers.current.forEach((m, i) => {
        const stop = stops[i] as ReplayStopPlace;
        const show = time >= stop.from && time < stop.to;
        if (show !== m.shown) {
          m.shown = show;
          if (show) {
            m.fence.addTo(map);
            m.dot.addTo(map);
          } else {
            m.fence.remove();
            m.dot.remove();
          }
        }
        const p = progressAt(stop, time);
        if (p === m.progress) return;
        m.progress = p;
        m.fence.setStyle({ color: STOP_COLOR[p], fillColor: STOP_COLOR[p] });
        m.dot.setStyle({ fillColor: STOP_COLOR[p] });
      });
      sentLayers.current.forEach((m, i) => {
        const show = (sent[i] as ReplaySentPlace).instant <= time;
        if (show === m.shown) return;
        m.shown = show;
        if (show) m.dot.addTo(map);
        else m.dot.remove();
      });
    };
    const now = time.get();
    if (now !== undefined) draw(now);
    return time.subscribe(draw);
  }, [map, stops, sent, time]);

  return null;
}
