import { describe, expect, it } from 'vitest';
import { circleRadiusPx, metresPerPixel, MIN_CIRCLE_RADIUS_PX, showsCircle } from './accuracy-circle';

describe('accuracy circles', () => {
  it("measures metres per pixel as Leaflet's Web Mercator tiles do", () => {
    // 156,543 m a pixel at the equator at zoom 0; half at each zoom in; less by cos(lat) northwards.
    expect(metresPerPixel(0, 0)).toBeCloseTo(156_543.03, 1);
    expect(metresPerPixel(0, 10)).toBeCloseTo(152.87, 2);
    expect(metresPerPixel(60, 10)).toBeCloseTo(76.44, 2);
  });

  it('draws a circle that reaches past its marker, not one that lies under it', () => {
    // ±37 m at 40° N: under a pixel across at zoom 8 (where circles used to start), 10 px at zoom 15.
    expect(circleRadiusPx(37, 40, 8)).toBeLessThan(0.2);
    expect(showsCircle(37, 40, 8, false)).toBe(false);
    expect(showsCircle(37, 40, 14, false)).toBe(false);
    expect(showsCircle(37, 40, 15, false)).toBe(true);
    // An unsure fix, ±1.6 km, means something from much further out.
    expect(showsCircle(1600, 40, 9, false)).toBe(false);
    expect(showsCircle(1600, 40, 10, false)).toBe(true);
    // The threshold itself: drawn at it, not a hair below.
    const at = MIN_CIRCLE_RADIUS_PX * metresPerPixel(40, 12);
    expect(showsCircle(at, 40, 12, false)).toBe(true);
    expect(showsCircle(at * 0.99, 40, 12, false)).toBe(false);
  });

  it("always draws the selected load's circle, and never one without an accuracy", () => {
    expect(showsCircle(5, 40, 4, true)).toBe(true);
    expect(showsCircle(null, 40, 18, true)).toBe(false);
    expect(showsCircle(null, 40, 18, false)).toBe(false);
    // A zero or nonsense accuracy is no circle to draw, even at the deepest zoom.
    expect(showsCircle(0, 40, 18, false)).toBe(false);
    expect(showsCircle(Number.NaN, 40, 18, false)).toBe(false);
  });
});
