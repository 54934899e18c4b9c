import type { Load, Place } from '@/domain/model';
import { attentionAt, needsAttention, REASON_TEXT, urgencyRank, type Attention } from '@/domain/attention';
import { STATUS_PHASES, statusPhase } from '@/domain/status-phase';
import { loadStaleness, type Staleness, type StalenessThresholds } from '@/domain/staleness';
import { coordinatesText } from '../../lib/format';
import { compareLabels, compareText } from '../../lib/collate';
import { levelCache } from '../../lib/index-cache';
import { loadKey, loadLabel } from '../../lib/load-ref';
import { replacedPlaces } from '../../lib/replaced-places';
import { STALENESS_TEXT } from '../../components/staleness-text';

/** One row of the load board, derived from a Load and the clock. */
export interface BoardRow {
  /** `by:id`, unique across the board. */
  key: string;
  load: Load;
  label: string;
  /** The label's value when it is a plain number ("700123"), else NaN: the sort orders those by value. */
  labelNumber: number;
  status: string | undefined;
  code: string | undefined;
  lastPingAt: number | undefined;
  /** How old its last ping is: said on every row, an alarm only as `attention` says. */
  staleness: Staleness;
  /** Whether it needs attention and why (`domain/attention.ts`): what the board sorts and filters by. */
  attention: Attention;
  place: string | undefined;
  driver: string | undefined;
  phone: string | undefined;
  accuracy: number | null;
  reefer: boolean;
  /** A reefer out of its set point on the road: one of its reasons for attention. */
  excursion: boolean;
}

/** A label that is a plain number ("700123"): ordered by value, as the numeric collator orders it. */
const DIGITS = /^[0-9]{1,15}$/;

/** The label's value when it is a plain number, else NaN (`BoardRow.labelNumber`). */
export const labelNumber = (label: string): number => (DIGITS.test(label) ? Number(label) : NaN);

/** Most urgent first; by status in trip order; by id. */
export type SortKey = 'staleness' | 'status' | 'id';

export interface BoardFilter {
  text: string;
  status: string | null;
  /** Only the loads that need attention (silent, excursion, stale). */
  attentionOnly: boolean;
  reeferOnly: boolean;
  /** Leave out the finished loads (delivered or cancelled). */
  hideFinished: boolean;
  /** Only these loads, by key (those a cluster's late count named on the map); null: any. */
  only: ReadonlySet<string> | null;
}

export const NO_FILTER: BoardFilter = {
  text: '',
  status: null,
  attentionOnly: false,
  reeferOnly: false,
  hideFinished: false,
  only: null,
};

/**
 * "City, State" of a place, with its country when it is not the US ("Monterrey, NL, MX": NL and BC
 * are a Canadian province and a Mexican state both), written once per place object: a load that
 * moved within its city keeps its place object (the pull worker's changes leave it out), and its row
 * its text.
 */
const placeTexts = new WeakMap<Place, string | undefined>();
export function placeText(place: Place): string | undefined {
  if (placeTexts.has(place)) return placeTexts.get(place);
  const country = place.country?.trim();
  const abroad = country && !/^(US|USA|United States)$/i.test(country) ? country : undefined;
  const text = [place.city, place.state, abroad].filter(Boolean).join(', ') || undefined;
  placeTexts.set(place, text);
  return text;
}

export function toRow(
  load: Load,
  now: number,
  thresholds: StalenessThresholds,
  tolerance: number,
  level = loadStaleness(load, now, thresholds),
): BoardRow {
  const at = load.latestLocation;
  const driver = at?.driver ?? load.latestStatus?.driver;
  const label = loadLabel(load);
  const attention = attentionAt(load, level, tolerance);
  return {
    key: loadKey(load),
    load,
    label,
    labelNumber: labelNumber(label),
    status: load.latestStatus?.name,
    code: load.latestStatus?.code,
    lastPingAt: at?.instant,
    staleness: level,
    attention,
    // A position without a place name still places the load: its coordinates, not "no position".
    place: at ? (placeText(at.place) ?? coordinatesText(at)) : undefined,
    driver: driver?.name,
    phone: driver?.phone,
    accuracy: at?.accuracy ?? null,
    reefer: load.latestTemperature !== undefined || load.readings.length > 0,
    excursion: attention.reasons.includes('excursion'),
  };
}

/**
 * The board's rows of a list of loads, for a clock that ticks: an unchanged load keeps the very same
 * row until it crosses a staleness threshold (the age on screen is computed as it renders), and a
 * refresh builds rows only for the loads it replaced (`levelCache`).
 */
export function boardRows(
  thresholds: StalenessThresholds,
  tolerance: number,
): (loads: readonly Load[], now: number) => BoardRow[] {
  return levelCache(
    (load: Load, now: number) => loadStaleness(load, now, thresholds),
    // The level judged once, by the cache: the row takes it as given. Its attention follows from
    // the level and the load (status, temperature), so a row kept by the cache keeps it true too.
    (load, level, now) => toRow(load, now, thresholds, tolerance, level),
  );
}

/** Ties of the first key go by label: numbers by value, anything else through the collator. */
function byLabel(a: BoardRow, b: BoardRow): number {
  return a.labelNumber - b.labelNumber || compareLabels(a.label, b.label) || 0;
}

/**
 * What a sort orders by first, per row, as one number; and a text that changes when that number
 * would mean something else (the statuses' ranks when a new status appears).
 */
function firstKey(rows: readonly BoardRow[], by: SortKey): { of: (r: BoardRow) => number; scheme: string } {
  if (by === 'staleness') {
    // Ping times are epoch ms (about 1.8e12): a level is worth more than any of them.
    return { of: (r) => urgencyRank(r.attention.urgency) * 1e13 + (r.lastPingAt ?? 9e12), scheme: by };
  }
  if (by === 'status') {
    // The few distinct statuses are ranked once: in trip order (created, at pickup, in transit, at
    // delivery, delivered, then what says neither), and by the collator within a phase; no status
    // goes last. A status's phase is read from the first row that carries its name (and code).
    const phaseOf = new Map<string, number>();
    for (const r of rows)
      if (r.status !== undefined && !phaseOf.has(r.status))
        phaseOf.set(r.status, STATUS_PHASES.indexOf(statusPhase({ name: r.status, code: r.code })));
    const names = [...phaseOf.keys()].sort(
      (a, b) => (phaseOf.get(a) as number) - (phaseOf.get(b) as number) || compareText(a, b),
    );
    const rank = new Map(names.map((name, i) => [name, i]));
    return {
      of: (r) => (r.status === undefined ? names.length : (rank.get(r.status) as number)),
      scheme: `${by}:${names.join('\u0000')}`,
    };
  }
  return { of: () => 0, scheme: by };
}

/**
 * Most urgent first (`URGENCY_ORDER`: silent, excursion, stale, never reported, reporting, finished);
 * within a level the oldest ping first;
 * then by label (numbers by value, worked out once per row in `toRow`); rows still equal keep their
 * order in the list. A function that sorts the board again and again: when the rows come with every
 * load in its place and a few of them replaced (a refresh), the others keep their order from the last
 * sort, only the replaced ones are sorted, and the two are merged: far fewer comparisons than
 * sorting the whole board again.
 */
export function rowSorter(): (rows: readonly BoardRow[], by: SortKey) => BoardRow[] {
  let last: Sorted | undefined;
  return (rows, by) => {
    if (last && rows === last.rows && by === last.by) return last.sorted;
    const first = firstKey(rows, by);
    // A refresh: the rows it replaced in their places, whose first keys alone are worked out again.
    const replaced =
      last?.scheme === first.scheme ? replacedPlaces(last.rows, rows, (r) => r.key) : undefined;
    let keys: Float64Array;
    if (last && replaced) {
      keys = last.keys.slice();
      for (const i of replaced) keys[i] = first.of(rows[i] as BoardRow);
    } else {
      keys = new Float64Array(rows.length);
      rows.forEach((r, i) => (keys[i] = first.of(r)));
    }
    const compare = (i: number, j: number) =>
      (keys[i] as number) - (keys[j] as number) || byLabel(rows[i] as BoardRow, rows[j] as BoardRow) || i - j;
    const order =
      (last && replaced && replaced.length * 4 <= rows.length && mergeIn(last.order, replaced, compare)) ||
      fullSort(rows.length, compare);
    const sorted = order.map((i) => rows[i] as BoardRow);
    last = { rows, by, scheme: first.scheme, keys, order, sorted };
    return sorted;
  };
}

/** A sort as `rowSorter` keeps it for the next: each row's first key, the order, the rows in it. */
interface Sorted {
  rows: readonly BoardRow[];
  by: SortKey;
  scheme: string;
  keys: Float64Array;
  order: number[];
  sorted: BoardRow[];
}

function fullSort(n: number, compare: (i: number, j: number) => number): number[] {
  return Array.from({ length: n }, (_, i) => i).sort(compare);
}

/** The last order with the replaced rows taken out, sorted apart and merged in. */
function mergeIn(
  lastOrder: readonly number[],
  replaced: number[],
  compare: (i: number, j: number) => number,
) {
  const isReplaced = new Uint8Array(lastOrder.length);
  for (const i of replaced) isReplaced[i] = 1;
  const fresh = replaced.slice().sort(compare);
  const order: number[] = [];
  let f = 0;
  for (const i of lastOrder) {
    if (isReplaced[i]) continue;
    while (f < fresh.length && compare(fresh[f] as number, i) < 0) order.push(fresh[f++] as number);
    order.push(i);
  }
  while (f < fresh.length) order.push(fresh[f++] as number);
  return order;
}

/** Text as the filter compares it: lower case, accents dropped ("Montréal" is found by "montreal"). */
export const foldText = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * What the text filter searches in a row: its ids, status and code, place, driver and phone, and why
 * it needs attention in words ("silent", "excursion", "stale"; else "reporting", "no ping yet" or
 * "finished"), one field a line so that no query matches across two.
 * Made the first time a text filter looks at the row, and kept with it (a row is replaced when its
 * load or its level changes).
 */
const searchTexts = new WeakMap<BoardRow, string>();
function searchTextOf(r: BoardRow): string {
  let text = searchTexts.get(r);
  if (text === undefined) {
    const fields = [
      r.label,
      r.load.id,
      r.load.loadNumber,
      r.load.externalId,
      r.status,
      r.code,
      r.place,
      r.driver,
      r.phone,
      // "(245) 555-4521" and "245 555 4521" find "+12455554521": compared digit for digit.
      r.phone?.replace(/\D/g, ''),
      ...attentionWords(r),
    ];
    text = foldText(
      fields
        .filter((f) => f !== undefined && f !== null)
        .map((f) => f.replace(/\s+/g, ' '))
        .join('\n'),
    );
    searchTexts.set(r, text);
  }
  return text;
}

/** A row's attention in the filter's words: its reasons, else what it is. */
function attentionWords(r: BoardRow): string[] {
  if (r.attention.finished) return ['Finished'];
  if (needsAttention(r.attention)) return r.attention.reasons.map((reason) => REASON_TEXT[reason]);
  return [STALENESS_TEXT[r.staleness]];
}

/** Nothing filtered: the board shows, and the map draws, every watched load. */
export const isUnfiltered = (f: BoardFilter): boolean =>
  f.text.trim() === '' &&
  f.status === null &&
  !f.attentionOnly &&
  !f.reeferOnly &&
  !f.hideFinished &&
  f.only === null;

/** Digits with a phone number's usual marks between them, and at least four digits. */
const PHONE_LIKE = /^(?=(?:\D*\d){4})[\d\s().+-]+$/;

/** The rows that pass the filter, in their order; the very same list when nothing is filtered. */
export function filterRows(rows: BoardRow[], f: BoardFilter): BoardRow[] {
  if (isUnfiltered(f)) return rows;
  const text = foldText(f.text.trim().replace(/\s+/g, ' '));
  // A query written as a phone number is also looked for as its digits.
  const digits = PHONE_LIKE.test(text) ? text.replace(/\D/g, '') : undefined;
  return rows.filter(
    (r) =>
      (!text ||
        searchTextOf(r).includes(text) ||
        (digits !== undefined && searchTextOf(r).includes(digits))) &&
      (f.status === null || (r.status ?? 'No status') === f.status) &&
      (!f.attentionOnly || needsAttention(r.attention)) &&
      (!f.reeferOnly || r.reefer) &&
      (!f.hideFinished || !r.attention.finished) &&
      (f.only === null || f.only.has(r.key)),
  );
}

const statusName = (r: BoardRow) => r.status ?? 'No status';
const isLate = (r: BoardRow) => (needsAttention(r.attention) ? 1 : 0);
const isFinished = (r: BoardRow) => (r.attention.finished ? 1 : 0);
const ranked = (counts: ReadonlyMap<string, number>): [string, number][] =>
  [...counts].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]));

/** How many loads are in each status, most common first ("No status" for loads without one). */
export function countByStatus(rows: readonly BoardRow[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(statusName(r), (counts.get(statusName(r)) ?? 0) + 1);
  return ranked(counts);
}

/** The board's counts: loads per status (as `countByStatus`), how many need attention, how many are finished. */
export interface BoardTally {
  byStatus: [string, number][];
  late: number;
  finished: number;
}

/**
 * The board's counts of its rows, told again and again: after a refresh that kept every row in its
 * place, from the rows it replaced only (a thousand, not 10,000). The counts per status keep their
 * array while they read the same, so the status chips and the select do not render for nothing.
 */
export function boardTally(): (rows: readonly BoardRow[]) => BoardTally {
  let last: { rows: readonly BoardRow[]; counts: Map<string, number>; tally: BoardTally } | undefined;
  return (rows) => {
    if (last?.rows === rows) return last.tally;
    const replaced = last ? replacedPlaces(last.rows, rows, (r) => r.key) : undefined;
    let counts: Map<string, number>;
    let late: number;
    let finished: number;
    if (last && replaced) {
      counts = new Map(last.counts);
      late = last.tally.late;
      finished = last.tally.finished;
      for (const i of replaced) {
        const was = last.rows[i] as BoardRow;
        const now = rows[i] as BoardRow;
        late += isLate(now) - isLate(was);
        finished += isFinished(now) - isFinished(was);
        if (statusName(was) === statusName(now)) continue;
        counts.set(statusName(was), (counts.get(statusName(was)) ?? 0) - 1);
        counts.set(statusName(now), (counts.get(statusName(now)) ?? 0) + 1);
      }
    } else {
      counts = new Map();
      late = 0;
      finished = 0;
      for (const r of rows) {
        counts.set(statusName(r), (counts.get(statusName(r)) ?? 0) + 1);
        late += isLate(r);
        finished += isFinished(r);
      }
    }
    const byStatus = ranked(counts);
    const kept =
      last &&
      last.tally.byStatus.length === byStatus.length &&
      byStatus.every(
        ([name, n], i) => last?.tally.byStatus[i]?.[0] === name && last.tally.byStatus[i][1] === n,
      );
    const tally = { byStatus: kept && last ? last.tally.byStatus : byStatus, late, finished };
    last = { rows, counts, tally };
    return tally;
  };
}
