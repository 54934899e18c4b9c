import { sql, type Kysely } from 'kysely';
import { KeptStops } from '@/contract/trip-stops';
import type { LoadBy } from '@/domain/model';
import type { TripStops } from '@/domain/trip-stops';
import type { Database } from '../store/database';

/**
 * `trip_stops`: each trip's stops as last seen while it was current (`domain/trip-stops.ts`), by
 * load and the trip's start, written by whoever merges the service's answers (the track cache in
 * TRACKS=memory, the puller's in TRACKS=store) when they change, and read for an earlier trip's
 * billing, share link and replay. Removed with their load's track (`store/retention.ts`).
 */

/** `trip_from` of a track's first trip begun with no planning status (its `from` is -Infinity). */
export const FIRST_TRIP = -8_640_000_000_000_000;

const columnOf = (from: number) => (from === -Infinity ? FIRST_TRIP : from);
const fromOf = (column: number) => (column <= FIRST_TRIP ? -Infinity : column);

/**
 * Keeps one trip's stops; whether the row changed (the same stops again write nothing, so a
 * restart that reports every load's stops once costs reads, not writes). Stops none of which is
 * reached never replace a trip's whose delivery was reached: those are the next trip's, sent before
 * its planning status, and they are kept under that trip's start once it comes.
 */
export async function keepTripStops(
  db: Kysely<Database>,
  by: LoadBy,
  id: string,
  trip: TripStops,
  now: number,
): Promise<boolean> {
  const { from, ...kept } = trip;
  const stops = JSON.stringify(kept);
  const result = await sql`
    insert into trip_stops (load_by, load_id, trip_from, stops, seen_at)
    values (${by}, ${id}, ${columnOf(from)}, ${stops}::jsonb, ${new Date(now)})
    on conflict (load_by, load_id, trip_from) do update
      set stops = excluded.stops, seen_at = excluded.seen_at
      where trip_stops.stops is distinct from excluded.stops
        and not (
          exists (
            select from jsonb_array_elements(trip_stops.stops -> 'stops') s
            where s ->> 'type' = 'delivery' and s ->> 'progress' <> 'upcoming')
          and not exists (
            select from jsonb_array_elements(excluded.stops -> 'stops') s
            where s ->> 'progress' <> 'upcoming'))`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** Rows of one read: a board's worth of loads at a time keeps each query's parameters few. */
const READ_CHUNK = 1000;

/** These trips' kept stops (by load and trip start), those that were kept. */
export async function keptTripsOf(
  db: Kysely<Database>,
  trips: readonly { by: LoadBy; id: string; from: number }[],
): Promise<(TripStops & { by: LoadBy; id: string })[]> {
  const out: (TripStops & { by: LoadBy; id: string })[] = [];
  for (let i = 0; i < trips.length; i += READ_CHUNK) {
    const part = trips.slice(i, i + READ_CHUNK);
    const rows = await db
      .selectFrom('trip_stops')
      .select(['load_by', 'load_id', 'trip_from', 'stops'])
      .where((eb) =>
        eb(
          eb.refTuple('load_by', 'load_id', 'trip_from'),
          'in',
          part.map((t) => eb.tuple(t.by, t.id, columnOf(t.from))),
        ),
      )
      .execute();
    for (const r of rows) {
      const kept = KeptStops.safeParse(r.stops);
      if (kept.success)
        out.push({ by: r.load_by, id: r.load_id, from: fromOf(Number(r.trip_from)), ...kept.data });
    }
  }
  return out;
}

/** Every trip's kept stops of these loads, oldest trip first per load. */
export async function keptStopsOf(
  db: Kysely<Database>,
  loads: readonly { by: LoadBy; id: string }[],
): Promise<(TripStops & { by: LoadBy; id: string })[]> {
  const out: (TripStops & { by: LoadBy; id: string })[] = [];
  for (const by of ['external-id', 'load-number'] as const) {
    const ids = [...new Set(loads.filter((l) => l.by === by).map((l) => l.id))];
    for (let i = 0; i < ids.length; i += READ_CHUNK) {
      const rows = await db
        .selectFrom('trip_stops')
        .select(['load_id', 'trip_from', 'stops'])
        .where('load_by', '=', by)
        .where('load_id', 'in', ids.slice(i, i + READ_CHUNK))
        .orderBy('load_id')
        .orderBy('trip_from')
        .execute();
      for (const r of rows) {
        // Written by this code, read back strictly: a row that does not read is left out, not served.
        const kept = KeptStops.safeParse(r.stops);
        if (kept.success) out.push({ by, id: r.load_id, from: fromOf(Number(r.trip_from)), ...kept.data });
      }
    }
  }
  return out;
}
