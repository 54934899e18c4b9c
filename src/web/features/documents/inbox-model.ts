import type { Document, Load, LoadBy } from '@/domain/model';
import { documentStop } from '../../components/document-viewer';
import { compareLabels } from '../../lib/collate';
import { loadKey, loadLabel, mapHref, loadTitle } from '../../lib/load-ref';

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

/** One document in the queue. Its URL is its identity: each URL is in the queue once. */
export interface InboxDocument {
  url: string;
  doc: Document;
  load: InboxLoad;
  reviewed: boolean;
}

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
export function compareDocuments(a: Omit<InboxDocument, 'reviewed'>, b: Omit<InboxDocument, 'reviewed'>) {
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
const entries = new WeakMap<Document, Omit<InboxDocument, 'reviewed'>>();

/**
 * Every document of these loads, newest first, each URL once (a load watched by both of its ids
 * brings the same documents twice; the first load keeps them).
 */
export function collectDocuments(loads: readonly Load[]): Omit<InboxDocument, 'reviewed'>[] {
  const seen = new Set<string>();
  const out: Omit<InboxDocument, 'reviewed'>[] = [];
  for (const load of loads) {
    if (load.documents.length === 0) continue;
    let info = inboxLoad(load);
    const before = loadInfo.get(info.key);
    if (before?.label === info.label) info = before;
    else loadInfo.set(info.key, info);
    for (const doc of load.documents) {
      if (seen.has(doc.url)) continue;
      seen.add(doc.url);
      let entry = entries.get(doc);
      if (!entry || entry.load !== info) entries.set(doc, (entry = { url: doc.url, doc, load: info }));
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
  /** A stop (`stopKey`), or undefined for every stop. */
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
/** The stop a document is filtered by: "stop 1 (S1)", or '' when it names none. */
export const stopKey = (doc: Pick<Document, 'stopOrderNumber' | 'stopExternalId'>): string =>
  documentStop(doc) ?? '';

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
    if (f.stop !== undefined && stopKey(d.doc) !== f.stop) return false;
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

function options(
  documents: readonly InboxDocument[],
  key: (d: InboxDocument) => string,
  label: (d: InboxDocument) => string,
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

/** The types, loads and stops there are to filter by; stops of the chosen load only. */
export function filterOptions(documents: readonly InboxDocument[], load: string | undefined) {
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
      (d) => stopKey(d.doc),
      (d) => documentStop(d.doc) ?? '(no stop)',
    ),
  };
}

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
