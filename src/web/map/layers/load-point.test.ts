import { describe, expect, it } from 'vitest';
import type { LatestLocation, Load } from '@/domain/model';
import { emptyLoad, testTime } from '@/testing/loads';
import { phaseColors, statusColors } from '../../../../tailwind.config';
import { badgeText } from '../core/cluster-badge';
import { clusterEngine } from '../core/cluster-engine';
import { indexedOf, type MarkerPoint } from '../core/marker-point';
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

const TOLERANCE = 5;

describe('pointOf', () => {
  it('rings a load whose next stop is late in red, at risk in amber, and says both in its tooltip', () => {
    const stop = (status: 'late' | 'at-risk' | 'on-time', lateMinutes: number) => ({
      asOf: 0,
      dark: { reason: 'moving' as const, mph: 55 },
      stops: [
        {
          order: 2,
          type: 'delivery' as const,
          place: {},
          progress: 'upcoming' as const,
          status,
          lateMinutes,
        },
      ],
    });
    const point = (outlook: Load['outlook'], level: 'fresh' | 'silent', name = 'In transit') =>
      pointOf(
        emptyLoad('7', 'external-id', {
          latestLocation: at(41, -88, 10),
          latestStatus: status(name),
          outlook,
        }),
        level,
        TOLERANCE,
      )!;
    const late = point(stop('late', 70), 'silent');
    expect(late.ring).toBe(statusColors.silent);
    expect(late.label).toBe(
      '7 · In transit · silent · Went dark while moving · Delivery: Late 1 h 10 min · ±10 m',
    );
    expect(point(stop('at-risk', -20), 'fresh').ring).toBe(statusColors.stale);
    expect(point(stop('on-time', -200), 'fresh').ring).toBeUndefined();
    // A finished load has no ring, whatever its outlook said.
    expect(point(stop('late', 70), 'fresh', 'Delivered').ring).toBeUndefined();
  });

  it('marks a load at its latest position, coloured by its level, named in its tooltip as it is', () => {
    const load = emptyLoad('700123', 'external-id', {
      latestLocation: at(41.5, -88.1, 1500),
      latestStatus: status('In transit'),
    });
    const point = pointOf(load, 'stale', TOLERANCE) as NonNullable<ReturnType<typeof pointOf>>;
    expect(point).toMatchObject({ key: 'external-id:700123', lat: 41.5, lon: -88.1, accuracy: 1500 });
    expect(point.color).toBe(statusColors.stale);
    expect(point.label).toBe('700123 · In transit · stale · ±1.5 km');
    expect(pointOf(load, 'fresh', TOLERANCE)?.label).toBe('700123 · In transit · reporting · ±1.5 km');
    // Stale and silent loads are late: their clusters' badges count them.
    expect(
      (['fresh', 'stale', 'silent', 'unknown'] as const).map((l) => pointOf(load, l, TOLERANCE)?.late),
    ).toEqual([false, true, true, false]);
    const unknown = emptyLoad('LN-9', 'load-number', { latestLocation: at(41, -88, null) });
    expect(pointOf(unknown, 'silent', TOLERANCE)?.label).toBe('LN-9 · no status · silent · unknown');
  });

  it('is coloured by its level and dotted by its status’s phase: two loads alike in one are told apart by the other', () => {
    const load = (name: string | undefined) =>
      emptyLoad('7', 'external-id', {
        latestLocation: at(41.5, -88.1, 20),
        ...(name ? { latestStatus: status(name) } : {}),
      });
    const transit = pointOf(load('In transit'), 'fresh', TOLERANCE);
    const atDelivery = pointOf(load('Arrived at delivery'), 'fresh', TOLERANCE);
    const delivered = pointOf(load('Delivered'), 'fresh', TOLERANCE);
    expect(transit?.color).toBe(atDelivery?.color);
    expect(atDelivery?.centre).toBe(phaseColors.delivery);
    // A finished load is pale whatever its ping age: it is no alarm.
    expect(delivered?.color).toBe(statusColors.finished);
    expect(transit?.centre).toBe(phaseColors.transit);
    expect(delivered?.centre).toBe(phaseColors.delivered);
    // The same phase at another level: the dot stays, the colour tells the level.
    const silent = pointOf(load('In transit'), 'silent', TOLERANCE);
    expect(silent?.centre).toBe(phaseColors.transit);
    expect(silent?.color).toBe(statusColors.silent);
    // A status that says no phase, or none: no dot, no guess.
    expect(pointOf(load('Sent text message to driver'), 'fresh', TOLERANCE)?.centre).toBeNull();
    expect(pointOf(load(undefined), 'fresh', TOLERANCE)?.centre).toBeNull();
  });

  it('counts a load as late as the attention rule says: never a finished one, a reefer in excursion', () => {
    const delivered = emptyLoad('8', 'external-id', {
      latestLocation: at(41.5, -88.1, 20),
      latestStatus: status('Delivered'),
    });
    const point = pointOf(delivered, 'silent', TOLERANCE);
    expect(point?.late).toBe(false);
    expect(point?.color).toBe(statusColors.finished);
    expect(point?.label).toBe('8 · Delivered · finished · ±20 m');
    const warm = emptyLoad('9', 'external-id', {
      latestLocation: at(41.5, -88.1, 20),
      latestStatus: status('In transit'),
      latestTemperature: {
        key: 't',
        instant: 0,
        time: testTime(),
        deviceId: undefined,
        supply: 34,
        return: 48,
        set: 34,
        unit: 'F',
        position: undefined,
      },
    });
    const excursion = pointOf(warm, 'fresh', TOLERANCE);
    expect(excursion?.late).toBe(true);
    expect(excursion?.color).toBe(statusColors.fresh);
    expect(excursion?.label).toBe('9 · In transit · reporting · excursion · ±20 m');
  });

  it('gives a load without a position no point', () => {
    expect(pointOf(emptyLoad('2'), 'unknown', TOLERANCE)).toBeUndefined();
    const load = emptyLoad('1', 'external-id', { latestLocation: at(41, -88, 10) });
    // The next version of the load (a refresh) has the same key, at its new place.
    const moved: Load = { ...load, latestLocation: at(42, -89, 10) };
    expect(pointOf(moved, 'fresh', TOLERANCE)).toMatchObject({
      key: pointOf(load, 'fresh', TOLERANCE)?.key,
      lat: 42,
      lon: -89,
    });
  });
});

describe('the map’s red counts (issue 36)', () => {
  it('count the loads that need attention, never a finished one, and a reefer in excursion', () => {
    const near = (id: string, name: string, level: 'fresh' | 'stale' | 'silent', warm = false) => {
      const l = emptyLoad(id, 'external-id', {
        latestLocation: at(41.25 + Number(id) / 1000, -95.93, 20),
        latestStatus: status(name),
        latestTemperature: warm
          ? {
              key: 't',
              instant: 0,
              time: testTime(),
              deviceId: undefined,
              supply: 34,
              return: 46,
              set: 34,
              unit: 'F',
              position: undefined,
            }
          : undefined,
      });
      return pointOf(l, level, TOLERANCE) as MarkerPoint;
    };
    // Six loads around Omaha: two on the road need attention (a stale phone, a warm reefer).
    const points = [
      near('1', 'In transit', 'stale'),
      near('2', 'Delivered', 'silent'),
      near('3', 'Delivered', 'stale', true),
      near('4', 'In transit', 'fresh', true),
      near('5', 'Cancelled', 'silent'),
      near('6', 'In transit', 'fresh'),
    ];
    const { coords, late } = indexedOf(points);
    const engine = clusterEngine({ radius: 50, maxZoom: 6 });
    engine.load(coords, late);
    const answer = engine.query([-180, -85, 180, 85], 4);
    // One cluster: [lon, lat, count, id, late].
    expect(answer.clusters[2]).toBe(6);
    expect(answer.clusters[4]).toBe(2);
    expect(badgeText(6, 2)).toBe('6 loads, 2 need attention');
  });
});
