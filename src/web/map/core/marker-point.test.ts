import { describe, expect, it } from 'vitest';
import { movesOf, type MarkerPoint } from './marker-point';

describe('movesOf', () => {
  const p = (key: string, lat: number, lon: number, color = 'green'): MarkerPoint => ({
    key,
    lat,
    lon,
    accuracy: null,
    color,
    label: key,
  });
  const a = p('e:1', 41, -90);
  const b = p('e:2', 42, -91);
  const c = p('e:3', 43, -92);

  it('names the places of the points that moved, with their new lon and lat, when all kept their places', () => {
    const moves = movesOf([a, b, c], [a, p('e:2', 42.5, -91.5), p('e:3', 43, -92, 'red')]);
    // The load that only changed colour did not move: the index is not told of it.
    expect(moves && [...moves.places]).toEqual([1]);
    expect(moves && [...moves.coords]).toEqual([-91.5, 42.5]);
    expect(movesOf([a, b], [a, b])).toEqual({
      places: new Uint32Array(0),
      coords: new Float64Array(0),
      late: new Uint8Array(0),
    });
  });

  it('names a load that turned late or back, where it is, with its flag', () => {
    const late = { ...p('e:3', 43, -92, 'red'), late: true };
    const moves = movesOf([a, b, c], [a, b, late]);
    expect(moves && [...moves.places]).toEqual([2]);
    expect(moves && [...moves.coords]).toEqual([-92, 43]);
    expect(moves && [...moves.late]).toEqual([1]);
    const back = movesOf([a, b, late], [a, b, c]);
    expect(back && [...back.late]).toEqual([0]);
  });

  it('is undefined when the list changed: a load came, went or took another place', () => {
    expect(movesOf([a, b], [a, b, c])).toBeUndefined();
    expect(movesOf([a, b, c], [a, c])).toBeUndefined();
    expect(movesOf([a, b, c], [a, c, b])).toBeUndefined();
  });
});
