import type { Load } from '@/domain/model';
import { isExcursion } from '@/domain/temperature';
import { staleness, type Staleness, type StalenessThresholds } from '@/domain/staleness';
import { compareLabels, compareText } from '../../lib/collate';
import { loadKey } from '../../lib/load-key';

/** One row of the load board, derived from a Load and the clock. */
export interface BoardRow {
  /** `by:id`, unique across the board. */
  key: string;
  load: Load;
  label: string;
  status: string | undefined;
  code: string | undefined;
  lastPingAt: number | undefined;
  staleness: Staleness;
  place: string | undefined;
  driver: string | undefined;
  phone: string | undefined;
  accuracy: number | null;
  reefer: boolean;
  excursion: boolean;
}

export type SortKey = 'staleness' | 'status' | 'id';

export interface BoardFilter {
  text: string;
  status: string | null;
  staleOnly: boolean;
  reeferOnly: boolean;
}

export const NO_FILTER: BoardFilter = { text: '', status: null, staleOnly: false, reeferOnly: false };

export function toRow(load: Load, now: number, thresholds: StalenessThresholds, tolerance: number): BoardRow {
  const at = load.latestLocation;
  const driver = at?.driver ?? load.latestStatus?.driver;
  return {
    key: loadKey(load),
    load,
    label: load.by === 'load-number' ? (load.loadNumber ?? load.id) : (load.externalId ?? load.id),
    status: load.latestStatus?.name,
    code: load.latestStatus?.code,
    lastPingAt: at?.instant,
    staleness: staleness(at?.instant, now, thresholds),
    place: at ? [at.place.city, at.place.state].filter(Boolean).join(', ') || undefined : undefined,
    driver: driver?.name,
    phone: driver?.phone,
    accuracy: at?.accuracy ?? null,
    reefer: load.latestTemperature !== undefined || load.readings.length > 0,
    excursion: isExcursion(load.latestTemperature, tolerance),
  };
}

/**
 * `toRow` for a clock that ticks: one row per load object and staleness level, so an unchanged load
 * yields the very same row until it crosses a threshold (the age on screen is computed as it renders).
 */
export function rowCache(thresholds: StalenessThresholds, tolerance: number) {
  const rows = new WeakMap<Load, Partial<Record<Staleness, BoardRow>>>();
  return (load: Load, now: number): BoardRow => {
    const level = staleness(load.latestLocation?.instant, now, thresholds);
    let byLevel = rows.get(load);
    if (!byLevel) rows.set(load, (byLevel = {}));
    return (byLevel[level] ??= toRow(load, now, thresholds, tolerance));
  };
}

const STALENESS_ORDER: Record<Staleness, number> = { silent: 0, stale: 1, unknown: 2, fresh: 3 };

/** A label that is a plain number ("700123"): ordered by value, as the numeric collator orders it. */
const DIGITS = /^[0-9]{1,15}$/;

interface Keyed {
  row: BoardRow;
  /** What the sort orders by first, as one number. */
  first: number;
  /** The label's value when it is a plain number, else NaN. */
  number: number;
}

/** Ties of the first key go by label: numbers by value, anything else through the collator. */
function byLabel(a: Keyed, b: Keyed): number {
  return a.number - b.number || compareLabels(a.row.label, b.row.label) || 0;
}

/**
 * Most urgent first: silent, stale, never reported, fresh; within a level the oldest ping first;
 * then by label. Sorting 10,000 rows on every refresh must be cheap: each row's order is reduced to
 * one number first (many rows share a ping time, so the label tie-break runs often, by value when the
 * label is a plain number rather than through the collator).
 */
export function sortRows(rows: BoardRow[], by: SortKey): BoardRow[] {
  let first: (r: BoardRow) => number;
  if (by === 'staleness') {
    // Ping times are epoch ms (about 1.8e12): a level is worth more than any of them.
    first = (r) => STALENESS_ORDER[r.staleness] * 1e13 + (r.lastPingAt ?? 9e12);
  } else if (by === 'status') {
    // The few distinct statuses are ranked once with the collator; no status goes last.
    const names = [...new Set(rows.map((r) => r.status).filter((s) => s !== undefined))].sort(compareText);
    const rank = new Map(names.map((name, i) => [name, i]));
    first = (r) => (r.status === undefined ? names.length : (rank.get(r.status) as number));
  } else first = () => 0;
  const keyed: Keyed[] = rows.map((row) => ({
    row,
    first: first(row),
    number: DIGITS.test(row.label) ? Number(row.label) : NaN,
  }));
  keyed.sort((a, b) => a.first - b.first || byLabel(a, b));
  return keyed.map((k) => k.row);
}

export function filterRows(rows: BoardRow[], f: BoardFilter): BoardRow[] {
  const text = f.text.trim().toLowerCase();
  return rows.filter(
    (r) =>
      (!text ||
        [
          r.label,
          r.load.id,
          r.load.loadNumber,
          r.load.externalId,
          r.status,
          r.code,
          r.place,
          r.driver,
          r.phone,
        ].some((v) => v?.toLowerCase().includes(text))) &&
      (f.status === null || (r.status ?? 'No status') === f.status) &&
      (!f.staleOnly || r.staleness === 'stale' || r.staleness === 'silent') &&
      (!f.reeferOnly || r.reefer),
  );
}

/** How many loads are in each status, most common first ("No status" for loads without one). */
export function countByStatus(rows: BoardRow[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.status ?? 'No status', (counts.get(r.status ?? 'No status') ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]));
}
