/** A load's marker's radius in CSS pixels (its white ring included). */
export const MARKER_RADIUS_PX = 7;

/**
 * The least radius, in CSS pixels, at which a load's accuracy circle is drawn: a few pixels past
 * its marker. A smaller circle lies under the marker and says nothing, and hundreds of them only
 * cost drawing.
 */
export const MIN_CIRCLE_RADIUS_PX = MARKER_RADIUS_PX + 3;

/** The Earth's circumference at the equator in metres, as Web Mercator (EPSG:3857) takes it. */
const EQUATOR_M = 40_075_016.686;

/** Metres per CSS pixel at a latitude and zoom of Leaflet's 256 px Web Mercator tiles. */
export function metresPerPixel(lat: number, zoom: number): number {
  return (EQUATOR_M * Math.cos((lat * Math.PI) / 180)) / 2 ** (zoom + 8);
}

/** An accuracy circle's radius on screen, in CSS pixels. */
export const circleRadiusPx = (accuracyM: number, lat: number, zoom: number): number =>
  accuracyM / metresPerPixel(lat, zoom);

/**
 * Whether a load's accuracy circle is drawn: always for the selected load (where it is, as sure as
 * the phone was), for another where it reaches past the marker at this zoom, so an unsure fix shows
 * its circle from much further out than a sure one.
 */
export function showsCircle(accuracyM: number | null, lat: number, zoom: number, selected: boolean): boolean {
  if (accuracyM === null || !(accuracyM > 0)) return false;
  return selected || circleRadiusPx(accuracyM, lat, zoom) >= MIN_CIRCLE_RADIUS_PX;
}
