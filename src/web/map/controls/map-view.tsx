import L from 'leaflet';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useMap } from 'react-leaflet';
import { restingWrite, useUrlParam } from '../../lib/url-state';

/** A place to fit the view to: a load's position, a ping. */
export interface LatLon {
  lat: number;
  lon: number;
}

/**
 * The box around places, made only when the view is fitted (not for 10,000 loads on each refresh):
 * by their extremes, not a Leaflet point and a bounds' extension per place.
 */
function boundsOf(places: readonly LatLon[]): L.LatLngBounds {
  let south = Infinity;
  let west = Infinity;
  let north = -Infinity;
  let east = -Infinity;
  for (const { lat, lon } of places) {
    if (lat < south) south = lat;
    if (lat > north) north = lat;
    if (lon < west) west = lon;
    if (lon > east) east = lon;
  }
  return L.latLngBounds([south, west], [north, east]);
}

/** `lat,lon,zoom` as kept in the URL. */
export function parseView(text: string | null): { center: L.LatLngTuple; zoom: number } | null {
  const parts = text?.split(',').map(Number);
  if (!parts || parts.length !== 3 || parts.some((n) => !Number.isFinite(n))) return null;
  const [lat, lon, zoom] = parts as [number, number, number];
  if (Math.abs(lat) > 90 || Math.abs(lon) > 540 || zoom < 0 || zoom > 20) return null;
  return { center: [lat, lon], zoom };
}

const hasSize = (map: L.Map) => {
  const size = map.getSize();
  return size.x > 0 && size.y > 0;
};

/** How long the map rests before its view is written to the URL. */
const WRITE_AFTER_MS = 300;
/** The longest a written view waits for the page to be idle. */
const WRITE_IDLE_TIMEOUT_MS = 2000;

/**
 * Keeps the map's centre and zoom in the URL (`?map=lat,lon,zoom`), so a reload or a shared link
 * restores the view; without one, fits the points once when they first arrive. With `urlParam` null
 * the view is not kept (a page with a map of its own).
 */
export function MapView({ fitTo, urlParam = 'map' }: { fitTo: readonly LatLon[]; urlParam?: string | null }) {
  const map = useMap();
  const [urlView, setUrlView] = useUrlParam(urlParam ?? 'map');
  const view = urlParam ? urlView : null;
  const setView = useCallback((v: string) => (urlParam ? setUrlView(v) : undefined), [urlParam, setUrlView]);
  const placed = useRef(false);
  // A map laid out hidden (a phone showing the board) has no size to fit to: it is placed once it has one.
  const [sized, setSized] = useState(() => hasSize(map));
  useEffect(() => {
    if (sized) return;
    const onResize = () => setSized(hasSize(map));
    map.on('resize', onResize);
    return () => {
      map.off('resize', onResize);
    };
  }, [map, sized]);

  useEffect(() => {
    if (placed.current || !sized) return;
    const initial = parseView(view);
    if (initial) {
      placed.current = true;
      map.setView(initial.center, initial.zoom, { animate: false });
    } else if (fitTo.length > 0) {
      placed.current = true;
      map.fitBounds(boundsOf(fitTo), {
        padding: [40, 40],
        maxZoom: 10,
        animate: false,
      });
    }
  }, [map, view, fitTo, sized]);

  useEffect(() => {
    // The view a zoom under way goes to: a link followed during its animation leaves that view.
    let target: { center: L.LatLng; zoom: number } | undefined;
    const write = () => {
      if (!placed.current) return;
      const c = target?.center ?? map.getCenter();
      setView(`${c.lat.toFixed(4)},${c.lng.toFixed(4)},${target?.zoom ?? map.getZoom()}`);
    };
    // Written once the map has come to rest, not in the frame that ends a pan or zoom: writing the
    // URL makes that frame longer (the browser is busiest then), and a drag and a wheel in a row need
    // one write. Then when the page is idle: the URL holds the watch list (10,000 ids), and writing
    // it re-renders what reads the URL, which must not delay the first answer's markers and rows.
    const rest = restingWrite(write, { afterMs: WRITE_AFTER_MS, idleTimeoutMs: WRITE_IDLE_TIMEOUT_MS });
    const onZoomAnim = (e: L.ZoomAnimEvent) => {
      target = { center: e.center, zoom: e.zoom };
      rest.hold();
    };
    const onMoveEnd = () => {
      target = undefined;
      rest.schedule();
    };
    map.on('zoomanim', onZoomAnim);
    map.on('moveend', onMoveEnd);
    return () => {
      map.off('zoomanim', onZoomAnim);
      map.off('moveend', onMoveEnd);
      // Not written on the way out by Back: the page that replaces this one owns the URL by then.
      rest.cancel();
    };
  }, [map, setView]);
  return null;
}

/** "Fit all" and "Fit selected": buttons over the map. */
export function FitButtons({ all, selected }: { all: readonly LatLon[]; selected: readonly LatLon[] }) {
  const map = useMap();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (box.current) L.DomEvent.disableClickPropagation(box.current);
  }, []);
  const fit = (places: readonly LatLon[]) => {
    const [one] = places;
    if (places.length === 1 && one) map.setView([one.lat, one.lon], Math.max(map.getZoom(), 11));
    else if (places.length > 1) map.fitBounds(boundsOf(places), { padding: [40, 40], maxZoom: 14 });
  };
  const button =
    'rounded border border-panel-line bg-panel px-2 py-1 text-sm shadow-sm hover:bg-panel-sunk disabled:opacity-50';
  return (
    <div ref={box} className="absolute top-2 right-2 z-[1000] flex gap-1">
      <button type="button" className={button} onClick={() => fit(all)} disabled={all.length === 0}>
        Fit all
      </button>
      <button type="button" className={button} onClick={() => fit(selected)} disabled={selected.length === 0}>
        Fit selected
      </button>
    </div>
  );
}

/**
 * Brings a newly selected load into view: a dispatcher who picks a row expects to see it on the map.
 * Only when it is out of view or at its very edge, by a pan that keeps the zoom. The selection the
 * page opened with (from the URL) keeps the view the URL gave; a click on a marker is in view already.
 */
export function PanToSelection({ selectedKey, place }: { selectedKey: string | null; place: LatLon | null }) {
  const map = useMap();
  const seen = useRef(selectedKey);
  const where = useRef(place);
  // Before the effect below, in the same commit: the place of the load just selected.
  useEffect(() => {
    where.current = place;
  }, [place]);
  useEffect(() => {
    if (selectedKey === seen.current) return;
    seen.current = selectedKey;
    const p = where.current;
    if (p && !map.getBounds().pad(-0.05).contains([p.lat, p.lon])) map.panTo([p.lat, p.lon]);
  }, [map, selectedKey]);
  return null;
}
