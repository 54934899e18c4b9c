import { POD_FLAG_KINDS, type PodCheck } from '@/contract/billing-api';
import type { DocumentReview } from '@/contract/review-api';
import type { Document, Load, LoadBy } from '@/domain/model';
import { tripStart } from '@/domain/geofence';
import { flagRank } from '@/domain/pod-flags';
import { documentStop } from '../../components/document-viewer';
import { compareLabels } from '../../lib/collate';
import { loadKey, loadLabel, mapHref, loadTitle } from '../../lib/load-ref';
import { fieldLabel, tripStops, type TripStop } from '../../lib/trip-stops';

/** The load a document belongs to, as the inbox shows it. */
export interface InboxLoad {
  /** `by:id` (see load-ref.ts). */
  key: string;
  by: LoadBy;
  id: string;
  /** Its load number or external id, whichever it is watched by. */
  label: string;
  /** The main map with this load selected: `/?load=e:<id>` or `/?load=n:<id>`. */
  mapHref: string;
}

/**
 * The stop a document was uploaded at, as the inbox names it: "Pickup" and the stop's place when the
 * load's stops say them, else the stop as the document gives it ("stop 2 (S2)").
 */
export interface InboxStop {
  /** What the stop filter matches: `pickup`, `delivery`, the stop as the document gives it, or ''. */
  key: string;
  /** "Pickup", "Delivery", "Stop 2 (S2)", or undefined when the document names no stop. */
  label: string | undefined;
  /** The stop's place from the load's stops ("Omaha, NE"), or undefined. */
  place: string | undefined;
}

/** One document in the queue. Its URL is its identity: each URL is in the queue once. */
export interface InboxDocument {
  url: string;
  doc: Document;
  load: InboxLoad;
  stop: InboxStop;
  /** The team's review of it (approved, rejected, or pending again after an undo), or none yet. */
  review: DocumentReview | undefined;
  /** Approved or rejected: decided, out of the queue to review. */
  reviewed: boolean;
}

const STOP_EXTERNAL_ID = fieldLabel('stopExternalId');

/** The load's stop a document names: by order number, else by the stop's id in the partner's system. */
function stopOfDocument(doc: Document, stops: readonly TripStop[] | null): TripStop | undefined {
  if (!stops) return undefined;
  if (doc.stopOrderNumber !== undefined) return stops.find((s) => s.order === doc.stopOrderNumber);
  if (doc.stopExternalId !== undefined)
    return stops.find((s) => s.details.some(([k, v]) => k === STOP_EXTERNAL_ID && v === doc.stopExternalId));
  return undefined;
}

export function inboxStop(doc: Document, stops: readonly TripStop[] | null): InboxStop {
  const stop = stopOfDocument(doc, stops);
  const place = stop && ([stop.place.city, stop.place.state].filter(Boolean).join(', ') || undefined);
  if (stop?.kind) return { key: stop.kind, label: stop.kind === 'pickup' ? 'Pickup' : 'Delivery', place };
  const given = documentStop(doc);
  return {
    key: given ?? '',
    label: given && given[0]!.toUpperCase() + given.slice(1),
    place,
  };
}

const sameStop = (a: InboxStop, b: InboxStop) =>
  a.key === b.key && a.label === b.label && a.place === b.place;

export function inboxLoad(load: Pick<Load, 'by' | 'id' | 'externalId' | 'loadNumber'>): InboxLoad {
  return {
    key: loadKey(load),
    by: load.by,
    id: load.id,
    label: loadLabel(load),
    mapHref: mapHref(load),
  };
}

/** Newest first; documents without a readable time last; ties by load, then address, so the order is stable. */
export function compareDocuments(
  a: Omit<InboxDocument, 'reviewed' | 'review' | 'stop'>,
  b: Omit<InboxDocument, 'reviewed' | 'review' | 'stop'>,
) {
  const ai = a.doc.instant;
  const bi = b.doc.instant;
  if (ai !== bi) {
    if (ai === null) return 1;
    if (bi === null) return -1;
    return bi - ai;
  }
  return compareLabels(a.load.label, b.load.label) || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0);
}

// A load or document that did not change is the same object after a refresh (shareBoard): so is its
// entry here, and memoized cards of unchanged documents are not drawn again.
const loadInfo = new Map<string, InboxLoad>();
const entries = new WeakMap<Document, Omit<InboxDocument, 'reviewed' | 'review'>>();

/**
 * Every document of these loads, newest first, each URL once (a load watched by both of its ids
 * brings the same documents twice; the first load keeps them).
 */
export function collectDocuments(loads: readonly Load[]): Omit<InboxDocument, 'reviewed' | 'review'>[] {
  const seen = new Set<string>();
  const out: Omit<InboxDocument, 'reviewed' | 'review'>[] = [];
  for (const load of loads) {
    if (load.documents.length === 0) continue;
    let info = inboxLoad(load);
    const before = loadInfo.get(info.key);
    if (before?.label === info.label) info = before;
    else loadInfo.set(info.key, info);
    const stops = tripStops(load);
    // The stops are the current trip's: a document of an earlier trip under the same ids names its own.
    const start = tripStart(load.events) ?? -Infinity;
    for (const doc of load.documents) {
      if (seen.has(doc.url)) continue;
      seen.add(doc.url);
      let entry = entries.get(doc);
      const stop = inboxStop(doc, doc.instant !== null && doc.instant < start ? null : stops);
      if (!entry || entry.load !== info || !sameStop(entry.stop, stop))
        entries.set(doc, (entry = { url: doc.url, doc, load: info, stop }));
      out.push(entry);
    }
  }
  return out.sort(compareDocuments);
}

// --- filters ------------------------------------------------------------------------------------------

export type ReviewFilter = 'unreviewed' | 'reviewed' | 'all';

export interface InboxFilters {
  /** A document type (`typeKey`), or undefined for every type. */
  type: string | undefined;
  /** A load's key, or undefined for every load. */
  load: string | undefined;
  /** A stop (`InboxStop.key`: `pickup`, `delivery`, a stop as a document gives it), or undefined for every stop. */
  stop: string | undefined;
  /** `YYYY-MM-DD` in the viewer's own zone, or '' for no bound; both ends included. */
  from: string;
  to: string;
  review: ReviewFilter;
}

export const DEFAULT_FILTERS: InboxFilters = {
  type: undefined,
  load: undefined,
  stop: undefined,
  from: '',
  to: '',
  review: 'unreviewed',
};

/** The type a document is filtered by: its type, or '' when it has none (types are never empty). */
export const typeKey = (doc: Pick<Document, 'type'>): string => doc.type ?? '';
/** Midnight starting a `YYYY-MM-DD` day in the viewer's zone, plus `days`; undefined for no date. */
function dayStart(text: string, days = 0): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const at = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days).getTime();
  return Number.isNaN(at) ? undefined : at;
}

/** Whether a date range is set: documents without a readable time are then left out. */
export const hasDateRange = (f: Pick<InboxFilters, 'from' | 'to'>) =>
  dayStart(f.from) !== undefined || dayStart(f.to) !== undefined;

/** The documents these filters let through, in the order given. */
export function filterDocuments(documents: readonly InboxDocument[], f: InboxFilters): InboxDocument[] {
  const from = dayStart(f.from);
  const until = dayStart(f.to, 1);
  return documents.filter((d) => {
    if (f.review === 'unreviewed' && d.reviewed) return false;
    if (f.review === 'reviewed' && !d.reviewed) return false;
    if (f.type !== undefined && typeKey(d.doc) !== f.type) return false;
    if (f.load !== undefined && d.load.key !== f.load) return false;
    if (f.stop !== undefined && d.stop.key !== f.stop) return false;
    if (from !== undefined || until !== undefined) {
      const at = d.doc.instant;
      if (at === null) return false;
      if (from !== undefined && at < from) return false;
      if (until !== undefined && at >= until) return false;
    }
    return true;
  });
}

export interface FilterOption {
  value: string;
  label: string;
  count: number;
}

/** What the filters read of a document: not its review, so a decision leaves the options alone. */
type Filed = Pick<InboxDocument, 'doc' | 'load' | 'stop'>;

function options(
  documents: readonly Filed[],
  key: (d: Filed) => string,
  label: (d: Filed) => string,
): FilterOption[] {
  const byKey = new Map<string, FilterOption>();
  for (const d of documents) {
    const k = key(d);
    const o = byKey.get(k);
    if (o) o.count += 1;
    else byKey.set(k, { value: k, label: label(d), count: 1 });
  }
  return [...byKey.values()].sort((a, b) => compareLabels(a.label, b.label));
}

/**
 * The types, loads and stops there are to filter by. Stops are Pickup / Delivery (or the stop a
 * document names, when the load's stops do not say which it is); with a load chosen, its stops
 * only, each with its place.
 */
export function filterOptions(documents: readonly Filed[], load: string | undefined) {
  return {
    types: options(
      documents,
      (d) => typeKey(d.doc),
      (d) => d.doc.type ?? '(no type)',
    ),
    loads: options(
      documents,
      (d) => d.load.key,
      (d) => loadTitle(d.load.label),
    ),
    stops: options(
      load === undefined ? documents : documents.filter((d) => d.load.key === load),
      (d) => d.stop.key,
      (d) =>
        load !== undefined && d.stop.label && d.stop.place
          ? `${d.stop.label} · ${d.stop.place}`
          : (d.stop.label ?? '(no stop)'),
      // In trip order: pickup, delivery, then the stops that do not say which they are.
    ).sort((a, b) => stopRank(a.value) - stopRank(b.value)),
  };
}

const stopRank = (key: string) => (key === 'pickup' ? 0 : key === 'delivery' ? 1 : 2);

export interface DocumentGroup {
  load: InboxLoad;
  documents: InboxDocument[];
}

/** Documents by load: the load with the newest document first, each load's documents in the order given. */
export function groupByLoad(documents: readonly InboxDocument[]): DocumentGroup[] {
  const groups = new Map<string, DocumentGroup>();
  for (const d of documents) {
    const g = groups.get(d.load.key);
    if (g) g.documents.push(d);
    else groups.set(d.load.key, { load: d.load, documents: [d] });
  }
  return [...groups.values()];
}

// --- stop checks --------------------------------------------------------------------------------------

/**
 * The documents with the worst stop-check flag first (`flagRank`: far from the stop before a missing
 * time), those without a flag after, each rank in the order given (newest first).
 */
export function flaggedFirst(
  documents: readonly InboxDocument[],
  checks: ReadonlyMap<string, PodCheck>,
): InboxDocument[] {
  const rank = (d: InboxDocument) => {
    const check = checks.get(d.url);
    return check ? flagRank(check) : POD_FLAG_KINDS.length;
  };
  return documents
    .map((d, i) => ({ d, i, r: rank(d) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.d);
}
