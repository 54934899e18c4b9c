import type { ExceptionAck } from '@/contract/exceptions-api';
import { exceptionRank, exceptionSameUntil, loadException, type LoadException } from '@/domain/exceptions';
import type { Load } from '@/domain/model';
import { darkReasonWords } from '@/domain/outlook-text';
import { isFinished } from '@/domain/status-phase';
import { loadStaleness, type StalenessThresholds } from '@/domain/staleness';
import { outlookLine } from '../../components/outlook-text';
import { compareLabels } from '../../lib/collate';
import { loadKey, loadLabel, refPrefix } from '../../lib/load-ref';

/** One load that needs action, and what the team said of it. */
export interface ExceptionRow {
  /** `by:id`. */
  key: string;
  /** `e:9001`: how the acks name the load. */
  ref: string;
  load: Load;
  label: string;
  exception: LoadException;
  /** The reason line the board shows, with the dark reason's evidence (written when first read). */
  readonly evidence: string;
  driver: string | undefined;
  phone: string | undefined;
  /** The acknowledgement or snooze in force, when there is one. */
  handled: ExceptionAck | undefined;
}

/**
 * Whether what was said of a load's exception still holds at `now`: a snooze until its time, an
 * acknowledgement while the exception is the very occurrence acknowledged.
 */
export function ackHolds(ack: ExceptionAck | undefined, exception: LoadException, now: number): boolean {
  if (!ack || ack.kind !== exception.kind) return false;
  if (ack.state === 'snoozed') return ack.until !== null && Date.parse(ack.until) > now;
  return ack.state === 'acknowledged' && ack.occurrence === exception.occurrence;
}

function evidenceOf(load: Load, now: number, thresholds: StalenessThresholds): string {
  const level = loadStaleness(load, now, thresholds);
  const line = outlookLine(load, level, false, now);
  const dark =
    line.dark && load.outlook?.dark ? darkReasonWords(load.outlook.dark, load.outlook.stops) : undefined;
  return [line.next?.text, dark ? `${dark.title}: ${dark.evidence}` : undefined].filter(Boolean).join(' · ');
}

/**
 * A listed row. Its evidence words are written when a page first reads them, as of the moment its
 * load was judged (they hold until the judgement's end): a refresh lists thousands of changed rows
 * and a page shows a few dozen of them.
 */
class Row implements ExceptionRow {
  constructor(
    readonly key: string,
    readonly ref: string,
    readonly load: Load,
    readonly label: string,
    readonly exception: LoadException,
    readonly driver: string | undefined,
    readonly phone: string | undefined,
    readonly handled: ExceptionAck | undefined,
    private readonly judged: Judged,
  ) {}

  get evidence(): string {
    const j = this.judged;
    return (j.evidence ??= evidenceOf(this.load, j.from, {
      staleAfterMinutes: j.staleAfter,
      silentAfterMinutes: j.silentAfter,
    }));
  }
}

/**
 * The longest standing first: by `since`; a stop late or at risk by its ETA alone by its appointment,
 * after the ones whose appointment passed (the soonest due first).
 */
const standingOrder = (e: LoadException): number => e.since ?? e.stop?.appointment?.instant ?? Infinity;

/** What was judged of a load object, and for which moments it holds (see `exceptionSameUntil`). */
interface Judged {
  from: number;
  until: number;
  staleAfter: number;
  silentAfter: number;
  exception: LoadException | undefined;
  /** The row's evidence words, once a row's were read (`Row`). */
  evidence: string | undefined;
  row: ExceptionRow | undefined;
  /** The row's place in the list: its kind's rank, then how long it stands (`standingOrder`). */
  rank: number;
  standing: number;
  /** The latest status judged, and whether it is finished (a new load object mostly keeps its status). */
  status: Load['latestStatus'];
  finished: boolean;
  /** Its place in the list made with it. */
  listed: Listed | undefined;
}

/**
 * `load`'s judgement at `now`: `before`, what was judged of this very object, while it still holds,
 * else a fresh one. `previous`: the last judgement of the same load in another object, whose reading
 * of an unchanged status is kept.
 */
function judged(
  before: Judged | undefined,
  previous: Judged | undefined,
  load: Load,
  now: number,
  thresholds: StalenessThresholds,
): Judged {
  if (
    before &&
    now >= before.from &&
    now < before.until &&
    before.staleAfter === thresholds.staleAfterMinutes &&
    before.silentAfter === thresholds.silentAfterMinutes
  )
    return before;
  const status = load.latestStatus;
  const last = before ?? previous;
  const finished = last && last.status === status ? last.finished : isFinished(status);
  const exception = loadException(load, now, thresholds, finished);
  return {
    from: now,
    until: exceptionSameUntil(load, now, thresholds, finished),
    staleAfter: thresholds.staleAfterMinutes,
    silentAfter: thresholds.silentAfterMinutes,
    exception,
    evidence: undefined,
    row: undefined,
    rank: exception ? exceptionRank(exception.kind) : 0,
    standing: exception ? standingOrder(exception) : 0,
    status,
    finished,
    listed: undefined,
  };
}

/** A listed row with what places it: its kind's rank, how long it stands, its label, its index in `loads`. */
interface Listed {
  row: ExceptionRow;
  rank: number;
  standing: number;
  /** Last, so rows alike in all else keep the order of `loads` (as a stable sort of them would). */
  index: number;
}

const byPlace = (a: Listed, b: Listed): number =>
  a.rank - b.rank || a.standing - b.standing || compareLabels(a.row.label, b.row.label) || a.index - b.index;

/** In `keptExceptionRows`, what became of an index's row. */
const MOVED = 1;
const IN_PLACE = 2;

/** What the last call was given and listed, and until when each of its judgements holds. */
interface Kept {
  loads: readonly Load[];
  acks: readonly ExceptionAck[];
  staleAfter: number;
  silentAfter: number;
  now: number;
  /** Per index in `loads`: until when its load's judgement holds (`Judged.until`). */
  untils: Float64Array;
  /**
   * Per index in `loads`: what was judged of its load. Kept by index, not in a WeakMap by load
   * object: a refresh brings thousands of new objects, and each entry was work for the collector.
   */
  judgements: Judged[];
  /** The first moment after `now` at which a snooze runs out. */
  snoozesUntil: number;
  listed: Listed[];
}

type ExceptionLists = { open: ExceptionRow[]; handled: ExceptionRow[] };

/** The earliest moment after `now` at which a snooze runs out. */
function snoozesUntil(acks: readonly ExceptionAck[], now: number): number {
  let until = Infinity;
  for (const a of acks)
    if (a.state === 'snoozed' && a.until !== null) {
      const at = Date.parse(a.until);
      if (at > now && at < until) until = at;
    }
  return until;
}

/**
 * `exceptionRows` with its own memory of the last call (each caller that lists other loads, or at
 * other moments, wants its own: one memory thrashes between them).
 */
export function keptExceptionRows(): (
  loads: readonly Load[],
  acks: readonly ExceptionAck[],
  now: number,
  thresholds: StalenessThresholds,
) => ExceptionLists {
  let kept: Kept | undefined;
  return (loads, acks, now, thresholds) => {
    const byLoadKind = new Map(acks.map((a) => [`${a.load}\u0000${a.kind}`, a]));
    // A snooze hides its load until its time whatever happens meanwhile, another kind included.
    const snoozed = new Map<string, ExceptionAck>();
    for (const a of acks)
      if (a.state === 'snoozed' && a.until !== null && Date.parse(a.until) > now) {
        const other = snoozed.get(a.load);
        if (!other || Date.parse(a.until ?? '') > Date.parse(other.until ?? '')) snoozed.set(a.load, a);
      }
    const k = kept;
    let untils: Float64Array;
    let judgements: Judged[];
    // After loads were added or removed, a load that was listed may be at another index.
    let byLoad: Map<Load, Judged> | undefined;
    const judgedBefore = (load: Load, index: number): Judged | undefined => {
      if (!k) return undefined;
      if (k.loads[index] === load) return k.judgements[index];
      if (loads.length === k.loads.length) return undefined;
      if (!byLoad) {
        byLoad = new Map();
        for (let i = 0; i < k.loads.length; i++) byLoad.set(k.loads[i]!, k.judgements[i]!);
      }
      return byLoad.get(load);
    };
    /** The last judgement at `index` when it was of the same load, in this object or another. */
    const previousAt = (load: Load, index: number): Judged | undefined => {
      const was = k?.loads[index];
      return was && was.id === load.id && was.by === load.by ? k.judgements[index] : undefined;
    };
    /** The load's place in the list, or undefined when it needs no action. */
    const place = (load: Load, index: number, previous: Judged | undefined): Listed | undefined => {
      const j = judged(judgedBefore(load, index), previous, load, now, thresholds);
      untils[index] = j.until;
      judgements[index] = j;
      const exception = j.exception;
      if (!exception) return (j.listed = undefined);
      // The same load's key and ref (its kind and id) kept from its last row: not written again.
      const was = j.row ?? previous?.row;
      const ref = was?.ref ?? `${refPrefix(load.by)}:${load.id}`;
      const ack = byLoadKind.size > 0 ? byLoadKind.get(`${ref}\u0000${exception.kind}`) : undefined;
      const handled = ackHolds(ack, exception, now) ? ack : snoozed.size > 0 ? snoozed.get(ref) : undefined;
      if (!j.row || j.row.handled !== handled) {
        const driver = load.latestLocation?.driver ?? load.latestStatus?.driver;
        j.row = new Row(
          was?.key ?? loadKey(load),
          ref,
          load,
          loadLabel(load),
          exception,
          driver?.name,
          driver?.phone,
          handled,
          j,
        );
      }
      return (j.listed = { row: j.row, rank: j.rank, standing: j.standing, index });
    };
    // A kept row still holds while its load object and index, the acks and the thresholds are the
    // same (an added or removed load changes the indices after it), and the clock has not gone back
    // nor passed its judgement's end or any snooze's.
    const same =
      k !== undefined &&
      (acks === k.acks || (acks.length === 0 && k.acks.length === 0)) &&
      thresholds.staleAfterMinutes === k.staleAfter &&
      thresholds.silentAfterMinutes === k.silentAfter &&
      now >= k.now &&
      now < k.snoozesUntil;
    let listed: Listed[];
    if (same) {
      untils = new Float64Array(loads.length);
      untils.set(k.untils.subarray(0, Math.min(loads.length, k.untils.length)));
      judgements = k.judgements.slice(0, loads.length);
      // A load added at an index or removed from it changes that index (past the end: removed).
      // MOVED: the index's row is out of its place; IN_PLACE: its new row has its old row's place.
      const changed = new Uint8Array(Math.max(loads.length, k.loads.length));
      const fresh: Listed[] = [];
      for (let i = 0; i < changed.length; i++)
        if (i >= loads.length) changed[i] = MOVED;
        else if (loads[i] !== k.loads[i] || now >= k.untils[i]!) {
          const previous = previousAt(loads[i]!, i);
          const was = previous?.listed;
          const p = place(loads[i]!, i, previous);
          // A new ping mostly leaves a row's rank, standing and label as they were: its new row is
          // put where the old one was, not sorted and merged in again.
          if (
            p &&
            was?.index === i &&
            was.rank === p.rank &&
            was.standing === p.standing &&
            was.row.label === p.row.label
          )
            changed[i] = IN_PLACE;
          else {
            changed[i] = MOVED;
            if (p) fresh.push(p);
          }
        }
      fresh.sort(byPlace);
      // The changed loads' old rows out, their new rows in at the places the same order gives them.
      const stay: Listed[] = [];
      for (const l of k.listed) {
        const c = changed[l.index];
        if (c === 0) stay.push(l);
        else if (c === IN_PLACE) stay.push(judgements[l.index]!.listed!);
      }
      listed = new Array<Listed>(stay.length + fresh.length);
      let from = 0;
      let n = 0;
      for (const f of fresh) {
        let lo = from;
        let hi = stay.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (byPlace(stay[mid]!, f) < 0) lo = mid + 1;
          else hi = mid;
        }
        while (from < lo) listed[n++] = stay[from++]!;
        listed[n++] = f;
      }
      while (from < stay.length) listed[n++] = stay[from++]!;
    } else {
      listed = [];
      untils = new Float64Array(loads.length);
      judgements = new Array<Judged>(loads.length);
      for (let i = 0; i < loads.length; i++) {
        const p = place(loads[i]!, i, undefined);
        if (p) listed.push(p);
      }
      listed.sort(byPlace);
    }
    kept = {
      loads: loads.slice(),
      acks,
      staleAfter: thresholds.staleAfterMinutes,
      silentAfter: thresholds.silentAfterMinutes,
      now,
      untils,
      judgements,
      snoozesUntil: snoozesUntil(acks, now),
      listed,
    };
    const open: ExceptionRow[] = [];
    const handled: ExceptionRow[] = [];
    for (const { row } of listed) (row.handled ? handled : open).push(row);
    return { open, handled };
  };
}

/**
 * The loads that need action at `now`, most severe first (then the longest standing), split into
 * those nobody has handled and those acknowledged or snoozed. Finished loads never appear. A load
 * object judged before is judged again only once its exception or words may have changed with the
 * clock; its row is the same object while nothing in it changed. When only some loads are new
 * objects since the last call, only those are judged and placed among the kept rows.
 */
export const exceptionRows = keptExceptionRows();
