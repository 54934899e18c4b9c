import { randomBytes } from 'node:crypto';
import { dequal } from 'dequal';
import { setImmediate as yieldToOthers } from 'node:timers/promises';
import {
  detailId,
  type KnownDetails,
  type Parsed,
  type PullAnswer,
  type UnreadDetails,
} from '@/contract/parse-pull';
import type { ParseIssue } from '@/contract/parse-issue';
import type { IncludeFlags } from '@/contract/proxy-api';
import type { LoadViewWire } from '@/contract/load-view';
import { applyDelta } from '@/domain/merge';
import type { Load, LoadBy } from '@/domain/model';
import { normalizeLoad } from '@/domain/normalize';
import { tripStart } from '@/domain/geofence';
import {
  boardOutlook,
  DEFAULT_OUTLOOK_OPTIONS,
  withOutlook,
  type OutlookMemo,
  stopsOf,
  type OutlookOptions,
} from '@/domain/outlook';
import { Trail } from '@/domain/trail';
import { tripStopsOf, type TripStops } from '@/domain/trip-stops';
import { jsonPrint } from '@/contract/json-print';
import { ProxyError } from './errors';

/**
 * One merged track per (operation, id), fed by the upstream's pulls and served to every browser.
 *
 * The upstream's `sendNewData: yes` cursor is state on its side: "only what is new since the last
 * request". So the cache alone pulls, always with every include flag on (a board poll that left the
 * pings out would let the cursor pass over pings nobody received), merges each answer with the
 * domain's merge function, and answers each browser from what it holds, filtered to what it asked.
 *
 * - The first pull of a load is `no` (everything); later ones `yes`. Any doubt about a `yes` call
 *   (time-out, reset, 5xx, unreadable body) marks its loads for a full `no` pull next time, and a full
 *   resync runs every `resyncMs` anyway. Nothing the upstream ever returned goes missing.
 * - Requests that arrive together for the same loads share one upstream call; a load refreshed less
 *   than `freshMs` ago is served from the cache.
 * - At most `maxLoads` tracks are kept (least recently used go first); eviction only forgets: the next
 *   request pulls that load in full.
 * - A chunk whose answer is larger than the upstream client reads is pulled again in halves, in
 *   full (a `yes` call that was refused may have moved its cursors), down to one load. A single load
 *   too large may be a passing burst: it is kept as it was and tried again alone at its next
 *   refreshes, served meanwhile with a note that says it is behind (or as `pending` before its first
 *   answer). Refused TOO_LARGE_TRIES times in a row, it is reported once through `onTooLarge`, served
 *   with a skipped `too_large` note and tried again after `resyncMs`: each try reads the whole cap
 *   for nothing.
 * - Every item gets the sequence number of the merge that first brought it. A browser's `since`
 *   cursor (`<process>.<seq>`) gets only items merged after it, and only the loads that changed after
 *   it: a board of 10,000 loads in which 100 moved gets 100 loads back. A load neither in `details`
 *   nor in `missing` is unchanged. A cursor of another process or an unreadable one gets everything.
 */
export interface TrackCacheOptions {
  /**
   * One upstream call. `seen`, when given, is asked about each detail of the answer before it is
   * read (`KnownDetails`): one it recognises is left out of the answer's details.
   */
  pull: (
    by: LoadBy,
    ids: string[],
    sendNewData: 'yes' | 'no',
    seen?: KnownDetails['seen'],
  ) => Promise<Parsed<PullAnswer>>;
  chunkSize: number;
  /**
   * Items (pings, events, comments, documents, readings) one call is expected to bring at most,
   * reckoned per load from what its earlier answers brought: a chunk is cut before it passes this,
   * and an answer is merged and stored this many items at a time. No bound when absent.
   */
  maxItems?: number;
  /**
   * Items written to the store in one go (`persist`), at most: a large answer is stored in parts of
   * this many as it is read, so that each part's loads, texts and parameters are let go while
   * young, not held until the whole answer is written. `maxItems` when absent.
   */
  storeItems?: number;
  /**
   * Bytes the upstream client reads of one answer (UPSTREAM_MAX_BYTES): calls are also cut before
   * their items, at BYTES_PER_ITEM each, would pass it, so that an answer expected to fit is not refused.
   */
  maxBytes?: number;
  /** Upstream calls in flight at once, across all requests. */
  maxInFlight: number;
  /**
   * Full calls (`no`) at once, across all requests, each counted from its call until its answer is
   * read and stored: a full answer is the largest thing a pull holds. `maxInFlight` when absent.
   */
  maxFullInFlight?: number;
  freshMs: number;
  resyncMs: number;
  maxLoads: number;
  /** Issues kept per load for the browser's "skipped" count. */
  maxIssuesPerLoad?: number;
  onAnswer?: (by: LoadBy, answer: Parsed<PullAnswer>) => void;
  /** A single load whose answer alone is larger than the client reads (its note says so too). */
  onTooLarge?: (by: LoadBy, id: string, note: ParseIssue) => void;
  now?: () => number;
  /** How each load's outlook (ETAs, why it is dark) is reckoned; the domain's defaults when absent. */
  outlook?: OutlookOptions;
  /** A load changed: the cursor after which a browser's pull gets it (the live stream's feed). */
  onChange?: (by: LoadBy, id: string, cursor: string) => void;
  /**
   * Stores what one upstream answer brought before its pull counts as done (the puller's write to the
   * track store). When it fails, the answer's loads are pulled in full next time and the error is
   * the pull's: the upstream's cursor moved past what was not stored.
   */
  persist?: (by: LoadBy, answer: PersistedAnswer) => Promise<void>;
  /**
   * Keeps the current trip's stops (`tripStopsOf`), called when they differ from what it last kept
   * for the load, before the pull counts as done: the service sends only the trip under way's. A
   * failure is retried at the load's next change; it never fails the pull.
   */
  keepTripStops?: (by: LoadBy, id: string, trip: TripStops) => Promise<void>;
  /**
   * A load's undocumented fields with the partner's credentials hidden, should the service quote
   * them there: those fields are kept and served as they came.
   */
  hideCredentials?: <T>(value: T) => T;
}

/** One answer as the track store keeps it: each load's new items under its merged head, notes, missing ids. */
export interface PersistedAnswer {
  loads: Load[];
  notes: { by: LoadBy; id: string; notes: ParseIssue[] }[];
  missing: { by: LoadBy; id: string }[];
}

interface Track {
  by: LoadBy;
  id: string;
  /** When it was last asked for (a count of asks): the least recently used go first. */
  usedAt: number;
  load: Load | undefined;
  /** Known to the upstream (answered at least once by a full pull, or ever). */
  known: boolean;
  /** Whether the last full pull left it out. */
  missing: boolean;
  refreshedAt: number;
  lastFullAt: number;
  needsFull: boolean;
  /** Item key → sequence number of the merge that first brought it. */
  seqOf: Map<string, number>;
  /** Sequence number of the last merge that changed the load (its latest location, status…, or items). */
  changedSeq: number;
  /** The puller's: what the outlook reads of the trip's pings, which `load` then leaves out. */
  trail: Trail | undefined;
  /** The print (`jsonPrint`) of the trip's stops last kept (`keepTripStops`); NaN: none yet. */
  keptStops: number;
  /** What the last reckoning of its outlook read, to go on from. */
  outlookMemo: OutlookMemo;
  /** The trail's `rewritten` when the memo last read it. */
  trailRewrites: number;
  /** Items a full pull is expected to bring: its last full answer's, plus what deltas brought since. */
  items: number;
  /** The most items one delta brought since its last full pull: what its next delta is expected to bring. */
  deltaItems: number;
  issues: ParseIssue[];
  /**
   * The print (`jsonPrint`) of its last delta's detail when merging it changed nothing, and that
   * detail's notes: the same detail again is not read nor merged, only counted as answered. At rest
   * most loads answer every refresh with the very same detail (no item, the same head): reading it
   * again would only make garbage.
   */
  quiet: { print: number; notes: readonly ParseIssue[] } | undefined;
  /**
   * Set while its answer alone is too large: the note served with it, when to try again, the
   * refusals in a row, and whether it was reported (after TOO_LARGE_TRIES of them).
   */
  tooLarge: { note: ParseIssue; retryAt: number; tries: number; reported: boolean } | undefined;
  /** The turn of pulls that brings it now. */
  inflight: Turn | undefined;
  /**
   * The served load as JSON bytes for full answers (no `since`), one per set of include flags (at
   * most JSON_KEPT); valid while `load` and `issues` are the very objects they were made from (a
   * merge that brings anything makes a new Load). Many browsers polling the same board share one
   * serialization, and a page's two views of the same loads (the board, and the documents behind the
   * nav's badge) keep one each: with one kept, every page that opens would write all its loads out
   * twice, and that garbage sets off collections of the whole cache.
   */
  json: { load: Load; issues: ParseIssue[]; bytes: Map<string, Buffer> } | undefined;
}

/** Pulls in flight for a list of tracks; a request that wants one of them waits on its own promise. */
interface Turn {
  waiting: Map<Track, { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void }>;
}

/** What a browser asked for: its loads in the proxy's own shape (`LoadView`, contract/load-view.ts). */
export interface ServedTracks {
  cursor: string;
  timeStamp: string | undefined;
  loads: LoadViewWire[];
  missing: string[];
  /** Ids not pulled yet (served from the store, before the puller's first answer for them). */
  pending?: string[];
  upstreamCalls: number;
}

/** As ServedTracks, with each load already serialized (UTF-8 JSON). */
export interface ServedJson extends Omit<ServedTracks, 'loads'> {
  loads: Buffer[];
}

const NO_NOTES: readonly ParseIssue[] = [];

/** Serializations kept per track: the board's, the documents', a load's own page's and its readings'. */
const JSON_KEPT = 4;

const LISTS = ['pings', 'events', 'comments', 'documents', 'readings'] as const;
/** The request's include flag of each item list. */
export const INCLUDE_OF: Record<(typeof LISTS)[number], keyof IncludeFlags> = {
  pings: 'locations',
  events: 'events',
  comments: 'comments',
  documents: 'documents',
  readings: 'temperatures',
};

/** A refresh of more than one chunk starts with calls of at most this many loads, until an answer tells their size. */
const FIRST_CALL_LOADS = 10;

/**
 * Refusals in a row (the first try, then one at each next refresh) before a load too large alone is
 * reported: an answer swollen by a passing burst of pings is not reported.
 */
export const TOO_LARGE_TRIES = 3;

/**
 * What one item (a ping, an event…) is reckoned to weigh in an upstream answer, in bytes: above the
 * simulator's average (docs/performance-log.md) so that a call sized by it stays under
 * UPSTREAM_MAX_BYTES.
 */
export const BYTES_PER_ITEM = 256;

/** Loads served in one go before other requests get a turn. */
const SERVE_BEFORE_YIELD = 1000;

export function createTrackCache(o: TrackCacheOptions) {
  const now = o.now ?? Date.now;
  const epoch = randomBytes(6).toString('base64url');
  // Kept per operation and looked up by the id itself: the puller asks for every watched load
  // every second, and a key built for each ask would be garbage made 10,000 times a second.
  const tracks = new Map<LoadBy, Map<string, Track>>();
  let tracksHeld = 0;
  let uses = 0;
  let seq = 0;
  let lastTimeStamp: string | undefined;
  /** Items per load the latest answer of each mode brought: a refresh in the puller's next round expects as many. */
  const lastPerLoad = { yes: 0, no: 0 };
  const maxItems = Math.max(
    1,
    Math.min(
      o.maxItems !== undefined && o.maxItems >= 1 ? o.maxItems : Number.POSITIVE_INFINITY,
      o.maxBytes !== undefined ? Math.floor(o.maxBytes / BYTES_PER_ITEM) : Number.POSITIVE_INFINITY,
    ),
  );
  const storeItems = Math.min(
    maxItems,
    o.storeItems !== undefined && o.storeItems >= 1 ? o.storeItems : Number.POSITIVE_INFINITY,
  );
  const callGate = gate(Math.max(1, o.maxInFlight));
  const fullGate = gate(Math.max(1, o.maxFullInFlight ?? o.maxInFlight));

  async function slot<T>(run: () => Promise<T>): Promise<T> {
    const taken = callGate();
    const free = typeof taken === 'function' ? taken : await taken;
    try {
      return await run();
    } finally {
      free();
    }
  }

  function track(by: LoadBy, id: string): Track {
    let ofKind = tracks.get(by);
    if (!ofKind) tracks.set(by, (ofKind = new Map()));
    let t = ofKind.get(id);
    // Stamped, not moved to the Map's end: the puller touches every watched load every second, and
    // a Map rewritten that often keeps fresh keys and tables alive long enough to reach the old space.
    if (t) {
      t.usedAt = ++uses;
      return t;
    }
    t = {
      by,
      id,
      usedAt: ++uses,
      load: undefined,
      known: false,
      missing: false,
      refreshedAt: Number.NEGATIVE_INFINITY,
      lastFullAt: Number.NEGATIVE_INFINITY,
      needsFull: true,
      seqOf: new Map(),
      changedSeq: 0,
      trail: o.persist ? new Trail() : undefined,
      keptStops: Number.NaN,
      outlookMemo: {},
      trailRewrites: 0,
      items: 0,
      deltaItems: 0,
      issues: [],
      quiet: undefined,
      tooLarge: undefined,
      inflight: undefined,
      json: undefined,
    };
    ofKind.set(id, t);
    tracksHeld++;
    return t;
  }

  function allTracks(): Track[] {
    return [...tracks.values()].flatMap((ofKind) => [...ofKind.values()]);
  }

  function evict(wanted: Track[]): void {
    // The puller's round comes every second with every watched load: no set of them when none goes.
    if (tracksHeld <= o.maxLoads) return;
    const keep = new Set(wanted);
    for (const t of allTracks().sort((a, b) => a.usedAt - b.usedAt)) {
      if (tracksHeld <= o.maxLoads) break;
      if (!keep.has(t) && !t.inflight && tracks.get(t.by)?.delete(t.id)) tracksHeld--;
    }
  }

  /**
   * Merges one answer's load into its track; whether anything changed (a delta that brought nothing
   * new is no change: the puller neither reckons nor stores it).
   */
  function absorb(t: Track, answered: Load, issues: ParseIssue[], full: boolean, at: number): boolean {
    const stamp = ++seq;
    const before = { load: t.load, issues: t.issues, missing: t.missing };
    // Notes by their place in the load, not in the answer: a load answered at another index of the
    // next call is not changed by that.
    const relative = relativeIssues(issues);
    const fresh: Load = { ...answered, issues: relative };
    const applied = t.load ? applyDelta(t.load, fresh) : fresh;
    const brought = itemCount(fresh);
    // Nothing new: the trail was cut and thinned for these very events and stops already.
    if (t.trail && (applied !== t.load || brought > 0)) {
      t.trail.add(fresh.pings);
      t.trail.cutBefore(tripStart(applied.events));
      t.trail.thinIfGrown(stopsOf(applied.extras.stops), o.outlook ?? DEFAULT_OUTLOOK_OPTIONS);
    }
    // A full answer may have changed items the memo read, and a trail changed before its end (a
    // late ping, a thinning) the points it read: the outlook is reckoned from the start.
    if (full || (t.trail && t.trail.rewritten !== t.trailRewrites)) {
      t.outlookMemo = {};
      t.trailRewrites = t.trail?.rewritten ?? 0;
    }
    // The board pulls no pings: this is where its ETAs and reasons come from.
    const merged =
      applied === t.load
        ? applied
        : withOutlook(applied, t.load?.outlook, o.outlook, t.trail?.points(), t.outlookMemo);
    // Back from missing counts as a change: a browser dropped the load when it was reported missing.
    if (merged !== t.load || t.missing) {
      t.changedSeq = stamp;
      o.onChange?.(t.by, t.id, `${epoch}.${stamp}`);
    }
    // Every item of the merge was held before (stamped then) or came in this answer: only the
    // answer's are looked at, not the whole track. An item sent again with other content (a
    // document's type corrected) is stamped again when its new version is the one kept, so that a
    // browser holding the old one gets it after its cursor.
    // The puller's cache serves no browser (the store does): no stamps to keep per item.
    for (const list of o.persist ? [] : LISTS) {
      const before = t.load?.[list];
      let kept: Map<string, object> | undefined;
      for (const item of fresh[list]) {
        if (!t.seqOf.has(item.key)) t.seqOf.set(item.key, stamp);
        else if (merged[list] !== before) {
          kept ??= new Map(merged[list].map((i) => [i.key, i]));
          if (kept.get(item.key) === item) t.seqOf.set(item.key, stamp);
        }
      }
    }
    // The puller keeps what a load's outlook, dwell and alerts read: the current trip's events and
    // documents, its pings only as the trail: its memory grows with neither the load's history nor
    // a long trip (the store keeps those).
    t.load = o.persist && merged !== before.load ? hotTrip(merged) : merged;
    if (full) {
      t.items = brought;
      t.deltaItems = 0;
    } else {
      t.items += brought;
      t.deltaItems = Math.max(t.deltaItems, brought);
    }
    t.known = true;
    t.missing = false;
    t.refreshedAt = at;
    if (full) t.lastFullAt = at;
    t.needsFull = false;
    t.tooLarge = undefined;
    const kept = [...relative, ...t.issues.filter((i) => i.kind !== 'too_large')];
    const seen = new Set<string>();
    const notes = kept
      .filter((i) => {
        const k = `${i.path}|${i.kind}`;
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
      })
      .slice(0, o.maxIssuesPerLoad ?? 200);
    // The same notes again keep their list: a full answer serialized for browsers stays valid.
    const sameNotes = dequal(notes, before.issues);
    if (!sameNotes) t.issues = notes;
    return full || brought > 0 || merged !== before.load || before.missing || !sameNotes;
  }

  /** The track's trip stops kept when they changed since last kept (`keepTripStops`). */
  function keepStops(t: Track, writes: Promise<void>[]): void {
    const trip = t.load && tripStopsOf(t.load);
    if (!trip || !o.keepTripStops) return;
    const print = jsonPrint([trip.from, trip.stops, trip.radiusMeters ?? null]);
    if (print === t.keptStops) return;
    t.keptStops = print;
    writes.push(
      o.keepTripStops(t.by, t.id, trip).catch(() => {
        // Not kept: tried again at the load's next change (the hook says why in the log).
        if (t.keptStops === print) t.keptStops = Number.NaN;
      }),
    );
  }

  /**
   * One upstream call for a chunk of tracks of one mode; merges what came back. An answer too large
   * is pulled again in halves; `calls` counts every call made.
   */
  async function refreshChunk(
    by: LoadBy,
    chunk: Track[],
    mode: 'yes' | 'no',
    calls: { n: number },
  ): Promise<number> {
    let answer: Parsed<PullAnswer>;
    const byId = new Map(chunk.map((t) => [t.id, t]));
    // A delta's details are printed as they are read: one the same as the last one that changed
    // nothing is left unread (`Track.quiet`). A full answer is always read.
    const prints = mode === 'yes' ? new Map<Track, number>() : undefined;
    const quiet: Track[] = [];
    // Held from the call until its answer is stored; let go before an answer too large is pulled in halves.
    const taken = mode === 'no' ? fullGate() : () => {};
    const free = typeof taken === 'function' ? taken : await taken;
    // Let go however this ends: a turn kept would hold every later full pull for good.
    try {
      const seen =
        prints &&
        ((id: string, print: number) => {
          const t = byId.get(id);
          if (!t) return undefined;
          // Twice in one answer: read as before (the first one counts), and remembered by neither.
          if (prints.has(t)) {
            prints.set(t, Number.NaN);
            return undefined;
          }
          prints.set(t, print);
          if (t.quiet?.print !== print || !t.load || t.missing || t.tooLarge) return undefined;
          quiet.push(t);
          return t.quiet.notes;
        });
      try {
        calls.n++;
        answer = await slot(() =>
          o.pull(
            by,
            chunk.map((t) => t.id),
            mode,
            seen,
          ),
        );
      } catch (error) {
        free();
        // The call may have reached the upstream and moved its cursor: only a full pull is safe now.
        for (const t of chunk) t.needsFull = true;
        if (!(error instanceof ProxyError && error.code === 'upstream_too_large')) throw error;
        if (chunk.length === 1) {
          const t = chunk[0] as Track;
          tooLargeAlone(t, error.message);
          // The other instances serve from the store: the note goes there, under what is known of the
          // load; never read and not reported yet, it stays unknown there (pending) as it is here.
          if (o.persist && (t.load || t.tooLarge?.reported))
            await o.persist(by, {
              loads: [headOnly(t)],
              notes: [{ by, id: t.id, notes: t.issues }],
              missing: [],
            });
          return 0;
        }
        const half = Math.ceil(chunk.length / 2);
        const halves = await Promise.allSettled([
          refreshChunk(by, chunk.slice(0, half), 'no', calls),
          refreshChunk(by, chunk.slice(half), 'no', calls),
        ]);
        const failure = halves.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failure) throw failure.reason;
        return halves.reduce((n, r) => n + (r.status === 'fulfilled' ? r.value : 0), 0);
      }
      lastTimeStamp = answer.data.timeStamp ?? lastTimeStamp;
      const at = now();
      // What merging the same detail again would do: nothing but count it as answered.
      for (const t of quiet) {
        if (!byId.delete(t.id)) continue;
        t.known = true;
        t.missing = false;
        t.refreshedAt = at;
        t.needsFull = false;
        t.tooLarge = undefined;
      }
      const stopsKept: Promise<void>[] = [];
      let toStore: PersistedAnswer = { loads: [], notes: [], missing: [] };
      /** The tracks merged since the last part was stored: due again if the answer fails before. */
      let unwritten: Track[] = [];
      let batchItems = 0;
      let answered = 0;
      const store = async () => {
        const batch = toStore;
        toStore = { loads: [], notes: [], missing: [] };
        batchItems = 0;
        await o.persist?.(by, batch);
        unwritten = [];
      };
      const details = answer.data.details as (PullAnswer['details'][number] | undefined)[];
      const parsedCount = details.length;
      // A full answer's details come as text, each read here as its turn comes (`unread`): what is
      // held is the answer's bytes, one detail's tree and the part waiting to be stored.
      let unread = answer.data.unread;
      const count = parsedCount + (unread?.count ?? 0);
      try {
        for (let i = 0; i < count; i++) {
          let detail: PullAnswer['details'][number] | undefined;
          let own: readonly ParseIssue[];
          if (i < parsedCount) {
            detail = details[i];
            // Let go of each detail once read: a large answer's tree shrinks as it is stored.
            details[i] = undefined;
            own = answer.data.detailIssues[i] ?? NO_NOTES;
          } else ({ detail, issues: own } = (unread as UnreadDetails).take(i - parsedCount));
          if (detail === undefined) continue;
          const id = detailId(detail, by);
          const t = id === undefined ? undefined : byId.get(id);
          if (!t) continue;
          byId.delete(t.id);
          const issues = [...own];
          const load = normalizeLoad(detail, by, `details[${i}]`, issues);
          if (load && o.hideCredentials) load.extras = o.hideCredentials(load.extras);
          // What the reading of values found (a coordinate out of range, an unreadable time) goes to
          // the diagnostics with what the parser found.
          for (let k = own.length; k < issues.length; k++) answer.issues.push(issues[k] as ParseIssue);
          if (!load) continue;
          const changed = absorb(t, load, issues, mode === 'no', at);
          const print = prints?.get(t) ?? Number.NaN;
          t.quiet =
            changed || Number.isNaN(print) ? undefined : { print, notes: own.length > 0 ? own : NO_NOTES };
          if (changed && o.keepTripStops) keepStops(t, stopsKept);
          const brought = itemCount(load);
          answered += brought;
          // A delta that changed nothing is not stored: the store would find nothing to write.
          if (!o.persist || !t.load || !changed) continue;
          // The answer's items under the merged head (its outlook reckoned from the whole track).
          const { pings, events, comments, documents, readings } = load;
          // A large answer is stored in parts of at most `storeItems` (or one load), so that no write's
          // parameters are large; a part fails as the whole would: the chunk is pulled in full next time.
          if (toStore.loads.length > 0 && batchItems + brought > storeItems) await store();
          toStore.loads.push({ ...t.load, pings, events, comments, documents, readings });
          toStore.notes.push({ by, id: t.id, notes: t.issues });
          unwritten.push(t);
          batchItems += brought;
        }
        // The answer's bytes are not needed past its last detail, while its last part is written.
        unread = answer.data.unread = undefined;
        // Not in the answer: unknown after a full pull; after a delta, nothing new (kept as it was).
        for (const t of byId.values()) {
          t.refreshedAt = at;
          if (mode === 'no' || !t.known) {
            t.missing = true;
            t.lastFullAt = at;
            t.needsFull = false;
            toStore.missing.push({ by, id: t.id });
          }
        }
        if (o.persist && (toStore.loads.length > 0 || toStore.missing.length > 0)) await store();
        await Promise.all(stopsKept);
        // Once read and stored: the notes of details read one at a time are in `issues` only now, and a
        // refused answer's come again with the full pull that follows it.
        o.onAnswer?.(by, answer);
        return answered;
      } catch (error) {
        for (const t of chunk) t.needsFull = true;
        // Merged but not stored: pulled again at the next round, as if this answer had not come.
        for (const t of unwritten) t.refreshedAt = Number.NEGATIVE_INFINITY;
        throw error;
      }
    } finally {
      free();
    }
  }

  function tooLargeAlone(t: Track, message: string): void {
    const at = now();
    const tries = (t.tooLarge?.tries ?? 0) + 1;
    const wasReported = t.tooLarge?.reported ?? false;
    const reported = wasReported || tries >= TOO_LARGE_TRIES;
    // Until reported nothing was dropped for good: the load is behind, tried again at its next refresh.
    const note: ParseIssue = reported
      ? {
          path: '(load)',
          kind: 'too_large',
          message: `${message} for this load alone: its track is as of its last answer (raise UPSTREAM_MAX_BYTES)`,
          skipped: true,
        }
      : {
          path: '(load)',
          kind: 'too_large',
          message: `${message} for this load alone: its track is as of its last answer, tried again at the next refresh`,
          skipped: false,
        };
    t.tooLarge = { note, retryAt: reported ? at + o.resyncMs : at, tries, reported };
    t.missing = false;
    t.refreshedAt = at;
    if (wasReported) return;
    t.issues = [note, ...t.issues.filter((i) => i.kind !== 'too_large')];
    // A browser past its cursor learns of the note as of a change.
    t.changedSeq = ++seq;
    o.onChange?.(t.by, t.id, `${epoch}.${t.changedSeq}`);
    if (reported) o.onTooLarge?.(t.by, t.id, note);
  }

  /**
   * Pulls these tracks, each call's loads chosen when it can start: at most `chunkSize` loads, cut
   * before the items they are expected to bring pass `maxItems` (a load expected to bring more goes
   * alone). A load is expected to bring the largest of: its own reckoning (a full pull: what it
   * holds; a delta: the most one of its deltas brought since its last full pull); what the latest
   * answer of the same mode brought per load; the most per load any answer of this refresh brought,
   * or before the first one, in a refresh of more than one chunk, a FIRST_CALL_LOADS-th of
   * `maxItems`. So a large refresh starts with small calls, and no answer is large even when a
   * load's history says nothing (its first pull) or is wrong (the service's clock moved far).
   * Calls grow with the items.
   * A request that wants one of these loads meanwhile shares its call: it waits until that call settles.
   */
  async function pullInTurn(by: LoadBy, list: Track[], mode: 'yes' | 'no', calls: { n: number }) {
    // One marker for the whole turn, a promise only for a load a request waits on: the puller's
    // refresh of every watched load would otherwise hold several objects a load until its end.
    const turn: Turn = { waiting: new Map() };
    for (const t of list) t.inflight = turn;
    const settle = (chunk: Track[], failed: { error: unknown } | undefined) => {
      for (const t of chunk) {
        if (t.inflight === turn) t.inflight = undefined;
        const waiter = turn.waiting.get(t);
        if (!waiter) continue;
        turn.waiting.delete(t);
        if (failed) waiter.reject(failed.error);
        else waiter.resolve();
      }
    };
    let perLoad = Number.isFinite(maxItems) && list.length > o.chunkSize ? maxItems / FIRST_CALL_LOADS : 0;
    let answered = false;
    let next = 0;
    const failures: unknown[] = [];
    const takeChunk = (): Track[] => {
      const chunk: Track[] = [];
      let items = 0;
      while (next < list.length && chunk.length < o.chunkSize) {
        const t = list[next] as Track;
        const expected = Math.max(mode === 'no' ? t.items : t.deltaItems, perLoad, lastPerLoad[mode]);
        if (chunk.length > 0 && items + expected > maxItems) break;
        chunk.push(t);
        items += expected;
        next++;
      }
      return chunk;
    };
    const worker = async () => {
      while (next < list.length) {
        const chunk = takeChunk();
        try {
          const items = await refreshChunk(by, chunk, mode, calls);
          const seen = items / chunk.length;
          perLoad = answered ? Math.max(perLoad, seen) : seen;
          lastPerLoad[mode] = seen;
          answered = true;
          settle(chunk, undefined);
        } catch (error) {
          failures.push(error);
          settle(chunk, { error });
        }
      }
    };
    const workers =
      mode === 'no' ? Math.min(o.maxInFlight, o.maxFullInFlight ?? o.maxInFlight) : o.maxInFlight;
    await Promise.all(Array.from({ length: Math.max(1, workers) }, worker));
    if (failures.length > 0) throw failures[0];
  }

  /** Settles as the call that brings this track in `turn` does. */
  function settledWith(t: Track, turn: Turn): Promise<void> {
    let waiter = turn.waiting.get(t);
    if (!waiter) {
      let resolve = () => {};
      let reject: (error: unknown) => void = () => {};
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      turn.waiting.set(t, (waiter = { promise, resolve, reject }));
    }
    return waiter.promise;
  }

  /** Whether a track not in flight is to be pulled now. */
  function isDue(t: Track, at: number): boolean {
    return at - t.refreshedAt >= o.freshMs && !(t.tooLarge && at < t.tooLarge.retryAt);
  }

  /** Brings the tracks up to date, sharing calls already in flight; resolves when all settled. */
  async function refresh(by: LoadBy, wanted: Track[]): Promise<number> {
    const at = now();
    const waits: Promise<void>[] = [];
    const due: Track[] = [];
    for (const t of wanted) {
      if (t.inflight) waits.push(settledWith(t, t.inflight));
      else if (isDue(t, at)) due.push(t);
    }
    const calls = { n: 0 };
    const modes: ['no' | 'yes', Track[]][] = [
      ['no', due.filter((t) => t.needsFull || at - t.lastFullAt >= o.resyncMs)],
      ['yes', due.filter((t) => !(t.needsFull || at - t.lastFullAt >= o.resyncMs))],
    ];
    for (const [mode, list] of modes) if (list.length > 0) waits.push(pullInTurn(by, list, mode, calls));
    const results = await Promise.allSettled(waits);
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
    return calls.n;
  }

  /** Refreshes the tracks that are due (a full pull once `resyncMs` passed); the upstream calls made. */
  function bringUpToDate(by: LoadBy, wanted: Track[]): Promise<number> {
    evict(wanted);
    const at = now();
    for (const t of wanted) if (t.known && at - t.lastFullAt >= o.resyncMs) t.needsFull = true;
    return refresh(by, wanted);
  }

  function parseCursor(cursor: string | undefined): number {
    if (!cursor) return 0;
    const [e, n] = cursor.split('.');
    const value = Number(n);
    return e === epoch && Number.isInteger(value) && value >= 0 && value <= seq ? value : 0;
  }

  function serve(t: Track, include: IncludeFlags | undefined, since: number): LoadViewWire | undefined {
    // Too large from its first pull and reported: the service knows it, so it is not missing; its
    // note says why it is empty. Before it is reported, it is pending (see `collect`).
    if (!t.load)
      return t.tooLarge?.reported
        ? {
            by: t.by,
            id: t.id,
            ...(t.by === 'external-id' ? { externalId: t.id } : { loadNumber: t.id }),
            issues: [t.tooLarge.note],
          }
        : undefined;
    // A full answer has every item: no need to look each one up.
    const isNew = since === 0 ? undefined : (item: { key: string }) => (t.seqOf.get(item.key) ?? 0) > since;
    return loadView(t.load, t.issues, include, isNew);
  }

  function serveJson(t: Track, include: IncludeFlags | undefined, since: number): Buffer | undefined {
    const load = t.load;
    if (!load)
      return t.tooLarge?.reported ? Buffer.from(JSON.stringify(serve(t, include, since))) : undefined;
    const render = () => Buffer.from(JSON.stringify(serve(t, include, since)));
    // Only a full answer is the same for every browser; one after a cursor is made for its request.
    if (since !== 0) return render();
    const key =
      LISTS.map((list) => {
        const flag = INCLUDE_OF[list];
        return flag && include?.[flag] === false ? '0' : '1';
      }).join('') + (include?.extras === false ? '0' : '1');
    if (t.json?.load !== load || t.json.issues !== t.issues)
      t.json = { load, issues: t.issues, bytes: new Map() };
    let bytes = t.json.bytes.get(key);
    if (!bytes) {
      if (t.json.bytes.size >= JSON_KEPT) t.json.bytes.delete(t.json.bytes.keys().next().value as string);
      t.json.bytes.set(key, (bytes = render()));
    }
    return bytes;
  }

  async function collect<T>(
    by: LoadBy,
    ids: string[],
    since: string | undefined,
    include: IncludeFlags | undefined,
    render: (t: Track, since: number) => T | undefined,
  ) {
    const wanted = ids.map((id) => track(by, id));
    const upstreamCalls = await bringUpToDate(by, wanted);
    const from = parseCursor(since);
    // Taken before the tracks are served: the yields below let other calls merge into them meanwhile,
    // and what they merge must come again after this cursor (served twice at most, never lost).
    const cursor = `${epoch}.${seq}`;
    const timeStamp = lastTimeStamp;
    const loads: T[] = [];
    const missing: string[] = [];
    const pending: string[] = [];
    for (const [i, t] of wanted.entries()) {
      // A big board takes long to serve: other requests (the page's own scripts, a colleague's five
      // loads) are let in between every so many loads, not kept waiting behind it.
      if (i > 0 && i % SERVE_BEFORE_YIELD === 0) await yieldToOthers();
      // Nothing new since the browser's cursor: the load is left out, and the browser keeps its copy.
      if (from > 0 && !t.missing && t.load && t.changedSeq <= from) continue;
      const view = t.missing ? undefined : render(t, from);
      if (view) loads.push(view);
      // Never read yet, its answer refused and tried again: the service knows it, its data is to come.
      else if (!t.missing && t.tooLarge && !t.tooLarge.reported) pending.push(t.id);
      else missing.push(t.id);
    }
    return { cursor, timeStamp, loads, missing, ...(pending.length > 0 ? { pending } : {}), upstreamCalls };
  }

  /**
   * What a browser asked for: the tracks of `ids`, refreshed as needed, with only the items merged
   * after `since`. Throws the upstream's error when a needed call failed (its loads are then marked
   * for a full pull); whatever the other calls brought is merged and kept.
   */
  function get(
    by: LoadBy,
    ids: string[],
    include: IncludeFlags | undefined,
    since: string | undefined,
  ): Promise<ServedTracks> {
    return collect(by, ids, since, include, (t, from) => serve(t, include, from));
  }

  /** As `get`, with each load serialized; a full answer's load is serialized once per change. */
  function getJson(
    by: LoadBy,
    ids: string[],
    include: IncludeFlags | undefined,
    since: string | undefined,
  ): Promise<ServedJson> {
    return collect(by, ids, since, include, (t, from) => serveJson(t, include, from));
  }

  /**
   * The loads held now (those browsers have watched, at most `maxLoads`), as last pulled: no upstream
   * call. A load held both by external id and by load number comes once.
   */
  function held(): Load[] {
    const seen = new Set<string>();
    const loads: Load[] = [];
    // Least recently used first, as ever: of a load held twice, that one's copy is the one given.
    for (const t of allTracks().sort((a, b) => a.usedAt - b.usedAt)) {
      if (!t.load || t.missing) continue;
      const key =
        t.load.externalId !== undefined ? `e:${t.load.externalId}` : `n:${t.load.loadNumber ?? t.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      loads.push(t.load);
    }
    return loads;
  }

  return {
    get,
    getJson,
    held,
    /** Brings these loads up to date without serving them (the puller's round); the upstream calls made. */
    refreshLoads: (by: LoadBy, ids: readonly string[]): Promise<number> => {
      // Every watched load comes every second: only the few in flight or due are listed (what
      // `refresh` looks at), not all of them, unless some track is to be forgotten.
      const at = now();
      const wanted: Track[] = [];
      for (const id of ids) {
        const t = track(by, id);
        if (t.known && at - t.lastFullAt >= o.resyncMs) t.needsFull = true;
        if (t.inflight || isDue(t, at)) wanted.push(t);
      }
      if (tracksHeld > o.maxLoads)
        return bringUpToDate(
          by,
          ids.map((id) => track(by, id)),
        );
      return refresh(by, wanted);
    },
    /**
     * What a full pull of loads this cache has not pulled yet is expected to bring, in items (a new
     * term of the puller's lease: what the store holds of each), so that its first calls are sized
     * by it and not refused as too large.
     */
    expectItems: (by: LoadBy, counts: ReadonlyMap<string, number>) => {
      for (const [id, items] of counts) {
        const t = track(by, id);
        if (!t.known) t.items = Math.max(t.items, items);
      }
    },
    /** Marks loads for a full pull at their next refresh (their delta went astray). */
    markFull: (by: LoadBy, ids: string[]) => {
      for (const id of ids) {
        // A load not held is pulled in full anyway.
        const t = tracks.get(by)?.get(id);
        if (t) t.needsFull = true;
      }
    },
    /** Forgets every track: each is pulled in full next time (a new term of the puller's lease). */
    reset: () => {
      tracks.clear();
      tracksHeld = 0;
    },
    /** For tests and health: how many tracks are held. */
    size: () => tracksHeld,
  };
}

export type TrackCache = ReturnType<typeof createTrackCache>;

/**
 * At most `limit` holders at once: `gate()` gives the function that lets its turn go, at once when
 * one is free (no extra tick: calls keep their order), else as a promise when one is let go.
 */
function gate(limit: number): () => (() => void) | Promise<() => void> {
  let held = 0;
  const queue: (() => void)[] = [];
  const turn = () => {
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      // Passed straight to the first waiting, so that no newcomer takes it between.
      const next = queue.shift();
      if (next) next();
      else held--;
    };
  };
  return () => {
    if (held < limit) {
      held++;
      return turn();
    }
    return new Promise<() => void>((r) => queue.push(() => r(turn())));
  };
}

/**
 * Where the routes read loads from: the in-memory track cache (one instance), or the track store
 * (several instances; `tracks/store-tracks.ts`).
 */
export interface TrackSource {
  get: TrackCache['get'];
  getJson: TrackCache['getJson'];
  /** The loads held now, for reports over all of them (billing, alerts). */
  held: () => Load[] | Promise<Load[]>;
}

/** The items a load holds, all lists together. */
function itemCount(load: Load): number {
  return LISTS.reduce((n, list) => n + load[list].length, 0);
}

/** A track's load without its items, or its ids alone when it has never been read. */
function headOnly(t: { by: LoadBy; id: string; load: Load | undefined }): Load {
  const lists = { pings: [], events: [], comments: [], documents: [], readings: [] };
  if (t.load) return { ...t.load, ...lists };
  return {
    by: t.by,
    id: t.id,
    externalId: t.by === 'external-id' ? t.id : undefined,
    loadNumber: t.by === 'load-number' ? t.id : undefined,
    ltExternalId: undefined,
    latestLocation: undefined,
    latestStatus: undefined,
    latestTemperature: undefined,
    ...lists,
    extras: {},
    issues: [],
  };
}

/** What the puller holds of a load: its current trip without the lists it keeps elsewhere or not at all. */
function hotTrip(load: Load): Load {
  const trip = currentTrip(load);
  if (trip.pings.length === 0 && trip.comments.length === 0 && trip.readings.length === 0) return trip;
  return { ...trip, pings: [], comments: [], readings: [] };
}

/** The load with only its current trip's items (since its last dispatch), or itself when that is all. */
export function currentTrip(load: Load): Load {
  const start = tripStart(load.events);
  if (start === undefined) return load;
  // Lists are in time order with untimed items last (the merge's order): the trip is a suffix, and
  // most answers leave nothing to cut, seen from the first item alone.
  const inTrip = (item: { instant: number | null }) => item.instant === null || item.instant >= start;
  let trimmed: Load | undefined;
  for (const list of LISTS) {
    const items: { instant: number | null }[] = load[list];
    if (items.length === 0 || inTrip(items[0] as { instant: number | null })) continue;
    const from = items.findIndex(inTrip);
    trimmed ??= { ...load };
    (trimmed as Record<string, unknown>)[list] = from < 0 ? [] : items.slice(from);
  }
  return trimmed ?? load;
}

/** Notes with paths relative to their load (`locations[3].lat`, not `details[12].locations[3].lat`). */
export function relativeIssues(issues: ParseIssue[]): ParseIssue[] {
  return issues.map((i) => ({ ...i, path: i.path.replace(/^details\[\d+\]\.?/, '') || '(load)' }));
}

/**
 * A load as the proxy serves it (`LoadView`): the lists the request included, each with only the
 * items `isNew` keeps (all without it), and the load's notes. Lists left out, or empty, are not
 * written: a board of 10,000 loads would carry 50,000 `[]`.
 */
export function loadView(
  load: Load,
  notes: ParseIssue[],
  include: IncludeFlags | undefined,
  isNew?: (item: { key: string }) => boolean,
): LoadViewWire {
  const extras = include?.extras !== false;
  const view: LoadViewWire = {
    by: load.by,
    id: load.id,
    externalId: load.externalId,
    loadNumber: load.loadNumber,
    ltExternalId: load.ltExternalId,
    latestLocation: load.latestLocation,
    latestStatus: load.latestStatus,
    latestTemperature: load.latestTemperature,
  };
  // A view without extras (a board's) gets the outlook its line says; a load's own page all of it.
  if (load.outlook) view.outlook = extras ? load.outlook : boardOutlook(load.outlook);
  for (const list of LISTS) {
    if (include?.[INCLUDE_OF[list]] === false) continue;
    const items: { key: string }[] = isNew ? load[list].filter(isNew) : load[list];
    if (items.length > 0) (view as Record<string, unknown>)[list] = items;
  }
  if (extras && Object.keys(load.extras).length > 0) view.extras = load.extras;
  const kept = extras ? notes : withoutKeptFields(notes);
  if (kept.length > 0) view.issues = kept;
  return view;
}

/** A load's notes less those that say an undocumented field was kept: left out with the fields. */
function withoutKeptFields(notes: ParseIssue[]): ParseIssue[] {
  return notes.some((n) => n.kind === 'unknown_field')
    ? notes.filter((n) => n.kind !== 'unknown_field')
    : notes;
}
