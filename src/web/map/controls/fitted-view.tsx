import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useMap } from 'react-leaflet';
import { restingWrite, useUrlParam } from '../../lib/url-state';
import { writeMarkerState } from '../core/map-test-attributes';
import { parseView, type LatLon } from './map-view';

/** How long the map rests before the view the user chose is written to the URL. */
const WRITE_AFTER_MS = 300;

const FIT = { padding: [40, 40] as L.PointTuple, maxZoom: 10, animate: false };

/**
 * A view that is a function of the link and the map's size only, for a page whose link is sent to a
 * colleague: with `?<urlParam>=lat,lon,zoom` that view; else fitted to `fitTo` once it is given (null
 * until all of it is read) and fitted again whenever the map's size changes, so neither the order
 * the data came in nor when the map learnt its size shows. Once the user moves the map, the view is
 * theirs and is written to the URL.
 */
export function FittedView({ fitTo, urlParam }: { fitTo: readonly LatLon[] | null; urlParam: string }) {
  const map = useMap();
  const [urlView, setUrlView] = useUrlParam(urlParam);
  // Whether the user (or the link) chose the view: from then on it is never fitted again.
  const chosen = useRef(parseView(urlView) !== null);
  const places = useRef(fitTo);
  const initial = useRef(urlView);
  const setView = useRef(setUrlView);
  const fitRef = useRef<(() => void) | undefined>(undefined);
  useEffect(() => {
    setView.current = setUrlView;
  }, [setUrlView]);

  useEffect(() => {
    // Moves this control makes are told apart from the user's by this flag: Leaflet fires
    // `movestart` for both, synchronously when not animated.
    let fitting = false;
    const hasSize = () => {
      const s = map.getSize();
      return s.x > 0 && s.y > 0;
    };
    const report = () => {
      const c = map.getCenter();
      writeMarkerState(map.getContainer(), {
        view: `${c.lat.toFixed(4)},${c.lng.toFixed(4)},${map.getZoom()}`,
      });
    };
    const fit = () => {
      const list = places.current;
      if (chosen.current || !list || list.length === 0 || !hasSize()) return;
      fitting = true;
      try {
        map.fitBounds(L.latLngBounds(list.map((p): L.LatLngTuple => [p.lat, p.lon])), FIT);
      } finally {
        fitting = false;
      }
      report();
    };
    const fromLink = parseView(initial.current);
    if (fromLink) {
      fitting = true;
      map.setView(fromLink.center, fromLink.zoom, { animate: false });
      fitting = false;
      report();
    }
    const rest = restingWrite(
      () => {
        const c = map.getCenter();
        setView.current(`${c.lat.toFixed(4)},${c.lng.toFixed(4)},${map.getZoom()}`);
      },
      { afterMs: WRITE_AFTER_MS },
    );
    const onMoveStart = () => {
      if (!fitting) chosen.current = true;
    };
    const onMoveEnd = () => {
      report();
      if (fitting || !chosen.current) return;
      rest.schedule();
    };
    map.on('movestart', onMoveStart);
    map.on('moveend', onMoveEnd);
    map.on('resize', fit);
    fitRef.current = fit;
    fit();
    return () => {
      map.off('movestart', onMoveStart);
      map.off('moveend', onMoveEnd);
      map.off('resize', fit);
      rest.cancel();
      fitRef.current = undefined;
    };
  }, [map]);

  useEffect(() => {
    // Fitted once when the places are first given; later answers (a refresh) leave the view be.
    if (places.current !== null || fitTo === null) return;
    places.current = fitTo;
    fitRef.current?.();
  }, [fitTo]);
  return null;
}
