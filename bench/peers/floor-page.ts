/**
 * The floors: not peers a team would pick, but the least a Leaflet page can do with the same answer,
 * to show what the ratio goals leave room for. The answer is fetched and `JSON.parse`d in a worker
 * (unthrottled, as Haulview's pull worker is) and each located load's place and accuracy sent back in
 * transferred typed arrays. `floor` then draws them with one canvas renderer in two paths (every
 * accuracy circle, then every dot) after each move and zoom, as Leaflet's own canvas renderer
 * redraws; `read` draws nothing: the answer read, on a bare map. No clusters, no selection, no list:
 * whatever a real page adds costs more than these.
 */
import L from 'leaflet';
import { markDrawn } from './peer-page';

/** The worker's code, run from a blob (no imports): fetch, parse, and the located loads as arrays. */
function workerMain(): void {
  self.onmessage = async (event: MessageEvent<string>) => {
    const response = await fetch(event.data, { cache: 'no-store' });
    const answer = JSON.parse(await response.text()) as {
      loads: { id: string; latestLocation?: { lat: number; lon: number; accuracy: number | null } }[];
    };
    const ids: string[] = [];
    const lat = new Float64Array(answer.loads.length);
    const lon = new Float64Array(answer.loads.length);
    const accuracy = new Float64Array(answer.loads.length);
    for (const load of answer.loads) {
      const at = load.latestLocation;
      if (!at) continue;
      lat[ids.length] = at.lat;
      lon[ids.length] = at.lon;
      accuracy[ids.length] = at.accuracy ?? 0;
      ids.push(load.id);
    }
    postMessage({ ids, lat, lon, accuracy }, { transfer: [lat.buffer, lon.buffer, accuracy.buffer] });
  };
}

interface Located {
  ids: string[];
  lat: Float64Array;
  lon: Float64Array;
  accuracy: Float64Array;
}

/** Runs a floor page: `draws` false reads each answer and draws nothing. */
export function runFloor({ draws }: { draws: boolean }): void {
  const worker = new Worker(
    URL.createObjectURL(new Blob([`(${workerMain.toString()})()`], { type: 'text/javascript' })),
  );
  const read = (path: string) =>
    new Promise<Located>((resolve) => {
      worker.onmessage = (event: MessageEvent<Located>) => resolve(event.data);
      worker.postMessage(new URL(path, location.href).href);
    });

  const map = L.map('map', { maxZoom: 19 });
  const renderer = L.canvas();
  let fleet: Located = {
    ids: [],
    lat: new Float64Array(),
    lon: new Float64Array(),
    accuracy: new Float64Array(),
  };
  let indexOf = new Map<string, number>();

  /** Every load drawn again: the circles in one path, the dots in another. */
  function draw(): void {
    const inner = renderer as unknown as { _ctx?: CanvasRenderingContext2D; _bounds?: L.Bounds };
    const ctx = inner._ctx;
    const bounds = inner._bounds;
    if (!ctx || !bounds?.min) return;
    const size = bounds.getSize();
    ctx.clearRect(bounds.min.x, bounds.min.y, size.x, size.y);
    // Spherical Mercator by hand, as Leaflet's projection computes it, without an object per point.
    const zoom = map.getZoom();
    const scale = 256 * 2 ** zoom;
    const origin = map.getPixelOrigin();
    const n = fleet.ids.length;
    const xs = new Float64Array(n);
    const ys = new Float64Array(n);
    ctx.beginPath();
    for (let i = 0; i < n; i++) {
      const lat = ((fleet.lat[i] as number) * Math.PI) / 180;
      const x = (((fleet.lon[i] as number) + 180) / 360) * scale - origin.x;
      const y = (0.5 - Math.log(Math.tan(Math.PI / 4 + lat / 2)) / (2 * Math.PI)) * scale - origin.y;
      xs[i] = x;
      ys[i] = y;
      // The accuracy in pixels: meters over the meters a pixel spans at this latitude and zoom.
      const r = (fleet.accuracy[i] as number) / ((40_075_016.686 * Math.cos(lat)) / scale);
      if (r >= 1) {
        ctx.moveTo(x + r, y);
        ctx.arc(x, y, r, 0, 2 * Math.PI);
      }
    }
    ctx.fillStyle = 'rgba(51, 136, 255, 0.2)';
    ctx.fill();
    ctx.beginPath();
    for (let i = 0; i < n; i++) {
      const x = xs[i] as number;
      const y = ys[i] as number;
      ctx.moveTo(x + 5, y);
      ctx.arc(x, y, 5, 0, 2 * Math.PI);
    }
    ctx.fillStyle = '#3388ff';
    ctx.fill();
  }
  // The renderer fires `update` once it has sized and placed its canvas for the view (after each move
  // and zoom): the same moments Leaflet's canvas renderer redraws its paths.
  if (draws) renderer.on('update', draw);

  void read('/answer.json').then((first) => {
    fleet = first;
    indexOf = new Map(first.ids.map((id, i) => [id, i]));
    const corners: L.LatLngTuple[] = [];
    for (let i = 0; i < first.ids.length; i++) corners.push([first.lat[i] as number, first.lon[i] as number]);
    // As Haulview fits its loads (src/web/map/controls/map-view.tsx).
    map.fitBounds(L.latLngBounds(corners), { padding: [40, 40], maxZoom: 14 });
    map.addLayer(renderer);
    markDrawn(first.ids.length);
    window.__peer = {
      refresh: async () => {
        const moved = await read('/delta.json');
        for (let k = 0; k < moved.ids.length; k++) {
          const i = indexOf.get(moved.ids[k] as string);
          if (i === undefined) continue;
          fleet.lat[i] = moved.lat[k] as number;
          fleet.lon[i] = moved.lon[k] as number;
          fleet.accuracy[i] = moved.accuracy[k] as number;
        }
        if (draws) draw();
        markDrawn(moved.ids.length);
      },
    };
  });
}
