import type { ExceptionAck } from '@/contract/exceptions-api';
import { exceptionRank, exceptionSameUntil, loadException, type LoadException } from '@/domain/exceptions';
import type { Load } from '@/domain/model';
import { darkReasonWords } from '@/domain/outlook-text';
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
  /** The reason line the board shows, with the dark reason's evidence. */
  evidence: string;
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
  evidence: string;
  row: ExceptionRow | undefined;
  /** The row's place in the list: its kind's rank, then how long it stands (`standingOrder`). */
  rank: number;
  standing: number;
}

/** Each load object's judgement: a refresh brings new objects only for the loads that changed. */
const judgedLoads = new WeakMap<Load, Judged>();

function judged(load: Load, now: number, thresholds: StalenessThresholds): Judged {
  const j = judgedLoads.get(load);
  if (
    j &&
    now >= j.from &&
    now < j.until &&
    j.staleAfter === thresholds.staleAfterMinutes &&
    j.silentAfter === thresholds.silentAfterMinutes
  )
    return j;
  const exception = loadException(load, now, thresholds);
  const fresh: Judged = {
    from: now,
    until: exceptionSameUntil(load, now, thresholds),
    staleAfter: thresholds.staleAfterMinutes,
    silentAfter: thresholds.silentAfterMinutes,
    exception,
    evidence: exception ? evidenceOf(load, now, thresholds) : '',
    row: undefined,
    rank: exception ? exceptionRank(exception.kind) : 0,
    standing: exception ? standingOrder(exception) : 0,
  };
  judgedLoads.set(load, fresh);
  return fresh;
}

/**
 * The loads that need action at `now`, most severe first (then the longest standing), split into
 * those nobody has handled and those acknowledged or snoozed. Finished loads never appear. A load
 * object judged before is judged again only once its exception or words may have changed with the
 * clock; its row is the same object while nothing in it changed.
 */
export function exceptionRows(
  loads: readonly Load[],
  acks: readonly ExceptionAck[],
  now: number,
  thresholds: StalenessThresholds,
): { open: ExceptionRow[]; handled: ExceptionRow[] } {
  const byLoadKind = new Map(acks.map((a) => [`${a.load}\u0000${a.kind}`, a]));
  const listed: Judged[] = [];
  for (const load of loads) {
    const j = judged(load, now, thresholds);
    const exception = j.exception;
    if (!exception) continue;
    const ref = j.row?.ref ?? `${refPrefix(load.by)}:${load.id}`;
    const ack = byLoadKind.size > 0 ? byLoadKind.get(`${ref}\u0000${exception.kind}`) : undefined;
    const handled = ackHolds(ack, exception, now) ? ack : undefined;
    if (!j.row || j.row.handled !== handled) {
      const driver = load.latestLocation?.driver ?? load.latestStatus?.driver;
      j.row = {
        key: j.row?.key ?? loadKey(load),
        ref,
        load,
        label: j.row?.label ?? loadLabel(load),
        exception,
        evidence: j.evidence,
        driver: driver?.name,
        phone: driver?.phone,
        handled,
      };
    }
    listed.push(j);
  }
  listed.sort(
    (a, b) => a.rank - b.rank || a.standing - b.standing || compareLabels(a.row!.label, b.row!.label),
  );
  const open: ExceptionRow[] = [];
  const handled: ExceptionRow[] = [];
  for (const { row } of listed) (row!.handled ? handled : open).push(row!);
  return { open, handled };
}
