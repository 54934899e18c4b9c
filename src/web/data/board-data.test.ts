import { describe, expect, it } from 'vitest';
import type { LatestLocation, Load } from '@/domain/model';
import { emptyLoad, testTime } from '@/testing/loads';
import { changesFrom, shareBoard, withUnchanged, withChanges, type BoardData } from './board-data';

const at = (minute: number, city: string, driver?: string): LatestLocation => ({
  key: `m${minute}`,
  lat: 41 + minute / 100,
  lon: -88,
  accuracy: 10,
  instant: minute * 60_000,
  time: testTime(minute * 60_000),
  place: { city, state: 'IL', country: 'US' },
  driver: driver === undefined ? undefined : { name: driver, phone: '555' },
});

const view = (loads: Load[], cursor: string): BoardData => ({
  loads,
  missing: [],
  unreadable: [],
  fetchedAt: 0,
  cursor,
});

const rest = (v: BoardData) => {
  const { loads: _, ...others } = v;
  return others;
};

describe('changesFrom and withChanges', () => {
  const before = view(
    [
      emptyLoad('1', 'external-id', { latestLocation: at(0, 'Joliet', 'Ann') }),
      emptyLoad('2', 'external-id', { latestLocation: at(0, 'Joliet', 'Bob') }),
      emptyLoad('3', 'external-id', { latestLocation: at(0, 'Joliet') }),
      emptyLoad('4'),
      emptyLoad('5', 'external-id', { latestLocation: at(0, 'Joliet') }),
    ],
    'c.1',
  );
  const [one, two, three, , five] = before.loads as [Load, Load, Load, Load, Load];
  const after = view(
    [
      // Moved within Joliet, same driver; moved to Chicago; another driver; first fix; unchanged.
      { ...one, latestLocation: at(5, 'Joliet', 'Ann') },
      { ...two, latestLocation: at(5, 'Chicago', 'Bob') },
      { ...three, latestLocation: at(5, 'Joliet', 'Cy') },
      emptyLoad('4', 'external-id', { latestLocation: at(5, 'Aurora') }),
      five,
    ],
    'c.2',
  );

  it('carries a moved load’s place and driver only when they changed, and the page’s view comes out alike', () => {
    const changes = changesFrom(before, after);
    expect(changes?.map(([place, id]) => [place, id])).toEqual([
      [0, '1'],
      [1, '2'],
      [2, '3'],
      [3, '4'],
    ]);
    const carried = changes?.map(([, , fields]) => fields.latestLocation);
    expect(
      carried?.map((l) => [l?.place?.city ?? null, l?.driver === null ? null : (l?.driver?.name ?? '-')]),
    ).toEqual([
      [null, null],
      ['Chicago', null],
      [null, 'Cy'],
      ['Aurora', '-'],
    ]);
    // What crosses the thread is copied, as postMessage does.
    const next = withChanges(before, structuredClone(changes ?? []), rest(after));
    expect(next?.loads).toEqual(after.loads);
    // The page keeps its own objects where nothing crossed, and the unchanged load itself.
    expect(next?.loads[0]?.latestLocation?.place).toBe(one.latestLocation?.place);
    expect(next?.loads[0]?.latestLocation?.driver).toBe(one.latestLocation?.driver);
    expect(next?.loads[1]?.latestLocation?.driver).toBe(two.latestLocation?.driver);
    expect(next?.loads[2]?.latestLocation?.place).toBe(three.latestLocation?.place);
    expect(next?.loads[4]).toBe(five);
    expect(next?.cursor).toBe('c.2');
  });

  it('does not fit a view whose load has no location to take the place and driver from', () => {
    const changes = changesFrom(before, after) ?? [];
    const without = view(
      before.loads.map((l) => (l.id === '1' ? { ...l, latestLocation: undefined } : l)),
      'c.1',
    );
    expect(withChanges(without, changes, rest(after))).toBeUndefined();
  });
});

describe('pending ids (not pulled yet by the proxy’s store)', () => {
  it('are what the last answer says, kept through a delta, and gone once the load came', () => {
    const ids = ['1', '2'];
    const first: BoardData = { ...view([emptyLoad('1')], 's.1'), pending: ['2'] };
    // A poll where nothing changed: still pending, and the very same view but for its cursor.
    const quiet = shareBoard(first, withUnchanged(first, { ...view([], 's.2'), pending: ['2'] }, ids));
    expect(quiet.pending).toEqual(['2']);
    expect(quiet.loads).toBe(first.loads);
    expect(quiet.cursor).toBe('s.2');
    // The puller's first pull of load 2 came: it is on the board, and waited for no more.
    const came = shareBoard(quiet, withUnchanged(quiet, view([emptyLoad('2')], 's.3'), ids));
    expect(came.loads.map((l) => l.id)).toEqual(['1', '2']);
    expect(came.pending).toBeUndefined();
    // A load added to the watch list that the store holds nothing of yet: said so, the rest as they were.
    const more = ['1', '2', '3'];
    const added = shareBoard(came, withUnchanged(came, { ...view([], 's.4'), pending: ['3'] }, more));
    expect(added.pending).toEqual(['3']);
    expect(added.loads).toBe(came.loads);
  });
});
