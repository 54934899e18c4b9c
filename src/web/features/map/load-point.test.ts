import { describe, expect, it } from 'vitest';
import type { LatestLocation, Load } from '@/domain/model';
import { emptyLoad, testTime } from '@/testing/loads';
import { statusColors } from '../../../../tailwind.config';
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
    const unknown = emptyLoad('LN-9', 'load-number', { latestLocation: at(41, -88, null) });
    expect(pointOf(unknown, 'silent')?.label).toBe('LN-9 · no status · silent · unknown');
  });

  it('gives a load without a position no point', () => {
    expect(pointOf(emptyLoad('2'), 'unknown')).toBeUndefined();
    const load = emptyLoad('1', 'external-id', { latestLocation: at(41, -88, 10) });
    // The next version of the load (a refresh) has the same key, at its new place.
    const moved: Load = { ...load, latestLocation: at(42, -89, 10) };
    expect(pointOf(moved, 'fresh')).toMatchObject({ key: pointOf(load, 'fresh')?.key, lat: 42, lon: -89 });
  });
});
