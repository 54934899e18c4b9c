import { sql, type Kysely, type Transaction } from 'kysely';
import type { ParseIssue } from '@/contract/parse-issue';
import { applyDelta, mergeItems, sortByInstant } from '@/domain/merge';
import type { Load, LoadBy } from '@/domain/model';
import { checkFence, type Fence } from '../puller/lease';
import type { Database } from '../store/database';

/**
 * Tracks in PostgreSQL: every item of a load stored by its identity (the key the merge uses), with
 * the merge's own rules, so that storing a delta twice or out of order changes nothing; every
 * change stamped with a global sequence, so that a browser's cursor is valid on any instance and
 * after any restart.
 *
 * - A load's head (everything but its item lists) is one row, merged with `applyDelta`; each item
 *   one row by (load, list, key), of two versions the one `mergeItems` keeps.
 * - A write takes its stamp by updating `track_clock`'s one row: writers take turns there, so stamps
 *   are committed in order, and a reader who read the clock at S sees every change up to S.
 * - Reads: a load in full (`readLoad`), or what changed after a cursor (`changesSince`), as the
 *   in-memory track cache serves them: the loads that changed, each with its items stamped after
 *   the cursor plus its head (latest location, status, temperature).
 */

export type List = 'pings' | 'events' | 'comments' | 'documents' | 'readings';
export const LISTS: readonly List[] = ['pings', 'events', 'comments', 'documents', 'readings'];
/** Lists whose key spells out the item's instant (see `sortByInstant`). */
const KEY_HAS_INSTANT: Record<List, boolean> = {
  pings: true,
  events: false,
  comments: true,
  documents: false,
  readings: true,
};

type Item = Load[List][number];
type Head = Omit<Load, List>;

const headOf = (load: Load): Head => {
  const { pings: _p, events: _e, comments: _c, documents: _d, readings: _r, ...head } = load;
  return head;
};
const asLoad = (head: Head): Load => ({
  ...head,
  pings: [],
  events: [],
  comments: [],
  documents: [],
  readings: [],
});

/** A stored version read back: `json` columns come as text or already parsed, by driver. */
const parsed = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

const loadKey = (by: LoadBy, id: string) => `${by}\u0000${id}`;

/** An item of an answer as it is stored: its list and key, its JSON text and its instant. */
interface GivenItem {
  list: List;
  key: string;
  text: string;
  instant: number | null;
}

/** An instant as it reads back from JSON (no -0, no NaN or infinity). */
const storedInstant = (instant: number | null | undefined): number | null =>
  typeof instant === 'number' && Number.isFinite(instant) ? instant + 0 : null;

/**
 * Many texts as one JSON parameter, unnested with `json_array_elements_text`: the driver writes a
 * long array parameter out element by element, which costs more than the rest of a full pull's write.
 */
const texts = (values: readonly string[]) => JSON.stringify(values);
/** JSON texts as one JSON array parameter; `json_array_elements` gives each back as it was written. */
const jsonTexts = (values: readonly string[]) => `[${values.join(',')}]`;

const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * What an answer's loads bring, one entry per load: the head and each item as they will be read
 * back (a key without a value is not stored, and the merge would take a version that has one for
 * another than the stored one, changing nothing but the stamp), one version per item key, as the
 * merge would fold them. Each item is written out once; only a load given twice or a list holding
 * one key twice is read back whole, to be folded by the merge.
 */
function foldAnswer(loads: readonly Load[]): { by: LoadBy; id: string; head: Head; items: GivenItem[] }[] {
  const given = new Map<string, Load[]>();
  for (const load of loads) {
    const k = loadKey(load.by, load.id);
    const same = given.get(k);
    if (same) same.push(load);
    else given.set(k, [load]);
  }
  return [...given.values()].map((same) => {
    const load =
      same.length === 1
        ? (same[0] as Load)
        : same.map(roundTrip).reduce((folded, next) => applyDelta(folded, next));
    const items: GivenItem[] = [];
    for (const list of LISTS) {
      let listed = load[list] as Item[];
      const keys = new Set<string>();
      for (const item of listed) keys.add(item.key);
      // One version per key, the one the merge keeps (the upstream may send an item again).
      if (keys.size < listed.length) listed = sortByInstant(listed.map(roundTrip), KEY_HAS_INSTANT[list]);
      for (const item of listed)
        items.push({ list, key: item.key, text: JSON.stringify(item), instant: storedInstant(item.instant) });
    }
    return { by: load.by, id: load.id, head: roundTrip(headOf(load)), items };
  });
}

export interface StoredDeltas {
  /** The stamp of this write. */
  seq: number;
  /** Loads whose head, items, notes or missing state changed, in the order given. */
  changed: { by: LoadBy; id: string }[];
}

/** What else an answer says besides its loads. */
export interface AnswerNotes {
  /** Notes of loads in the answer, as they stand now: they replace the stored ones. */
  notes?: readonly { by: LoadBy; id: string; notes: readonly ParseIssue[] }[];
  /** Ids a full answer left out: served as missing until they come back. */
  missing?: readonly { by: LoadBy; id: string }[];
}

/**
 * Stores the loads of one answer (a delta or a full pull) in one transaction with one stamp, after
 * checking that `fence` is the current term of the lease (LeaseLostError otherwise, and nothing
 * is written). A load given twice is merged twice, which changes nothing the second time.
 */
export async function storeDeltas(
  db: Kysely<Database>,
  fence: Fence,
  loads: readonly Load[],
  now?: () => number,
  more: AnswerNotes = {},
): Promise<StoredDeltas> {
  return db.transaction().execute(async (trx) => {
    await checkFence(trx, fence, now);
    const clock = await trx
      .updateTable('track_clock')
      .set({ seq: sql`nextval('track_seq')` })
      .where('id', '=', 1)
      .returning('seq')
      .executeTakeFirstOrThrow();
    const seq = Number(clock.seq);

    const loadList = foldAnswer(loads);
    const notesGiven = new Map((more.notes ?? []).map((n) => [loadKey(n.by, n.id), JSON.stringify(n.notes)]));
    const changed: StoredDeltas['changed'] = [];
    if (loadList.length === 0) {
      await storeMissing(trx, seq, more.missing ?? [], changed);
      return notify(trx, seq, changed);
    }

    const heads = await sql<{
      load_by: LoadBy;
      load_id: string;
      head: unknown;
      notes: unknown;
      missing: boolean;
    }>`
      select load_by, load_id, head, notes, missing from track_loads
      where (load_by, load_id) in (select * from unnest(${loadList.map((l) => l.by)}::text[], ${loadList.map((l) => l.id)}::text[]))`.execute(
      trx,
    );
    // A load stored only as missing has the head JSON null: it is new when it comes.
    const headBefore = new Map(
      heads.rows.map((r) => [loadKey(r.load_by, r.load_id), parsed<Head | null>(r.head) ?? undefined]),
    );
    const rowBefore = new Map(heads.rows.map((r) => [loadKey(r.load_by, r.load_id), r]));

    // Only the items of loads with a stored head can be stored (a load's items go with its row),
    // and of those only the ones whose stored text differs from the answer's come back: a full pull
    // of unchanged items reads and parses nothing.
    const probe = { by: [] as string[], id: [] as string[], list: [] as string[], key: [] as string[] };
    const probeText: string[] = [];
    const probed: GivenItem[] = [];
    for (const { by, id, items } of loadList) {
      if (headBefore.get(loadKey(by, id)) === undefined) continue;
      for (const item of items) {
        probe.by.push(by);
        probe.id.push(id);
        probe.list.push(item.list);
        probe.key.push(item.key);
        probeText.push(item.text);
        probed.push(item);
      }
    }
    // Absent (null) or stored with another text, by the item's place in the probe (from 1).
    const storedText = new Map<GivenItem, string | null>();
    if (probed.length > 0) {
      const rows = await sql<{ n: number; item: string | null }>`
        select w.n::int as n, t.item::text as item
        from rows from (
          json_array_elements_text(${texts(probe.by)}::json), json_array_elements_text(${texts(probe.id)}::json),
          json_array_elements_text(${texts(probe.list)}::json), json_array_elements_text(${texts(probe.key)}::json),
          json_array_elements(${jsonTexts(probeText)}::json)) with ordinality as w(b, i, l, k, j, n)
        left join track_items t on t.load_by = w.b and t.load_id = w.i and t.list = w.l and t.key = w.k
        where t.item is null or t.item::text <> w.j::text`.execute(trx);
      for (const r of rows.rows) storedText.set(probed[r.n - 1] as GivenItem, r.item);
    }

    const heads2 = {
      by: [] as string[],
      id: [] as string[],
      head: [] as string[],
      notes: [] as (string | null)[],
      added: [] as number[],
    };
    const items = {
      by: [] as string[],
      id: [] as string[],
      list: [] as string[],
      key: [] as string[],
      instant: [] as (number | null)[],
      item: [] as string[],
    };
    for (const { by, id, head: given, items: givenItems } of loadList) {
      const k = loadKey(by, id);
      const before = headBefore.get(k);
      const row = rowBefore.get(k);
      const notes = notesGiven.get(k);
      // `applyDelta` answers its first argument itself when the second brings nothing new.
      const prev = before === undefined ? undefined : asLoad(before);
      const merged = prev === undefined ? asLoad(given) : applyDelta(prev, asLoad(given));
      const head = headOf(merged);
      // Back from missing counts as a change: a browser dropped the load when it was reported missing.
      let loadChanged =
        merged !== prev ||
        row?.missing === true ||
        (notes !== undefined &&
          notes !== (row?.notes == null ? undefined : JSON.stringify(parsed(row.notes))));
      // Items not held before: the load's kept count grows by them.
      let added = 0;
      for (const item of givenItems) {
        let text = item.text;
        let instant = item.instant;
        if (before === undefined) added++;
        else {
          const stored = storedText.get(item);
          // Stored with the very same text: the merge would keep the stored version.
          if (stored === undefined) continue;
          if (stored === null) added++;
          else {
            const old = JSON.parse(stored) as Item;
            const kept = mergeItems([old], [JSON.parse(text) as Item]);
            if (kept.length === 1 && kept[0] === old) continue;
            text = JSON.stringify(kept[0]);
            instant = storedInstant((kept[0] as Item).instant);
          }
        }
        items.by.push(by);
        items.id.push(id);
        items.list.push(item.list);
        items.key.push(item.key);
        items.instant.push(instant);
        items.item.push(text);
        loadChanged = true;
      }
      if (!loadChanged) continue;
      changed.push({ by, id });
      heads2.by.push(by);
      heads2.id.push(id);
      heads2.head.push(JSON.stringify(head));
      heads2.notes.push(notes ?? null);
      heads2.added.push(added);
    }
    if (changed.length > 0)
      await sql`
      insert into track_loads (load_by, load_id, head, changed_seq, notes, missing, changed_at, items)
      select b, i, h, ${seq}, n, false, clock_timestamp(), a
      from unnest(${heads2.by}::text[], ${heads2.id}::text[], ${heads2.head}::json[], ${heads2.notes}::json[], ${heads2.added}::bigint[]) as t(b, i, h, n, a)
      on conflict (load_by, load_id) do update set head = excluded.head, changed_seq = excluded.changed_seq,
        notes = coalesce(excluded.notes, track_loads.notes), missing = false, changed_at = excluded.changed_at,
        items = track_loads.items + excluded.items`.execute(trx);
    if (items.key.length > 0)
      await sql`
        insert into track_items (load_by, load_id, list, key, instant, item, seq)
        select b, i, l, k, t::float8, j, ${seq} from rows from (
          json_array_elements_text(${texts(items.by)}::json), json_array_elements_text(${texts(items.id)}::json),
          json_array_elements_text(${texts(items.list)}::json), json_array_elements_text(${texts(items.key)}::json),
          json_array_elements_text(${JSON.stringify(items.instant)}::json),
          json_array_elements(${jsonTexts(items.item)}::json)) as t(b, i, l, k, t, j)
        on conflict (load_by, load_id, list, key) do update
          set instant = excluded.instant, item = excluded.item, seq = excluded.seq`.execute(trx);
    await storeMissing(trx, seq, more.missing ?? [], changed);
    return notify(trx, seq, changed);
  });
}

/** Marks loads missing (a row with the JSON null head when the store has none), stamped when newly so. */
async function storeMissing(
  trx: Transaction<Database>,
  seq: number,
  missing: readonly { by: LoadBy; id: string }[],
  changed: StoredDeltas['changed'],
): Promise<void> {
  if (missing.length === 0) return;
  const marked = await sql<{ load_by: LoadBy; load_id: string }>`
    insert into track_loads (load_by, load_id, head, changed_seq, missing)
    select b, i, 'null'::json, ${seq}, true from unnest(${missing.map((m) => m.by)}::text[], ${missing.map((m) => m.id)}::text[]) as t(b, i)
    on conflict (load_by, load_id) do update
      set missing = true, changed_seq = excluded.changed_seq, changed_at = clock_timestamp()
      where not track_loads.missing
    returning load_by, load_id`.execute(trx);
  for (const r of marked.rows) changed.push({ by: r.load_by, id: r.load_id });
}

async function notify(trx: Transaction<Database>, seq: number, changed: StoredDeltas['changed']) {
  // Told to every instance at commit (LISTEN haulview_tracks): the stream sends what changed.
  if (changed.length > 0) await sql`select pg_notify('haulview_tracks', ${String(seq)})`.execute(trx);
  return { seq, changed };
}

interface ItemRow {
  load_id: string;
  list: List;
  item: unknown;
}

function assemble(head: Head, rows: ItemRow[]): Load {
  const load = asLoad(head);
  const lists: Record<List, Item[]> = { pings: [], events: [], comments: [], documents: [], readings: [] };
  for (const r of rows) lists[r.list].push(parsed<Item>(r.item));
  // In the merge's order (instant, then key as JavaScript compares strings), not a collation's.
  for (const list of LISTS)
    (load as Record<List, Item[]>)[list] = sortByInstant(lists[list], KEY_HAS_INSTANT[list]);
  return load;
}

/** A load's whole track as the domain knows it, or undefined when the store holds none. */
export async function readLoad(db: Kysely<Database>, by: LoadBy, id: string): Promise<Load | undefined> {
  const row = await db
    .selectFrom('track_loads')
    .select('head')
    .where('load_by', '=', by)
    .where('load_id', '=', id)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const items = await db
    .selectFrom('track_items')
    .select(['load_id', 'list', 'item'])
    .where('load_by', '=', by)
    .where('load_id', '=', id)
    .orderBy('instant')
    .execute();
  return assemble(parsed<Head>(row.head), items);
}

export interface Changes {
  /** Where the next read starts: valid on any instance sharing the store, and after restarts. */
  cursor: string;
  /** The loads that changed after the cursor asked with, each with only its items stamped after it. */
  loads: Load[];
  /** Each changed load's notes, by id (none stored: absent). */
  notes: Map<string, ParseIssue[]>;
  /** Ids the service's last full answer left out (every time: a browser drops them). */
  missing: string[];
  /** Ids the store holds nothing for yet: pending their first pull. */
  unknown: string[];
  /**
   * The changed loads in the request's order, each with the stamp of its last change; those the
   * caller said it holds (`reuse`) are `reused`, read without their items and not in `loads`.
   */
  changed: { id: string; seq: number; reused: boolean }[];
}

/**
 * The stamp a cursor names: 0 (everything) for none, one of another store (a restored copy, a new
 * database), one from the future or an unreadable one.
 */
function parseCursor(cursor: string | undefined, storeId: string, clock: number): number {
  if (cursor === undefined) return 0;
  const dot = cursor.lastIndexOf('.');
  if (cursor.slice(0, dot) !== storeId) return 0;
  const text = cursor.slice(dot + 1);
  const n = Number(text);
  return /^\d{1,15}$/.test(text) && n <= clock ? n : 0;
}

/**
 * What changed in `ids` after `since` (a cursor of this store; everything without one), with only the
 * item lists in `lists` (all by default): a board asks for none.
 */
export async function changesSince(
  db: Kysely<Database>,
  by: LoadBy,
  ids: readonly string[],
  since: string | undefined,
  lists: readonly List[] = LISTS,
  /**
   * For an answer with everything (no cursor): whether the caller holds this load's answer as of
   * its last change (this store's stamp), so its items need not be read.
   */
  reuse?: (id: string, seq: number, storeId: string) => boolean,
): Promise<Changes> {
  // The clock first: everything stamped up to it is committed, so nothing is skipped. What a write
  // commits meanwhile may come now and again after the cursor: twice at most, never lost.
  const clock = await db.selectFrom('track_clock').select(['seq', 'store_id']).executeTakeFirstOrThrow();
  const cursor = `${clock.store_id}.${clock.seq}`;
  const from = parseCursor(since, clock.store_id, Number(clock.seq));
  const unique = [...new Set(ids)];
  const none = { cursor, loads: [], notes: new Map(), missing: [], unknown: [], changed: [] };
  if (unique.length === 0) return none;
  const heads = await db
    .selectFrom('track_loads')
    .select([
      'load_id',
      'missing',
      'changed_seq',
      sql<unknown>`case when changed_seq > ${from} and not missing then head end`.as('head'),
      sql<unknown>`case when changed_seq > ${from} then notes end`.as('notes'),
    ])
    .where('load_by', '=', by)
    .where('load_id', '=', (eb) => eb.fn.any(eb.val(unique)))
    .execute();
  const known = new Set(heads.map((h) => h.load_id));
  const order = new Map(unique.map((id, i) => [id, i]));
  const changed = heads
    .filter((h) => h.head !== null)
    .sort((a, b) => (order.get(a.load_id) ?? 0) - (order.get(b.load_id) ?? 0))
    .map((h) => {
      const seq = Number(h.changed_seq);
      return {
        head: h,
        id: h.load_id,
        seq,
        reused: from === 0 && reuse?.(h.load_id, seq, clock.store_id) === true,
      };
    });
  const changedHeads = changed.filter((c) => !c.reused).map((c) => c.head);
  const items =
    changedHeads.length === 0 || lists.length === 0
      ? []
      : await db
          .selectFrom('track_items')
          .select(['load_id', 'list', 'item'])
          .where('load_by', '=', by)
          .where('load_id', '=', (eb) => eb.fn.any(eb.val(changedHeads.map((h) => h.load_id))))
          .where('seq', '>', String(from))
          .$if(lists.length < LISTS.length, (q) => q.where('list', 'in', lists))
          .orderBy('load_id')
          .orderBy('instant')
          .execute();
  const byLoad = new Map<string, ItemRow[]>();
  for (const r of items) {
    let rows = byLoad.get(r.load_id);
    if (!rows) byLoad.set(r.load_id, (rows = []));
    rows.push(r);
  }
  const loads = changedHeads.map((h) => assemble(parsed<Head>(h.head), byLoad.get(h.load_id) ?? []));
  const notes = new Map<string, ParseIssue[]>();
  for (const h of changedHeads) if (h.notes !== null) notes.set(h.load_id, parsed<ParseIssue[]>(h.notes));
  return {
    cursor,
    loads,
    notes,
    missing: heads.filter((h) => h.missing).map((h) => h.load_id),
    unknown: unique.filter((id) => !known.has(id)),
    changed: changed.map(({ id, seq, reused }) => ({ id, seq, reused })),
  };
}

/**
 * The loads something watches now that the store holds (not missing), each with the lists in `lists`
 * only: what reports over every watched load (billing's paperwork) read on any instance.
 */
export async function watchedTracks(db: Kysely<Database>, lists: readonly List[]): Promise<Load[]> {
  const heads = await sql<{ load_by: LoadBy; load_id: string; head: unknown }>`
    select t.load_by, t.load_id, t.head from track_loads t
    where not t.missing and exists (
      select 1 from watched_loads w
      where w.load_by = t.load_by and w.load_id = t.load_id and w.expires_at > clock_timestamp())`.execute(
    db,
  );
  if (heads.rows.length === 0) return [];
  const items =
    lists.length === 0
      ? []
      : (
          await sql<ItemRow & { load_by: LoadBy }>`
          select i.load_by, i.load_id, i.list, i.item from track_items i
          join track_loads t using (load_by, load_id)
          where not t.missing and i.list = any(${[...lists]}::text[]) and exists (
            select 1 from watched_loads w
            where w.load_by = t.load_by and w.load_id = t.load_id and w.expires_at > clock_timestamp())
          order by i.instant`.execute(db)
        ).rows;
  const byLoad = new Map<string, ItemRow[]>();
  for (const r of items) {
    const k = loadKey(r.load_by, r.load_id);
    let rows = byLoad.get(k);
    if (!rows) byLoad.set(k, (rows = []));
    rows.push(r);
  }
  return heads.rows.map((h) =>
    assemble(parsed<Head>(h.head), byLoad.get(loadKey(h.load_by, h.load_id)) ?? []),
  );
}

/**
 * How many items the store holds of each of these loads (those it holds anything of): what a full
 * pull of them is expected to bring. Read from the count each write keeps, a few thousand loads a
 * query: counting the items themselves reads every item of every watched load.
 */
export async function storedItemCounts(
  db: Kysely<Database>,
  by: LoadBy,
  ids: readonly string[],
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let from = 0; from < ids.length; from += 5000) {
    const rows = await db
      .selectFrom('track_loads')
      .select(['load_id', 'items'])
      .where('load_by', '=', by)
      .where('load_id', 'in', ids.slice(from, from + 5000))
      .where('items', '>', '0')
      .execute();
    for (const row of rows) counts.set(row.load_id, Number(row.items));
  }
  return counts;
}

/**
 * Loads whose delta this instance took from the service and could not store (its term had ended):
 * written without a fence, so the next leader pulls them in full.
 */
export async function markForResync(db: Kysely<Database>, loads: readonly { by: LoadBy; id: string }[]) {
  if (loads.length === 0) return;
  await db
    .insertInto('track_resync')
    .values(loads.map((l) => ({ load_by: l.by, load_id: l.id })))
    .onConflict((c) => c.doNothing())
    .execute();
}

/** The loads marked for a full pull, taken off the list. */
export async function takeResyncs(db: Kysely<Database>): Promise<{ by: LoadBy; id: string }[]> {
  const rows = await db.deleteFrom('track_resync').returning(['load_by', 'load_id']).execute();
  return rows.map((r) => ({ by: r.load_by, id: r.load_id }));
}

export type WatchReason = 'session' | 'board' | 'share' | 'alert';

/**
 * Registers (or renews) loads that something watches until `until` (a moment, or minutes from the
 * database's clock): a session's board, a saved
 * board, a share link, an alert rule. A renewal never shortens what another watcher of the same
 * reason asked for.
 */
export async function watchLoads(
  db: Kysely<Database>,
  loads: readonly { by: LoadBy; id: string }[],
  why: WatchReason,
  until: Date | { minutes: number },
): Promise<void> {
  if (loads.length === 0) return;
  // From the database's clock, which the puller reads the watches by.
  const expires =
    until instanceof Date ? until : sql<Date>`clock_timestamp() + make_interval(mins => ${until.minutes})`;
  await db
    .insertInto('watched_loads')
    .values(loads.map((l) => ({ load_by: l.by, load_id: l.id, why, expires_at: expires })))
    .onConflict((c) =>
      c.columns(['load_by', 'load_id', 'why']).doUpdateSet({
        expires_at: sql`greatest(watched_loads.expires_at, excluded.expires_at)`,
      }),
    )
    .execute();
}

/**
 * A mark of the watches live at `at` (the database's clock by default), read without their rows: it
 * moves when a watch is added or expires, not when one is renewed. The puller reads the whole list
 * every round only when it moved: reading the whole list every second made most of its garbage at rest.
 */
export async function watchedMark(db: Kysely<Database>, at?: Date): Promise<string> {
  const { rows } = await sql<{ n: string; h: string }>`
    select count(*)::text as n, coalesce(sum(hashtext(load_by || ':' || load_id || ':' || why)), 0)::text as h
    from watched_loads where expires_at > ${at === undefined ? sql`clock_timestamp()` : at}`.execute(db);
  const row = rows[0] as { n: string; h: string };
  return `${row.n}:${row.h}`;
}

/** The loads something still watches at `at` (the database's clock by default), once each. */
export async function liveWatchedLoads(
  db: Kysely<Database>,
  at?: Date,
): Promise<{ by: LoadBy; id: string }[]> {
  const rows = await db
    .selectFrom('watched_loads')
    .select(['load_by', 'load_id'])
    .distinct()
    .where('expires_at', '>', at === undefined ? sql<Date>`clock_timestamp()` : at)
    .orderBy('load_by')
    .orderBy('load_id')
    .execute();
  return rows.map((r) => ({ by: r.load_by, id: r.load_id }));
}
