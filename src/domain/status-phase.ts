/**
 * Where in its trip a load is, from its latest main status. The service does not publish its set of
 * status names and codes (upstream-api.md 2.6), so a status is placed by its code when the code is
 * one we know (the service's own three-letter codes, and the X12 214 codes carriers use), else by
 * words in its name; a status that says neither is `other`, never a guess.
 */
export type StatusPhase = 'planned' | 'pickup' | 'transit' | 'delivery' | 'delivered' | 'other';

/** The phases in trip order, `other` last: the map's legend and the board list them so. */
export const STATUS_PHASES: readonly StatusPhase[] = [
  'planned',
  'pickup',
  'transit',
  'delivery',
  'delivered',
  'other',
];

/** Known codes: the service's (as the simulator sends them) and X12 214 shipment status codes. */
const BY_CODE: ReadonlyMap<string, StatusPhase> = new Map([
  ['CRT', 'planned'],
  ['DSP', 'planned'],
  ['APU', 'pickup'],
  ['LDD', 'pickup'],
  ['ITR', 'transit'],
  ['ADL', 'delivery'],
  ['DLV', 'delivered'],
  // X12 214: arrived at pickup, loaded, departed pickup, en route, arrived at delivery, delivered.
  ['X3', 'pickup'],
  ['AF', 'transit'],
  ['X6', 'transit'],
  ['X1', 'delivery'],
  ['D1', 'delivered'],
]);

/**
 * Words of a status name, the most telling first. A status that says something did not happen, or
 * only that something is scheduled, says nothing of where the load is ("Delivery attempted, not
 * delivered", "Delivery appointment scheduled"); "Arrived at delivery" is not yet "delivered", "Pickup
 * completed" is at pickup, a truck en route to its shipper has not picked up, one en route to its
 * receiver is on the road, and "Unloaded" is at delivery although it holds "loaded". A cancelled
 * load is at no place in a trip ("Delivery cancelled" is not at delivery): `isFinished` says it.
 */
const BY_NAME: readonly [RegExp, StatusPhase][] = [
  [/\bnot\b|\bunable\b|\bfailed\b|\battempt|\bscheduled\b|\bappointment\b|\bcancel/i, 'other'],
  [/\b(delivered|proof of delivery|pod)\b|deliver(y|ed) complete|complete[ds]? deliver/i, 'delivered'],
  [/(en[- ]?route|heading|on the way) to (the )?(pick[- ]?up|shipper)/i, 'planned'],
  [/transit|en[- ]?route|on the (way|road)|departed|driving|moving/i, 'transit'],
  [/deliver|unload|consignee|receiver|drop[- ]?off/i, 'delivery'],
  [/pick[- ]?up|\bloaded\b|\bloading\b|shipper/i, 'pickup'],
  [/created|dispatch|assigned|tender|booked|scheduled|accepted|planned/i, 'planned'],
];

type Status = { name?: string | undefined; code?: string | undefined };

/**
 * What a status's code and name say, read once per pair: a fleet's statuses repeat a handful of
 * pairs, and each load's latest status is judged by the outlook, the exceptions, the board and the map
 * at every refresh, often as a fresh copy (from the pull worker) of a status seen before. Keyed by the
 * texts, not the object, so a copy costs two lookups. A hostile upstream's texts cannot grow it: long
 * ones are read each time, and it is cleared past a number of pairs.
 */
interface Reading {
  phase: StatusPhase;
  finished: boolean;
}
const readings = new Map<string, Map<string, Reading>>();
let readingsKept = 0;
const READINGS_KEPT = 4096;
/** Texts longer than this (code and name together) are read each time, not kept. */
const KEPT_TEXT = 200;

/** How many pairs are kept now (for tests). */
export const statusReadingsKept = (): number => readingsKept;

function readingOf(status: Status): Reading {
  // An absent code or name reads as an empty one (`phaseOf`, `finishOf`).
  const code = status.code ?? '';
  const name = status.name ?? '';
  if (code.length + name.length > KEPT_TEXT) return readAfresh(status);
  let byName = readings.get(code);
  const kept = byName?.get(name);
  if (kept) return kept;
  if (readingsKept >= READINGS_KEPT) {
    readings.clear();
    readingsKept = 0;
    byName = undefined;
  }
  if (!byName) readings.set(code, (byName = new Map()));
  const reading = readAfresh(status);
  byName.set(name, reading);
  readingsKept++;
  return reading;
}

function readAfresh(status: Status): Reading {
  const phase = phaseOf(status);
  return { phase, finished: finishOf(status, phase) };
}

/** The phase of a status (a load's latest, say); `other` when nothing in it says. */
export function statusPhase(status: Status | undefined): StatusPhase {
  return status ? readingOf(status).phase : 'other';
}

function phaseOf(status: Status): StatusPhase {
  const code = status.code?.trim().toUpperCase();
  const known = code ? BY_CODE.get(code) : undefined;
  if (known) return known;
  const name = status.name ?? '';
  for (const [words, phase] of BY_NAME) if (words.test(name)) return phase;
  return 'other';
}

/** Codes of a cancelled load: the service's spellings of it are not published, these are the usual. */
const CANCELLED_CODES: ReadonlySet<string> = new Set(['CAN', 'CNL', 'CXL']);
/** "Cancelled", "Load canceled", "Cancellation": not "Not cancelled" nor "Cancellation requested". */
const CANCELLED_NAME = /\bcancel(?:l?ed|lation)\b/i;
const NOT_DONE = /\bnot\b|\bunable\b|\bfailed\b|\battempt|\brequest/i;

/**
 * Whether a load's trip is over: delivered, or cancelled. A finished load needs no one's attention,
 * however long its phone has been quiet (`attention.ts`).
 */
export function isFinished(status: Status | undefined): boolean {
  return status ? readingOf(status).finished : false;
}

function finishOf(status: Status, phase: StatusPhase): boolean {
  const code = status.code?.trim().toUpperCase();
  if (code && CANCELLED_CODES.has(code)) return true;
  const name = status.name ?? '';
  if (CANCELLED_NAME.test(name) && !NOT_DONE.test(name)) return true;
  return phase === 'delivered';
}
