import { LoadView, PULL_ANSWER_VERSION, ProxyPullAnswer, type IncludeFlags } from '@/contract/proxy-api';
import { issuesFromZod, type ParseIssue } from '@/contract/parse-issue';
import type { Load, LoadBy } from '@/domain/model';
import { apiPost, ApiError, WrittenJson } from './api-client';

/** What a pull of some loads reads to: the loads, and what the proxy could not give or read. */
export interface PulledLoads {
  loads: Load[];
  missing: string[];
  /** Ids the proxy's store holds nothing for yet (several instances): not missing, not pulled yet. */
  pending?: string[];
  /** Loads the proxy sent that this page could not read. */
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
 * Where the loads read so far go while the rest are read: every `size` loads, `take` gets the ones
 * read since the last time (the last ones are not given: they come with the whole answer, which
 * holds every load).
 */
export interface LoadParts {
  size: number;
  take(loads: Load[]): void;
}

/**
 * Reads the proxy's pull answer into Loads with the strict schema of its own shape; a load that does
 * not fit costs only itself (listed as unreadable, with where and why).
 */
export function readPullAnswer(answer: ProxyPullAnswer, fetchedAt: number, part?: LoadParts): PulledLoads {
  if (answer.version !== PULL_ANSWER_VERSION)
    throw new ApiError(
      0,
      'version_mismatch',
      `The server was updated (its answers are version ${answer.version}, this page reads ${PULL_ANSWER_VERSION}): reload the page.`,
    );
  const loads: Load[] = [];
  const unreadable: ParseIssue[] = [];
  let given = 0;
  answer.loads.forEach((raw, i) => {
    if (part && loads.length - given >= part.size) {
      part.take(loads.slice(given));
      given = loads.length;
    }
    const read = LoadView.safeParse(raw, { reportInput: true });
    if (read.success) loads.push(read.data);
    else unreadable.push(...issuesFromZod(read.error, `loads[${i}]`, true));
  });
  const read: PulledLoads = { loads, missing: answer.missing, unreadable, fetchedAt, cursor: answer.cursor };
  if (answer.pending && answer.pending.length > 0) read.pending = answer.pending;
  return read;
}

/**
 * The ids of a watch list as JSON, written once per list: a board polls with the same 10,000 ids
 * every time, and only its cursor changes.
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

/** Pulls some loads from the proxy with a body already written, and reads them into the model. */
export async function pullWritten(
  by: LoadBy,
  body: WrittenJson,
  signal?: AbortSignal,
  part?: LoadParts,
): Promise<PulledLoads> {
  const answer = await apiPost(pullPath(by), body, ProxyPullAnswer, signal);
  return readPullAnswer(answer, Date.now(), part);
}

/** Pulls some loads from the proxy and reads them into the model. */
export function pullLoads(by: LoadBy, body: PullBody, signal?: AbortSignal): Promise<PulledLoads> {
  return pullWritten(by, writtenPull(body), signal);
}
