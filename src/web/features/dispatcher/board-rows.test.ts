import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Load, TemperatureReading } from '@/domain/model';
import { emptyLoad, testTime } from '@/testing/loads';
import { isExcursion } from '@/domain/temperature';
import { attentionAt, urgencyRank } from '@/domain/attention';
import type { Staleness } from '@/domain/staleness';
import { STATUS_PHASES, statusPhase } from '@/domain/status-phase';
import { compareLabels, compareText } from '../../lib/collate';
import {
  boardTally,
  placeText,
  countByStatus,
  filterRows,
  labelNumber,
  NO_FILTER,
  boardRows,
  rowSorter,
  toRow,
  type BoardRow,
  type SortKey,
} from './board-rows';

const NOW = Date.parse('2026-11-22T15:00:00Z');
const T = { staleAfterMinutes: 30, silentAfterMinutes: 120 };
const time = testTime();

function load(
  id: string,
  o: {
    minutesAgo?: number;
    status?: string;
    code?: string;
    city?: string;
    reading?: Partial<TemperatureReading>;
  } = {},
): Load {
  const instant = o.minutesAgo === undefined ? undefined : NOW - o.minutesAgo * 60_000;
  return emptyLoad(id, 'external-id', {
    latestLocation:
      instant === undefined
        ? undefined
        : {
            key: 'k',
            instant,
            time,
            lat: 40,
            lon: -90,
            accuracy: 20,
            place: { city: o.city, state: 'IL', country: 'US' },
            driver: { name: 'Ana Smith', phone: '+15550100' },
          },
    latestStatus: o.status
      ? { key: 's', instant: NOW, time, id: undefined, name: o.status, code: o.code, driver: undefined }
      : undefined,
    latestTemperature: o.reading
      ? {
          key: 't',
          instant: NOW,
          time,
          deviceId: 'R',
          supply: undefined,
          return: undefined,
          set: undefined,
          unit: 'F',
          position: undefined,
          ...o.reading,
        }
      : undefined,
  });
}

const rows = (loads: Load[]) => loads.map((l) => toRow(l, NOW, T, 5));

/** A made-up row's attention, as `toRow` judges it from its level and its status. */
const attentionOf = (staleness: string, status: string | undefined) =>
  attentionAt(
    {
      latestStatus:
        status === undefined
          ? undefined
          : { key: 's', instant: 0, time, id: undefined, name: status, code: undefined, driver: undefined },
      latestTemperature: undefined,
    },
    staleness as Staleness,
    5,
  );

/** The board's order of `rows`, sorted from scratch. */
const sortRows = (rows: readonly BoardRow[], by: SortKey) => rowSorter()(rows, by);

describe('board rows', () => {
  it('derive staleness, place, driver, phone and reefer flags from a load', () => {
    const [row] = rows([
      load('1', {
        minutesAgo: 45,
        status: 'In transit',
        city: 'Chicago',
        reading: { supply: 33, return: 36, set: 34 },
      }),
    ]);
    expect(row).toMatchObject({
      staleness: 'stale',
      place: 'Chicago, IL',
      driver: 'Ana Smith',
      phone: '+15550100',
      reefer: true,
      excursion: false,
      code: undefined,
    });
  });

  it('place a load sent without a place name by its coordinates, and only a load with no position nowhere', () => {
    const named = load('1', { minutesAgo: 5 });
    const unnamed: Load = {
      ...named,
      latestLocation: { ...(named.latestLocation as NonNullable<Load['latestLocation']>), place: {} },
    };
    const [row, nowhere] = rows([unnamed, load('2')]);
    expect(row?.place).toBe('40.0000, -90.0000');
    expect(nowhere?.place).toBeUndefined();
  });

  it('flag an excursion when supply or return strays beyond the tolerance', () => {
    const r = (supply: number, ret: number) => ({
      key: 't',
      instant: 0,
      time,
      deviceId: 'R',
      supply,
      return: ret,
      set: 34,
      unit: 'F',
      position: undefined,
    });
    expect(isExcursion(r(33, 38), 5)).toBe(false);
    expect(isExcursion(r(33, 40), 5)).toBe(true);
    expect(isExcursion(r(28, 36), 5)).toBe(true);
    expect(isExcursion({ ...r(50, 50), set: undefined }, 5)).toBe(false);
  });

  it('sort most urgent first: silent, excursion, stale, never reported, fresh, finished; oldest ping first within a level', () => {
    const sorted = sortRows(
      rows([
        load('fresh', { minutesAgo: 2 }),
        load('never'),
        load('stale', { minutesAgo: 40 }),
        load('silent', { minutesAgo: 500 }),
        load('silent2', { minutesAgo: 130 }),
        // Delivered long ago: at the very end, however old its last ping.
        load('delivered', { minutesAgo: 3000, status: 'Delivered', code: 'DLV' }),
        load('cancelled', { minutesAgo: 900, status: 'Cancelled' }),
        // A reefer out of its set point, its phone reporting: before the stale phones.
        load('warm', { minutesAgo: 3, reading: { supply: 34, return: 47, set: 34 } }),
      ]),
      'staleness',
    );
    expect(sorted.map((r) => r.label)).toEqual([
      'silent',
      'silent2',
      'warm',
      'stale',
      'never',
      'fresh',
      'delivered',
      'cancelled',
    ]);
  });

  it('sort by status and by id, numbers in numeric order', () => {
    // Data for which the two sorts disagree, and in which a text order of the ids ("10" < "100" < "20"
    // < "9") would differ from the numeric one.
    const list = rows([
      load('10', { status: 'Loaded' }),
      load('9', { status: 'Delivered' }),
      load('100', { status: 'Delivered' }),
      load('20'),
    ]);
    expect(sortRows(list, 'id').map((r) => r.label)).toEqual(['9', '10', '20', '100']);
    // By status in trip order (loaded before delivered, not D before L); a load without a status
    // last; ties by id, numbers by value.
    expect(sortRows(list, 'status').map((r) => r.label)).toEqual(['10', '9', '100', '20']);
  });

  it('sorts statuses in trip order by their codes, names the phases do not know after them', () => {
    const list = rows([
      load('1', { status: 'Delivered', code: 'DLV' }),
      load('2', { status: 'Zone check', code: undefined }),
      load('3', { status: 'Arrived at delivery', code: 'ADL' }),
      load('4', { status: 'Dispatched', code: 'DSP' }),
      load('5', { status: 'In transit', code: 'ITR' }),
      load('6', { status: 'Arrived at pickup', code: 'APU' }),
      // Its code says pickup (X12 X3), whatever its name says.
      load('7', { status: 'Checkpoint', code: 'X3' }),
      load('8', { status: 'Accepted', code: undefined }),
    ]);
    expect(sortRows(list, 'status').map((r) => r.status)).toEqual([
      'Accepted',
      'Dispatched',
      'Arrived at pickup',
      'Checkpoint',
      'In transit',
      'Arrived at delivery',
      'Delivered',
      'Zone check',
    ]);
  });

  it('filter by text, status, needs attention and reefer only, and count per status', () => {
    const list = rows([
      load('A1', { minutesAgo: 5, status: 'In transit', city: 'Omaha' }),
      load('B2', { minutesAgo: 50, status: 'In transit', city: 'Denver', reading: { set: 0 } }),
      load('C3', { status: 'Dispatched' }),
    ]);
    expect(filterRows(list, { ...NO_FILTER, text: 'omaha' }).map((r) => r.label)).toEqual(['A1']);
    expect(filterRows(list, { ...NO_FILTER, text: '+1555' }).map((r) => r.label)).toEqual(['A1', 'B2']);
    expect(filterRows(list, { ...NO_FILTER, status: 'Dispatched' }).map((r) => r.label)).toEqual(['C3']);
    expect(filterRows(list, { ...NO_FILTER, attentionOnly: true }).map((r) => r.label)).toEqual(['B2']);
    expect(filterRows(list, { ...NO_FILTER, reeferOnly: true }).map((r) => r.label)).toEqual(['B2']);
    // The loads a cluster's late count named, by key; a key no row has finds nothing, an empty set nothing.
    const keys = list.map((r) => r.key);
    const only = (picked: string[]) =>
      filterRows(list, { ...NO_FILTER, only: new Set(picked) }).map((r) => r.label);
    expect(only([keys[2]!, keys[0]!, 'external-id:nowhere'])).toEqual(['A1', 'C3']);
    expect(only([])).toEqual([]);
    expect(countByStatus(list)).toEqual([
      ['In transit', 2],
      ['Dispatched', 1],
    ]);
  });

  it('filter by text without minding accents or case, and by the staleness in words, never across two fields', () => {
    const list = rows([
      load('A1', { minutesAgo: 5, status: 'In transit', city: 'Montréal' }),
      load('B2', { minutesAgo: 50, status: 'In transit', city: 'Montreal' }),
      load('C3', { minutesAgo: 200, status: 'Delivered', city: 'Zürich' }),
      load('D4', { minutesAgo: 200, status: 'In transit', city: 'Zürich' }),
    ]);
    const found = (text: string) => filterRows(list, { ...NO_FILTER, text }).map((r) => r.label);
    expect(found('montreal')).toEqual(['A1', 'B2']);
    expect(found('MONTRÉAL')).toEqual(['A1', 'B2']);
    expect(found('zurich')).toEqual(['C3', 'D4']);
    expect(found('stale')).toEqual(['B2']);
    // A delivered load's quiet phone is no alarm: not "silent", but "finished".
    expect(found('silent')).toEqual(['D4']);
    expect(found('finished')).toEqual(['C3']);
    // "transit" is the status, "IL" the state: a query spanning both finds nothing.
    expect(found('transit montreal')).toEqual([]);
  });

  it('finds a phone however it is written, and a name typed with a doubled space', () => {
    const list = rows([
      load('A1', { minutesAgo: 5, status: 'In transit', city: 'Omaha' }),
      load('C3', { status: 'Dispatched' }),
    ]);
    const found = (text: string) => filterRows(list, { ...NO_FILTER, text }).map((r) => r.label);
    for (const written of ['+15550100', '555-0100', '(555) 0100', '555 0100', '1.555.0100'])
      expect(found(written), written).toEqual(['A1']);
    expect(found('555 0199')).toEqual([]);
    expect(found('ana  smith')).toEqual(['A1']);
    // Across two fields still finds nothing.
    expect(found('smith 555')).toEqual([]);
  });

  it('filter by "No status" to the loads without a status, as countByStatus counts them', () => {
    const list = rows([load('A1', { status: 'In transit' }), load('B2'), load('C3')]);
    expect(countByStatus(list)).toEqual([
      ['No status', 2],
      ['In transit', 1],
    ]);
    expect(filterRows(list, { ...NO_FILTER, status: 'No status' }).map((r) => r.label)).toEqual(['B2', 'C3']);
  });
});

describe('boardRows', () => {
  it('gives the very same row on every tick until the load changes or crosses a staleness threshold', () => {
    const rowsOf = boardRows(T, 2);
    const a = load('a', { minutesAgo: 10 });
    const [first] = rowsOf([a], NOW);
    expect(rowsOf([a], NOW + 5_000)[0]).toBe(first);
    // 21 minutes later the ping is 31 minutes old: stale, a new row saying so.
    const [later] = rowsOf([a], NOW + 21 * 60_000);
    expect(later).not.toBe(first);
    expect(later?.staleness).toBe('stale');
    // Another load object (a refresh brought something) gets its own row.
    const [fresh] = rowsOf([load('a', { minutesAgo: 1 })], NOW);
    expect(fresh).not.toBe(first);
    expect(fresh?.lastPingAt).toBe(NOW - 60_000);
  });

  it('keeps the rows of the loads a change of the watch list shifted to other places', () => {
    const rowsOf = boardRows(T, 2);
    const [a, b, c] = [load('a', { minutesAgo: 10 }), load('b', { minutesAgo: 40 }), load('c')];
    const first = rowsOf([a, b, c], NOW);
    // A load added in front: every other one is one place further down, with its very row.
    const added = rowsOf([load('z', { minutesAgo: 5 }), a, b, c], NOW);
    expect(added.slice(1)).toEqual(first);
    added.slice(1).forEach((row, i) => expect(row).toBe(first[i]));
    // One taken off: the others keep theirs.
    const removed = rowsOf([a, c], NOW);
    expect(removed[0]).toBe(first[0]);
    expect(removed[1]).toBe(first[2]);
    // Shifted and aged past a threshold at once: that load's row says so.
    const aged = rowsOf([load('y'), c, a], NOW + 21 * 60_000);
    expect(aged[2]?.staleness).toBe('stale');
    expect(aged[1]).toBe(first[2]);
  });
});

describe('the board’s order against the plain comparator', () => {
  // The order the board promises, written as plainly as possible; sortRows computes it faster.
  const phaseRank = (r: BoardRow) =>
    r.status === undefined ? Infinity : STATUS_PHASES.indexOf(statusPhase({ name: r.status, code: r.code }));
  const reference = {
    staleness: (a: BoardRow, b: BoardRow) =>
      urgencyRank(a.attention.urgency) - urgencyRank(b.attention.urgency) ||
      (a.lastPingAt ?? Infinity) - (b.lastPingAt ?? Infinity) ||
      compareLabels(a.label, b.label),
    status: (a: BoardRow, b: BoardRow) =>
      phaseRank(a) - phaseRank(b) ||
      compareText(a.status ?? '', b.status ?? '') ||
      compareLabels(a.label, b.label),
    id: (a: BoardRow, b: BoardRow) => compareLabels(a.label, b.label),
  };
  const label = fc.oneof(
    fc.integer({ min: 0, max: 2000 }).map(String),
    fc.constantFrom('007', '7', 'LN-10', 'LN-9', 'ln-9', 'Ärger', 'zeta', '12a', ''),
  );
  const row = fc.record({
    label,
    staleness: fc.constantFrom('fresh', 'stale', 'silent', 'unknown'),
    // Few distinct times, so that ties (and the label tie-break) are common.
    lastPingAt: fc.option(
      fc.integer({ min: 0, max: 5 }).map((n) => NOW - n * 60_000),
      { nil: undefined },
    ),
    status: fc.option(fc.constantFrom('In transit', 'Delivered', 'at pickup', 'Écarté'), { nil: undefined }),
  });

  it.each(['staleness', 'status', 'id'] as const)(
    'orders by %s exactly as the plain comparator does',
    (by) => {
      fc.assert(
        fc.property(fc.array(row, { maxLength: 60 }), (list) => {
          const rows = list.map((r) => ({
            ...r,
            labelNumber: labelNumber(r.label),
            attention: attentionOf(r.staleness, r.status),
          })) as unknown as BoardRow[];
          // Both sorts are stable: rows the comparator calls equal keep their input order in both.
          const view = (r: BoardRow) => [r.staleness, r.lastPingAt, r.status, r.label].join('|');
          expect(sortRows(rows, by).map(view)).toEqual([...rows].sort(reference[by]).map(view));
        }),
      );
    },
  );
});

describe('rowSorter, refresh after refresh', () => {
  const SORTS: SortKey[] = ['staleness', 'status', 'id'];
  const fields = fc.record({
    label: fc.oneof(fc.integer({ min: 0, max: 50 }).map(String), fc.constantFrom('LN-9', 'ln-9', 'zeta')),
    staleness: fc.constantFrom('fresh', 'stale', 'silent', 'unknown'),
    lastPingAt: fc.option(
      fc.integer({ min: 0, max: 5 }).map((n) => NOW - n * 60_000),
      { nil: undefined },
    ),
    status: fc.option(fc.constantFrom('In transit', 'Delivered', 'at pickup'), { nil: undefined }),
  });
  type Fields = {
    label: string;
    staleness: string;
    lastPingAt: number | undefined;
    status: string | undefined;
  };
  const asRow = (key: string, f: Fields) =>
    ({
      ...f,
      key,
      labelNumber: labelNumber(f.label),
      attention: attentionOf(f.staleness, f.status),
    }) as unknown as BoardRow;
  const view = (r: BoardRow) => r.key;

  it('gives the order a sort from scratch gives, whatever each refresh replaced', () => {
    fc.assert(
      fc.property(
        fc.array(fields, { minLength: 1, maxLength: 80 }),
        // Refreshes: per refresh, which places get a row with new values (and what values).
        fc.array(fc.array(fc.tuple(fc.nat(), fields), { maxLength: 12 }), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...SORTS),
        (initial, refreshes, by) => {
          const sorter = rowSorter();
          let rows = initial.map((f, i) => asRow(`e:${i}`, f));
          expect(sorter(rows, by).map(view)).toEqual(sortRows(rows, by).map(view));
          for (const changes of refreshes) {
            rows = rows.slice();
            for (const [at, f] of changes) {
              const i = at % rows.length;
              rows[i] = asRow((rows[i] as BoardRow).key, f);
            }
            expect(sorter(rows, by).map(view)).toEqual(sortRows(rows, by).map(view));
          }
        },
      ),
    );
  });

  it('sorts from scratch when rows moved, came or went, or the sort changed', () => {
    const sorter = rowSorter();
    const rows = [3, 1, 2].map((n) =>
      asRow(`e:${n}`, { label: String(n), staleness: 'fresh', lastPingAt: NOW, status: undefined }),
    );
    expect(sorter(rows, 'id').map(view)).toEqual(['e:1', 'e:2', 'e:3']);
    // The same rows in another order, one more, one fewer, another sort.
    expect(sorter([...rows].reverse(), 'id').map(view)).toEqual(['e:1', 'e:2', 'e:3']);
    const more = [
      ...rows,
      asRow('e:0', { label: '0', staleness: 'silent', lastPingAt: NOW, status: 'In transit' }),
    ];
    expect(sorter(more, 'id').map(view)).toEqual(['e:0', 'e:1', 'e:2', 'e:3']);
    expect(sorter(more.slice(1), 'id').map(view)).toEqual(['e:0', 'e:1', 'e:2']);
    expect(sorter(more, 'staleness').map(view)).toEqual(['e:0', 'e:1', 'e:2', 'e:3']);
    // A status no row had before ranks the statuses anew.
    const withStatus = (r: BoardRow, status: string) =>
      asRow(r.key, { label: r.label, staleness: 'fresh', lastPingAt: NOW, status });
    const statuses = more.map((r) => withStatus(r, r.key === 'e:0' ? 'Arrived' : 'Delivered'));
    expect(sorter(statuses, 'status').map(view)).toEqual(['e:1', 'e:2', 'e:3', 'e:0']);
    const next = statuses.map((r) => (r.key === 'e:3' ? withStatus(r, 'At pickup') : r));
    expect(sorter(next, 'status').map(view)).toEqual(['e:3', 'e:1', 'e:2', 'e:0']);
  });
});

describe('the attention rule on the board (issue 36)', () => {
  const list = rows([
    load('moving', { minutesAgo: 50, status: 'In transit', code: 'ITR' }),
    load('done', { minutesAgo: 50, status: 'Delivered', code: 'DLV' }),
    load('old', { minutesAgo: 600, status: 'Delivered', code: 'DLV' }),
    load('off', { minutesAgo: 600, status: 'Cancelled' }),
    load('warm', { minutesAgo: 2, status: 'In transit', reading: { supply: 30, return: 45, set: 34 } }),
    load('warm-done', { minutesAgo: 2, status: 'Delivered', reading: { supply: 30, return: 45, set: 34 } }),
    load('cool', { minutesAgo: 2, status: 'In transit', reading: { supply: 33, return: 36, set: 34 } }),
  ]);
  const labels = (f: Partial<typeof NO_FILTER>) =>
    filterRows(list, { ...NO_FILTER, ...f }).map((r) => r.label);

  it('leaves delivered and cancelled loads out of "needs attention", and counts them as finished', () => {
    expect(labels({ attentionOnly: true })).toEqual(['moving', 'warm']);
    const tally = boardTally()(list);
    expect(tally.late).toBe(2);
    expect(tally.finished).toBe(4);
  });

  it('hides the finished loads with one filter, and the others stay', () => {
    expect(labels({ hideFinished: true })).toEqual(['moving', 'warm', 'cool']);
    expect(labels({ hideFinished: true, reeferOnly: true })).toEqual(['warm', 'cool']);
  });

  it('finds a reefer in excursion by the word, not a finished one', () => {
    expect(labels({ text: 'excursion' })).toEqual(['warm']);
    expect(labels({ text: 'EXCURSION' })).toEqual(['warm']);
    const warm = list.find((r) => r.label === 'warm');
    expect(warm).toMatchObject({
      excursion: true,
      attention: { reasons: ['excursion'], urgency: 'excursion' },
    });
    expect(list.find((r) => r.label === 'warm-done')).toMatchObject({ excursion: false });
  });
});

describe('boardTally, refresh after refresh', () => {
  const fields = fc.record({
    staleness: fc.constantFrom('fresh', 'stale', 'silent', 'unknown'),
    status: fc.option(fc.constantFrom('In transit', 'Delivered', 'at pickup'), { nil: undefined }),
  });
  const asRow = (key: string, f: { staleness: string; status: string | undefined }) =>
    ({ ...f, key, label: key, attention: attentionOf(f.staleness, f.status) }) as unknown as BoardRow;
  const fromScratch = (rows: readonly BoardRow[]) => ({
    byStatus: countByStatus(rows),
    late: rows.filter(
      (r) => r.status !== 'Delivered' && (r.staleness === 'stale' || r.staleness === 'silent'),
    ).length,
    finished: rows.filter((r) => r.status === 'Delivered').length,
  });

  it('counts what a count from scratch counts, whatever each refresh replaced, added or took away', () => {
    fc.assert(
      fc.property(
        fc.array(fields, { minLength: 1, maxLength: 60 }),
        // Per refresh: places given a row with new values, and sometimes a row more or fewer.
        fc.array(
          fc.record({
            changes: fc.array(fc.tuple(fc.nat(), fields), { maxLength: 10 }),
            resize: fc.constantFrom('none', 'none', 'add', 'drop'),
          }),
          { minLength: 1, maxLength: 5 },
        ),
        (initial, refreshes) => {
          const tally = boardTally();
          let rows = initial.map((f, i) => asRow(`e:${i}`, f));
          expect(tally(rows)).toEqual(fromScratch(rows));
          refreshes.forEach(({ changes, resize }, k) => {
            rows = rows.slice();
            for (const [at, f] of changes) {
              const i = at % rows.length;
              rows[i] = asRow((rows[i] as BoardRow).key, f);
            }
            if (resize === 'add') rows.push(asRow(`e:new${k}`, { staleness: 'stale', status: 'Delivered' }));
            if (resize === 'drop' && rows.length > 1) rows.pop();
            expect(tally(rows)).toEqual(fromScratch(rows));
          });
        },
      ),
    );
  });

  it('keeps the counts per status as one array while they read the same', () => {
    const tally = boardTally();
    const rows = [
      asRow('e:1', { staleness: 'fresh', status: 'In transit' }),
      asRow('e:2', { staleness: 'fresh', status: 'Delivered' }),
    ];
    const first = tally(rows);
    // A refresh that turned a load stale, its status the same: the late count moves, the list stays.
    const next = tally([asRow('e:1', { staleness: 'stale', status: 'In transit' }), rows[1] as BoardRow]);
    expect(next.late).toBe(1);
    expect(next.byStatus).toBe(first.byStatus);
    // A status that changed: a new list.
    const moved = tally([asRow('e:1', { staleness: 'stale', status: 'Delivered' }), rows[1] as BoardRow]);
    expect(moved.byStatus).toEqual([['Delivered', 2]]);
    expect(moved.byStatus).not.toBe(first.byStatus);
  });
});

describe('placeText', () => {
  it('writes city and state, and the country when it is not the US (NL is Newfoundland or Nuevo León)', () => {
    expect(placeText({ city: 'Omaha', state: 'NE', country: 'US' })).toBe('Omaha, NE');
    expect(placeText({ city: 'Omaha', state: 'NE', country: 'United States' })).toBe('Omaha, NE');
    expect(placeText({ city: 'Monterrey', state: 'NL', country: 'MX' })).toBe('Monterrey, NL, MX');
    expect(placeText({ city: "St. John's", state: 'NL', country: 'CA' })).toBe("St. John's, NL, CA");
    expect(placeText({ city: undefined, state: 'NE', country: undefined })).toBe('NE');
    expect(placeText({ city: undefined, state: undefined, country: undefined })).toBeUndefined();
  });
});
