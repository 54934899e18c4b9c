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

const STALENESS_ORDER: Record<Staleness, number> = { silent: 0, stale: 1, unknown: 2, fresh: 3 };

/** Most urgent first: silent, stale, never reported, fresh; within a level the oldest ping first. */
export function sortRows(rows: BoardRow[], by: SortKey): BoardRow[] {
  const byId = (a: BoardRow, b: BoardRow) => compareLabels(a.label, b.label);
  const compare: Record<SortKey, (a: BoardRow, b: BoardRow) => number> = {
    staleness: (a, b) =>
      STALENESS_ORDER[a.staleness] - STALENESS_ORDER[b.staleness] ||
      (a.lastPingAt ?? Infinity) - (b.lastPingAt ?? Infinity) ||
      byId(a, b),
    status: (a, b) => compareText(a.status ?? '\uffff', b.status ?? '\uffff') || byId(a, b),
    id: byId,
  };
  return [...rows].sort(compare[by]);
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
