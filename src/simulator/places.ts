import { around, distance } from 'geokdbush';
import KDBush from 'kdbush';
import { CITIES, type City } from './cities';
import type { Point } from './fleet';
import { PLACES_TSV } from './places-data';
import { zoneOf } from './state-zones';

/**
 * The town a position is reported in (a location's city, state and country, and the zone of its
 * device's local time): the nearest of a few thousand towns (places-data.ts), as the real service
 * reverse-geocodes to the nearest locality. Route endpoints stay `CITIES`.
 */
export type Place = City;

/**
 * The route cities first, then the towns: a truck at a stop is named after its city ("Vancouver",
 * "New York"), not after the GeoNames town or neighbourhood nearest the city's centre ("West End",
 * "New York City").
 */
export const PLACES: readonly Place[] = [
  ...CITIES,
  ...PLACES_TSV.trim()
    .split('\n')
    .map((line): Place => {
      const [name = '', state = '', country, lat, lon] = line.split('\t');
      if (country !== 'US' && country !== 'CA' && country !== 'MX') throw new Error(`bad place: ${line}`);
      return { name, state, country, lat: Number(lat), lon: Number(lon), zone: zoneOf(country, state) };
    }),
];

const RAD = Math.PI / 180;
const index = new KDBush(PLACES.length);
for (const p of PLACES) index.add(p.lon, p.lat);
index.finish();
const lats = Float64Array.from(PLACES, (p) => p.lat);
const lons = Float64Array.from(PLACES, (p) => p.lon);
const cosLats = Float64Array.from(PLACES, (p) => Math.cos(p.lat * RAD));

/**
 * geokdbush's exact search builds a priority queue at each call, and a full pull of 10,000 loads
 * makes millions of calls. So the world is cut into CELL-degree cells, and each cell, the first time
 * a position falls in it, keeps the places that can be nearest to some point of it: with c its
 * centre, r the farthest of its corners from c and d0 the distance from c to its nearest place, the
 * nearest place of any point q of the cell is within r + d0 of q, hence within 2r + d0 of c. A
 * lookup then compares a handful of places.
 */
const CELL = 0.25;
const MAX_CELLS = 100_000;
/** Plain arrays, not a Uint32Array a cell: typed arrays make a full pull's garbage collection slower. */
const cells = new Map<number, number[]>();

function candidates(lat: number, lon: number): number[] {
  const i = Math.floor(lat / CELL);
  const j = Math.floor(lon / CELL);
  const key = i * 4096 + j;
  let ids = cells.get(key);
  if (!ids) {
    const [south, west] = [i * CELL, j * CELL];
    const [cLat, cLon] = [south + CELL / 2, west + CELL / 2];
    let r = 0;
    for (const [aLat, aLon] of [
      [south, west],
      [south, west + CELL],
      [south + CELL, west],
      [south + CELL, west + CELL],
    ] as const)
      r = Math.max(r, distance(cLon, cLat, aLon, aLat));
    const nearest = around(index, cLon, cLat, 1)[0] as number;
    const d0 = distance(cLon, cLat, lons[nearest] as number, lats[nearest] as number);
    // A little slack: a place too many costs a comparison, one too few a wrong answer.
    ids = around(index, cLon, cLat, Infinity, (2 * r + d0) * 1.001 + 0.01);
    if (cells.size >= MAX_CELLS) cells.clear();
    cells.set(key, ids);
  }
  return ids;
}

/** The place nearest to a position, on the globe. */
export function nearestPlace(p: Point): Place {
  const ids = candidates(p.lat, p.lon);
  const cosLat = Math.cos(p.lat * RAD);
  let best = ids[0] as number;
  let bestH = Infinity;
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k] as number;
    const sLat = Math.sin(((lats[id] as number) - p.lat) * RAD * 0.5);
    const sLon = Math.sin(((lons[id] as number) - p.lon) * RAD * 0.5);
    // The haversine of the angle between them: it grows with the distance, so the least is the nearest.
    const h = sLat * sLat + cosLat * (cosLats[id] as number) * sLon * sLon;
    if (h < bestH) {
      bestH = h;
      best = id;
    }
  }
  return PLACES[best] as Place;
}
