import { LoadView, PULL_ANSWER_VERSION, ProxyPullAnswer } from '@/contract/load-view';
import { issuesFromZod, type ParseIssue } from '@/contract/parse-issue';
import { readerOf, UNSURE } from '@/contract/schema-reader';
import type { Load, LoadBy } from '@/domain/model';
import { apiPost, ApiError, type WrittenJson } from './api-client';
import { writtenPull, type PullBody } from './pull-body';

/**
 * Reading the proxy's pull answer with the strict schema of its shape. The pull worker reads its
 * answers with it; the page imports it only where it pulls itself (no worker, one load's track), on
 * demand, so the first page does not carry the loads' schemas.
 */

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

/** The same schema's fast reader: a load it cannot vouch for is parsed by the schema (and said why). */
const readLoadView = readerOf(LoadView);

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
    const fast = readLoadView(raw);
    if (fast !== UNSURE) {
      loads.push(fast);
      return;
    }
    const read = LoadView.safeParse(raw, { reportInput: true });
    if (read.success) loads.push(read.data);
    else unreadable.push(...issuesFromZod(read.error, `loads[${i}]`, true));
  });
  const read: PulledLoads = { loads, missing: answer.missing, unreadable, fetchedAt, cursor: answer.cursor };
  if (answer.pending && answer.pending.length > 0) read.pending = answer.pending;
  return read;
}

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
