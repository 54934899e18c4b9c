import type { Driver, LatestLocation, Load, Place } from '@/domain/model';
import { applyDelta } from '@/domain/merge';
import type { PulledLoads } from './pull-answer';

/**
 * A polled view of many loads, as the last answers left it. Pure: the page keeps it (the queries'
 * data), and so does the pull worker, to send the page only what changed (pull-handler.ts).
 */
export type BoardData = PulledLoads;

/**
 * An answer to a poll with a cursor holds only the loads that changed after it: every other load
 * asked for, and not reported missing, is as it was. They are kept, in their order, with the changed
 * ones in their places. The changed ones carry only new items: `shareBoard`, which every answer goes
 * through (the queries' structuralSharing), merges each into the load it had, once.
 */
export function withUnchanged(previous: BoardData, delta: BoardData, ids: readonly string[]): BoardData {
  const unreadable = delta.unreadable.length > 0 ? delta.unreadable : previous.unreadable;
  // Mostly the changed loads are all known and none went missing: each takes its old place in a copy
  // of the list, and the 9,000 others are not looked at one by one.
  const places = placesOf(previous.loads);
  const inPlace = delta.missing.every((id) => !places.has(id)) && delta.loads.every((l) => places.has(l.id));
  if (inPlace) {
    const loads = previous.loads.slice();
    for (const load of delta.loads) loads[places.get(load.id) as number] = load;
    // The same ids in the same places: the new list shares the old one's index.
    loadPlaces.set(loads, places);
    return { ...delta, loads, unreadable };
  }
  const changed = new Map(delta.loads.map((l) => [l.id, l]));
  const gone = new Set(delta.missing);
  const asked = idSet(ids);
  const loads: Load[] = [];
  for (const before of previous.loads) {
    if (gone.has(before.id) || !asked.has(before.id)) continue;
    loads.push(changed.get(before.id) ?? before);
    changed.delete(before.id);
  }
  loads.push(...changed.values());
  // An unreadable load has no id to keep it by: what the last answer that had any said stands.
  return { ...delta, loads, unreadable };
}

/** Each load's place in a list, by id; made once per list, and handed on to a list patched in place. */
const loadPlaces = new WeakMap<readonly Load[], ReadonlyMap<string, number>>();
function placesOf(loads: readonly Load[]): ReadonlyMap<string, number> {
  let places = loadPlaces.get(loads);
  if (!places) loadPlaces.set(loads, (places = new Map(loads.map((l, i) => [l.id, i]))));
  return places;
}

/** The ids of a watch list as a set, made once per list (every poll of 10,000 loads asks with it). */
const idSets = new WeakMap<readonly string[], ReadonlySet<string>>();
function idSet(ids: readonly string[]): ReadonlySet<string> {
  let set = idSets.get(ids);
  if (!set) idSets.set(ids, (set = new Set(ids)));
  return set;
}

/**
 * Keeps what did not change: a load whose new answer adds nothing stays the very same object (the
 * domain's merge returns it), and so does the list when no load changed. Views that compare by
 * identity (memoized rows, map layers diffing by load) then leave unchanged loads alone.
 */
export function shareBoard(previous: BoardData | undefined, next: BoardData): BoardData {
  if (!previous || previous === next) return next;
  // Loads mostly keep their places (withUnchanged keeps the order): the one at the same place is
  // looked at first, and the map of all only made if a load moved.
  let old: Map<string, Load> | undefined;
  let same = previous.loads.length === next.loads.length;
  // A list the worker's changes made from this very one (withChanges): each load that is not the one
  // at its place was made from it, merged already; nothing to merge again.
  const patched = patchedFrom.get(next.loads) === previous.loads;
  if (patched) same = false;
  const loads = patched
    ? next.loads
    : next.loads.map((load, i) => {
        const there = previous.loads[i];
        if (load === there) return load;
        const before =
          there?.id === load.id
            ? there
            : (old ??= new Map(previous.loads.map((l) => [l.id, l]))).get(load.id);
        const kept = before ? applyDelta(before, load) : load;
        if (kept !== previous.loads[i]) same = false;
        return kept;
      });
  const missingSame =
    previous.missing.length === next.missing.length &&
    previous.missing.every((m, i) => m === next.missing[i]);
  const pendingSame = sameIds(previous.pending, next.pending);
  const unreadableSame =
    previous.unreadable === next.unreadable ||
    (previous.unreadable.length === 0 && next.unreadable.length === 0);
  // Nothing changed: the very same object, or TanStack Query sees new data and renders again (and a
  // disabled query's placeholder, shared through here on every render, would loop). Only a new
  // cursor makes a new object, with the same lists: the next poll must ask from it.
  if (same && missingSame && pendingSame && unreadableSame)
    return previous.cursor === next.cursor ? previous : { ...previous, cursor: next.cursor };
  // The same ids in the same places as the answer's list: the merged list shares its index.
  const places = loadPlaces.get(next.loads);
  if (!same && places) loadPlaces.set(loads, places);
  const shared: BoardData = {
    loads: same ? previous.loads : loads,
    missing: missingSame ? previous.missing : next.missing,
    unreadable: next.unreadable,
    fetchedAt: next.fetchedAt,
    cursor: next.cursor,
  };
  const pending = pendingSame ? previous.pending : next.pending;
  if (pending) shared.pending = pending;
  return shared;
}

/** Whether two lists of ids (absent: none) are alike, in order. */
function sameIds(a: readonly string[] = [], b: readonly string[] = []): boolean {
  return a === b || (a.length === b.length && a.every((id, i) => id === b[i]));
}

/**
 * Each list `withChanges` made, and the list it was made from: one entry per refresh, not one per
 * moved load (a weak entry per load is work for every garbage collection). Held weakly: the list
 * made from is kept no longer than the one made, which the next refresh replaces.
 */
const patchedFrom = new WeakMap<readonly Load[], readonly Load[]>();

/**
 * A moved load's latest location as a change carries it: its place and its driver are null when they
 * are those of the location the load had (a truck moves on with the same driver, mostly within one
 * city), so the page keeps its own objects of them and they do not cross the thread again.
 */
export type LocationChange = Omit<LatestLocation, 'place' | 'driver'> & {
  place: Place | null;
  driver: Driver | undefined | null;
};

/** The fields of a load that are new, its latest location as a `LocationChange`. */
export type LoadFields = Partial<Omit<Load, 'latestLocation'>> & {
  latestLocation?: LocationChange | undefined;
};

/** A load of a view that changed: its place in the list, its id, and the fields that are new. */
export type LoadChange = [place: number, id: string, fields: LoadFields];

const samePlace = (a: Place, b: Place) => a.city === b.city && a.state === b.state && a.country === b.country;
const sameDriver = (a: Driver | undefined, b: Driver | undefined) =>
  a === b || (a !== undefined && b !== undefined && a.name === b.name && a.phone === b.phone);

/** The latest location as a change carries it, against the one the load had. */
function locationChange(before: LatestLocation | undefined, after: LatestLocation | undefined) {
  if (!after || !before) return after;
  return {
    ...after,
    place: samePlace(before.place, after.place) ? null : after.place,
    driver: sameDriver(before.driver, after.driver) ? null : after.driver,
  };
}

/** The latest location a change carries, with the place and driver it left out taken from `before`. */
function locationOf(before: LatestLocation | undefined, change: LocationChange | undefined) {
  if (!change) return change;
  if (change.place !== null && change.driver !== null) return change as LatestLocation;
  // Left out against a location the page does not have: the change does not fit this view.
  if (!before) return null;
  return {
    ...change,
    place: change.place ?? before.place,
    driver: change.driver === null ? before.driver : change.driver,
  };
}

/**
 * What changed from one view to the next, load by load and field by field, when the loads kept their
 * places (a refresh); undefined when the list itself changed (loads came, went or moved).
 */
export function changesFrom(previous: BoardData, next: BoardData): LoadChange[] | undefined {
  if (next.loads === previous.loads) return [];
  if (next.loads.length !== previous.loads.length) return undefined;
  const changes: LoadChange[] = [];
  for (let i = 0; i < next.loads.length; i++) {
    const after = next.loads[i] as Load;
    const before = previous.loads[i] as Load;
    if (after === before) continue;
    if (after.id !== before.id || after.by !== before.by) return undefined;
    const fields: Partial<Record<keyof Load, unknown>> = {};
    for (const k of Object.keys(after) as (keyof Load)[]) if (after[k] !== before[k]) fields[k] = after[k];
    if ('latestLocation' in fields)
      fields.latestLocation = locationChange(before.latestLocation, after.latestLocation);
    changes.push([i, after.id, fields as LoadFields]);
  }
  return changes;
}

/**
 * The next view, made from the previous one and its changes (`changesFrom`): the loads that did not
 * change are the very same objects. Undefined when the changes do not fit the view (a load is not
 * where they say).
 */
export function withChanges(
  previous: BoardData,
  changes: readonly LoadChange[],
  rest: Omit<BoardData, 'loads'>,
): BoardData | undefined {
  const loads = changes.length === 0 ? previous.loads : previous.loads.slice();
  for (const [place, id, fields] of changes) {
    const before = previous.loads[place];
    if (before?.id !== id) return undefined;
    const after: Load = { ...before, ...(fields as Partial<Load>) };
    if ('latestLocation' in fields) {
      const latest = locationOf(before.latestLocation, fields.latestLocation);
      if (latest === null) return undefined;
      after.latestLocation = latest;
    }
    loads[place] = after;
  }
  // The same ids in the same places: the new list shares the old one's index.
  if (loads !== previous.loads) {
    loadPlaces.set(loads, placesOf(previous.loads));
    patchedFrom.set(loads, previous.loads);
  }
  return { ...rest, loads };
}
