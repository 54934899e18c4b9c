import type { Comment, Document, Load, Ping, Place, StatusEvent, TemperatureReading } from '@/domain/model';
import type { ItemTime } from '@/domain/model';
import { documentPlace, documentStop } from '../../components/document-viewer';
import { coordinatesText, formatAccuracy } from '../../lib/format';
import { isNoiseEvent, type NoiseRule } from '@/domain/noise-rules';
import { excursionRuns, formatTemperature, type ExcursionRun } from '../../lib/temperature-series';

export type TimelineKind = 'status' | 'comment' | 'document' | 'excursion' | 'ping';

/** The kinds in the order the filters list them, with their names in words. */
export const TIMELINE_KINDS: readonly { kind: TimelineKind; label: string }[] = [
  { kind: 'status', label: 'Status events' },
  { kind: 'comment', label: 'Comments' },
  { kind: 'document', label: 'Documents' },
  { kind: 'excursion', label: 'Temperature excursions' },
  { kind: 'ping', label: 'Pings' },
];

interface Base {
  /** `kind:` and the domain's key of the item: unique across the whole timeline. */
  key: string;
  /** Epoch ms; null for a document whose time could not be read (listed last). */
  instant: number | null;
  time: ItemTime;
}

export type TimelineItem =
  | (Base & { kind: 'status'; event: StatusEvent; noise: boolean })
  | (Base & { kind: 'comment'; comment: Comment })
  | (Base & { kind: 'document'; document: Document; documentIndex: number })
  | (Base & { kind: 'excursion'; run: ExcursionRun; unit: string | undefined })
  | (Base & { kind: 'ping'; ping: Ping });

/** "Omaha, NE, US", or undefined. */
export function placeText(place: Place | undefined): string | undefined {
  if (!place) return undefined;
  return [place.city, place.state, place.country].filter(Boolean).join(', ') || undefined;
}

export const commentAuthor = (by: Comment['by']) =>
  by === 'driver' ? 'Driver' : by === 'broker' ? 'Broker' : 'Unknown sender';

/** Documents newest first (those without a readable time last): the order the page shows them in. */
export function documentsNewestFirst(docs: readonly Document[]): Document[] {
  return [...docs].sort(
    (a, b) => (b.instant ?? -Infinity) - (a.instant ?? -Infinity) || (a.key < b.key ? -1 : 1),
  );
}

const KIND_ORDER: Record<TimelineKind, number> = {
  status: 0,
  excursion: 1,
  comment: 2,
  document: 3,
  ping: 4,
};

/** Newest first by instant (the moment, not the wall time of some zone); untimed last; then stable. */
export function compareNewestFirst(a: TimelineItem, b: TimelineItem): number {
  return (
    (b.instant ?? -Infinity) - (a.instant ?? -Infinity) ||
    KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
    (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
  );
}

const words = (...parts: (string | number | undefined)[]) =>
  parts
    .filter((p) => p !== undefined && p !== '')
    .join(' ')
    .toLowerCase();

/**
 * Everything the upstream knows about a load is one list, newest first: status events, comments,
 * documents (indexed into `documents`, the order the viewer steps through), temperature excursions
 * (one item per run of readings out of range) and pings. This is its track's part. The readings come
 * in an answer of their own, later: their excursions (`excursionTimeline`) are merged in with
 * `mergeNewestFirst` rather than the 25,000 items of the track built and sorted again.
 */
export function trackTimeline(
  load: Pick<Load, 'events' | 'comments' | 'pings'>,
  documents: readonly Document[],
  noiseRules: readonly NoiseRule[],
): TimelineItem[] {
  const items: TimelineItem[] = [];
  for (const event of load.events) {
    items.push({
      kind: 'status',
      key: `status:${event.key}`,
      instant: event.instant,
      time: event.time,
      event,
      noise: isNoiseEvent(event, noiseRules),
    });
  }
  for (const comment of load.comments) {
    items.push({
      kind: 'comment',
      key: `comment:${comment.key}`,
      instant: comment.instant,
      time: comment.time,
      comment,
    });
  }
  documents.forEach((document, documentIndex) => {
    items.push({
      kind: 'document',
      key: `document:${document.key}`,
      instant: document.instant,
      time: document.time,
      document,
      documentIndex,
    });
  });
  for (const ping of load.pings) {
    items.push({
      kind: 'ping',
      key: `ping:${ping.key}`,
      instant: ping.instant,
      time: ping.time,
      ping,
    });
  }
  return items.sort(compareNewestFirst);
}

/** One timeline item per temperature excursion (a run of readings out of range), newest first. */
export function excursionTimeline(
  readings: readonly TemperatureReading[],
  tolerance: number,
): TimelineItem[] {
  const items: TimelineItem[] = [];
  const unit = readings.findLast((r) => r.unit)?.unit;
  for (const run of excursionRuns(readings, tolerance)) {
    items.push({
      kind: 'excursion',
      key: `excursion:${run.key}`,
      instant: run.first.instant,
      time: run.first.time,
      run,
      unit,
    });
  }
  return items.sort(compareNewestFirst);
}

/** Two lists, each newest first, as one; the first list itself when the second is empty. */
export function mergeNewestFirst(a: TimelineItem[], b: TimelineItem[]): TimelineItem[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out: TimelineItem[] = new Array<TimelineItem>(a.length + b.length);
  let i = 0;
  let j = 0;
  for (let k = 0; k < out.length; k++)
    out[k] =
      j >= b.length || (i < a.length && compareNewestFirst(a[i] as TimelineItem, b[j] as TimelineItem) <= 0)
        ? (a[i++] as TimelineItem)
        : (b[j++] as TimelineItem);
  return out;
}

/**
 * The lower-cased text a search looks in. Made the first time a search needs it, and kept: a load
 * with 20,000 pings would otherwise build 20,000 strings on every change, for a search box mostly
 * left empty.
 */
const searchTexts = new WeakMap<TimelineItem, string>();
export function searchText(item: TimelineItem): string {
  let text = searchTexts.get(item);
  if (text === undefined) searchTexts.set(item, (text = describe(item)));
  return text;
}

function describe(item: TimelineItem): string {
  switch (item.kind) {
    case 'status': {
      const e = item.event;
      return words('status', e.name, e.code, e.driver?.name, e.time.local);
    }
    case 'comment': {
      const c = item.comment;
      return words('comment', commentAuthor(c.by), c.text, c.driver?.name, placeText(c.place), c.time.local);
    }
    case 'document': {
      const d = item.document;
      return words('document', d.type, documentStop(d), d.driver?.name, documentPlace(d), d.time.local);
    }
    case 'excursion': {
      const run = item.run;
      return words(
        'temperature excursion',
        run.worst.which,
        formatTemperature(run.worst.value, item.unit),
        run.first.deviceId,
        run.first.time.local,
      );
    }
    case 'ping': {
      const p = item.ping;
      return words('ping', coordinatesText(p), formatAccuracy(p.accuracy), p.driver?.name, p.time.local);
    }
  }
}

export interface TimelineFilter {
  kinds: ReadonlySet<TimelineKind>;
  text: string;
  showNoise: boolean;
}

export const ALL_KINDS: ReadonlySet<TimelineKind> = new Set(TIMELINE_KINDS.map((k) => k.kind));

/**
 * What the timeline opens with: what happened to the load. Pings (most of its items: one every few
 * minutes) would bury the status events; they come on request, and have a list of their own.
 */
export const DEFAULT_KINDS: ReadonlySet<TimelineKind> = new Set(
  TIMELINE_KINDS.map((k) => k.kind).filter((k) => k !== 'ping'),
);

export function filterTimeline(items: readonly TimelineItem[], f: TimelineFilter): TimelineItem[] {
  const terms = f.text.trim().toLowerCase().split(/\s+/).filter(Boolean);
  return items.filter(
    (item) =>
      f.kinds.has(item.kind) &&
      (f.showNoise || item.kind !== 'status' || !item.noise) &&
      terms.every((t) => searchText(item).includes(t)),
  );
}

export function countByKind(
  items: readonly TimelineItem[],
): Record<TimelineKind, number> & { noise: number } {
  const counts = { status: 0, comment: 0, document: 0, excursion: 0, ping: 0, noise: 0 };
  for (const item of items) {
    counts[item.kind]++;
    if (item.kind === 'status' && item.noise) counts.noise++;
  }
  return counts;
}
