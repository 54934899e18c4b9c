import { ProxyPullAnswer, type IncludeFlags } from '@/contract/proxy-api';
import { parseLoadDetail } from '@/contract/parse-pull';
import type { ParseIssue } from '@/contract/parse-issue';
import type { Load, LoadBy } from '@/domain/model';
import { normalizeLoad } from '@/domain/normalize';
import { apiPost, WrittenJson } from './api-client';

/** What a pull of some loads reads to: the loads, and what the proxy could not give or read. */
export interface PulledLoads {
  loads: Load[];
  missing: string[];
  /** Loads the proxy sent that could not be read at all. */
  unreadable: ParseIssue[];
  fetchedAt: number;
  /** The proxy's cursor: the next poll asks only for what changed after it. */
  cursor: string;
}

/** A pull's body, as the proxy takes it (`/api/pull/by-…`). */
export interface PullBody {
  ids: readonly string[];
  include: IncludeFlags;
  since?: string;
}

export const pullPath = (by: LoadBy) => `/api/pull/by-${by}`;

/**
 * Notes the proxy sends for many loads alike ("undocumented field stops kept", for each of 10,000
 * loads) are one object each: read apart, every answer held them 10,000 times.
 */
type ProxyNote = NonNullable<ProxyPullAnswer['issues']>[string][number];
const sharedNotes = new Map<string, ParseIssue>();
function shared(note: ProxyNote): ParseIssue {
  const key = `${note.path}\u0000${note.kind}\u0000${note.message}\u0000${String(note.skipped)}`;
  let one = sharedNotes.get(key);
  if (!one) {
    // Bounded: notes name paths and values, and a long day's answers must not pile them up.
    if (sharedNotes.size >= 1000) sharedNotes.clear();
    sharedNotes.set(key, (one = note as ParseIssue));
  }
  return one;
}

/**
 * Where the loads read so far go while the rest are read: every `size` loads, `take` gets the ones
 * read since the last time (the last ones are not given: they come with the whole answer, which
 * holds every load).
 */
export interface LoadParts {
  size: number;
  take(loads: Load[]): void;
}

/** What of each load a view keeps beyond its latest location, status, temperature and lists. */
export interface ReadOptions {
  /**
   * The load's undocumented fields (stops, say): its own page shows them. A view of many loads does
   * not, and would hold them for each of 10,000 loads, and compare them again at every refresh.
   */
  extras: boolean;
}

const NO_EXTRAS: Load['extras'] = Object.freeze({});

/**
 * Reads the proxy's pull answer into Loads; one bad load costs only itself. Each load keeps the
 * notes the proxy sent for it, and the browser's own notes of what it skipped: those of fields it
 * kept repeat the proxy's (the proxy serves only what it read), one object per load for nothing.
 */
export function readPullAnswer(
  answer: ProxyPullAnswer,
  by: LoadBy,
  fetchedAt: number,
  { extras }: ReadOptions = { extras: true },
  part?: LoadParts,
): PulledLoads {
  const loads: Load[] = [];
  const unreadable: ParseIssue[] = [];
  let given = 0;
  answer.details.forEach((raw, i) => {
    if (part && loads.length - given >= part.size) {
      part.take(loads.slice(given));
      given = loads.length;
    }
    const issues: ParseIssue[] = [];
    const path = `details[${i}]`;
    const detail = parseLoadDetail(raw, path, issues);
    // The browser keeps the model only: the wire items are the proxy's to serve again.
    const load = detail ? normalizeLoad(detail, by, path, issues, { keepSource: false }) : undefined;
    if (load) {
      if (!extras) load.extras = NO_EXTRAS;
      const own = load.issues.some((i) => !i.skipped) ? load.issues.filter((i) => i.skipped) : load.issues;
      // What the proxy noted when it read the upstream's answers for this load.
      const upstream = answer.issues?.[load.id];
      load.issues = upstream && upstream.length > 0 ? [...upstream.map(shared), ...own] : own;
      loads.push(load);
    } else unreadable.push(...issues);
  });
  return { loads, missing: answer.missing, unreadable, fetchedAt, cursor: answer.cursor };
}

/**
 * The ids of a watch list as JSON, written once per list: a board polls with the same 10,000 ids
 * (100 kB of JSON) every time, and only its cursor changes.
 */
const idsJson = new WeakMap<readonly string[], string>();

/** A watch list's ids as JSON, the same text each time for the same array. */
export function idsJsonOf(list: readonly string[]): string {
  let ids = idsJson.get(list);
  if (ids === undefined) idsJson.set(list, (ids = JSON.stringify(list)));
  return ids;
}

/** A pull's body as JSON, the same text `JSON.stringify(body)` writes. */
export function pullBodyJson(body: PullBody): string {
  const ids = idsJsonOf(body.ids);
  const { ids: _, ...others } = body;
  // `{"ids":0,…}`: the ids go where the 0 is.
  return `{"ids":${ids}${JSON.stringify({ ids: 0, ...others }).slice('{"ids":0'.length)}`;
}

/** A pull's body written out once: the text sent, and the body it was written from. */
export const writtenPull = (body: PullBody): WrittenJson => new WrittenJson(body, pullBodyJson(body));

/**
 * Pulls some loads from the proxy with a body already written, and reads them into the model. A body
 * that leaves the undocumented fields out (`include.extras: false`) gets loads without them.
 */
export async function pullWritten(
  by: LoadBy,
  body: WrittenJson,
  signal?: AbortSignal,
  part?: LoadParts,
): Promise<PulledLoads> {
  const answer = await apiPost(pullPath(by), body, ProxyPullAnswer, signal);
  const { include } = body.value as Partial<PullBody>;
  return readPullAnswer(answer, by, Date.now(), { extras: include?.extras !== false }, part);
}

/** Pulls some loads from the proxy and reads them into the model. */
export function pullLoads(by: LoadBy, body: PullBody, signal?: AbortSignal): Promise<PulledLoads> {
  return pullWritten(by, writtenPull(body), signal);
}
