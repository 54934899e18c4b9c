import { describe, expect, it } from 'vitest';
import type { LatestLocation, Load } from '@/domain/model';
import { emptyLoad, testTime } from '@/testing/loads';
import { phaseColors, statusColors } from '../../../../tailwind.config';
import { pointOf } from './load-point';

const at = (lat: number, lon: number, accuracy: number | null): LatestLocation => ({
  key: `${lat},${lon}`,
  lat,
  lon,
  accuracy,
  instant: 0,
  time: testTime(),
  place: { city: 'Joliet', state: 'IL', country: 'US' },
  driver: undefined,
});

const status = (name: string) => ({
  key: name,
  instant: 0,
  time: testTime(),
  id: '1',
  name,
  code: undefined,
  driver: undefined,
});

describe('pointOf', () => {
  it('marks a load at its latest position, coloured by its level, named in its tooltip as it is', () => {
    const load = emptyLoad('700123', 'external-id', {
      latestLocation: at(41.5, -88.1, 1500),
      latestStatus: status('In transit'),
    });
    const point = pointOf(load, 'stale') as NonNullable<ReturnType<typeof pointOf>>;
    expect(point).toMatchObject({ key: 'external-id:700123', lat: 41.5, lon: -88.1, accuracy: 1500 });
    expect(point.color).toBe(statusColors.stale);
    expect(point.label).toBe('700123 · In transit · stale · ±1.5 km');
    expect(pointOf(load, 'fresh')?.label).toBe('700123 · In transit · reporting · ±1.5 km');
    // Stale and silent loads are late: their clusters' badges count them.
    expect((['fresh', 'stale', 'silent', 'unknown'] as const).map((l) => pointOf(load, l)?.late)).toEqual([
      false,
      true,
      true,
      false,
    ]);
    const unknown = emptyLoad('LN-9', 'load-number', { latestLocation: at(41, -88, null) });
    expect(pointOf(unknown, 'silent')?.label).toBe('LN-9 · no status · silent · unknown');
  });

  it('is coloured by its level and dotted by its status’s phase: two loads alike in one are told apart by the other', () => {
    const load = (name: string | undefined) =>
      emptyLoad('7', 'external-id', {
        latestLocation: at(41.5, -88.1, 20),
        ...(name ? { latestStatus: status(name) } : {}),
      });
    const transit = pointOf(load('In transit'), 'fresh');
    const delivered = pointOf(load('Delivered'), 'fresh');
    expect(transit?.color).toBe(delivered?.color);
    expect(transit?.centre).toBe(phaseColors.transit);
    expect(delivered?.centre).toBe(phaseColors.delivered);
    // The same phase at another level: the dot stays, the colour tells the level.
    const silent = pointOf(load('In transit'), 'silent');
    expect(silent?.centre).toBe(phaseColors.transit);
    expect(silent?.color).toBe(statusColors.silent);
    // A status that says no phase, or none: no dot, no guess.
    expect(pointOf(load('Sent text message to driver'), 'fresh')?.centre).toBeNull();
    expect(pointOf(load(undefined), 'fresh')?.centre).toBeNull();
  });

  it('gives a load without a position no point', () => {
    expect(pointOf(emptyLoad('2'), 'unknown')).toBeUndefined();
    const load = emptyLoad('1', 'external-id', { latestLocation: at(41, -88, 10) });
    // The next version of the load (a refresh) has the same key, at its new place.
    const moved: Load = { ...load, latestLocation: at(42, -89, 10) };
    expect(pointOf(moved, 'fresh')).toMatchObject({ key: pointOf(load, 'fresh')?.key, lat: 42, lon: -89 });
  });
});
