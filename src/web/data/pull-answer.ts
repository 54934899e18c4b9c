import { LoadView, PULL_ANSWER_VERSION, ProxyPullAnswer } from '@/contract/load-view';
import { issuesFromZod, type ParseIssue } from '@/contract/parse-issue';
import { readerOf, UNSURE } from '@/contract/schema-reader';
import type { Load, LoadBy } from '@/domain/model';
import { apiPost, ApiError, notJson, type AnswerParse, type WrittenJson } from './api-client';
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
 * not fit costs only itself (listed as unreadable, with where and why). `raws` are the answer's
 * loads as parsed, when they come a part at a time (`loadLines`).
 */
export function readPullAnswer(
  answer: ProxyPullAnswer,
  fetchedAt: number,
  part?: LoadParts,
  raws: Iterable<unknown> = answer.loads,
): PulledLoads {
  if (answer.version !== PULL_ANSWER_VERSION)
    throw new ApiError(
      0,
      'version_mismatch',
      `The server was updated (its answers are version ${answer.version}, this page reads ${PULL_ANSWER_VERSION}): reload the page.`,
    );
  const loads: Load[] = [];
  const unreadable: ParseIssue[] = [];
  let given = 0;
  let i = 0;
  for (const raw of raws) {
    const fast = readLoadView(raw);
    if (fast !== UNSURE) loads.push(fast);
    else {
      const read = LoadView.safeParse(raw, { reportInput: true });
      if (read.success) loads.push(read.data);
      else unreadable.push(...issuesFromZod(read.error, `loads[${i}]`, true));
    }
    i++;
    // Given before the next loads are parsed (`raws` parses them a part at a time).
    if (part && loads.length - given >= part.size) {
      part.take(loads.slice(given));
      given = loads.length;
    }
  }
  const read: PulledLoads = { loads, missing: answer.missing, unreadable, fetchedAt, cursor: answer.cursor };
  if (answer.pending && answer.pending.length > 0) read.pending = answer.pending;
  return read;
}

const LOADS_OPEN = '"loads":[';

/**
 * A pull answer's text as the proxy lays it out (`ProxyPullAnswer`): each load on a line of its
 * own. Its envelope (everything but the loads) is parsed at once, and its loads `size` lines at a
 * time as they are asked for, so the first loads are read (and sent to the page) while the rest wait
 * to be parsed, instead of after the whole answer is. Undefined when the text is not laid
 * out so: it is parsed whole then. Should a part not parse as its lines' loads, the rest come from
 * the whole text parsed (`bad_json` if it is not JSON).
 */
export function loadLines(
  text: string,
  path: string,
): { envelope: unknown; raws(size: number): Iterable<unknown> } | undefined {
  const first = text.indexOf('\n');
  const last = text.lastIndexOf('\n');
  if (first < 0 || !text.startsWith(LOADS_OPEN, first - LOADS_OPEN.length) || text[last + 1] !== ']')
    return undefined;
  const envelope = JSON.parse(text.slice(0, first) + text.slice(last + 1)) as unknown;
  function* raws(partSize: number): Generator<unknown> {
    const size = Math.max(1, partSize);
    let at = first;
    let count = 0;
    while (at < last) {
      let end = at;
      let lines = 0;
      while (lines < size && end < last) {
        end = text.indexOf('\n', end + 1);
        lines++;
      }
      // Every line after the first starts with the comma between two loads.
      const body = text.slice(count === 0 ? at + 1 : at + 2, end);
      let part: unknown;
      try {
        part = JSON.parse(`[${body}]`);
      } catch {
        part = undefined;
      }
      if (!Array.isArray(part) || part.length !== lines) {
        yield* wholeLoads(text, path).slice(count);
        return;
      }
      yield* part;
      count += lines;
      at = end;
    }
  }
  return { envelope, raws };
}

function wholeLoads(text: string, path: string): unknown[] {
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch {
    throw notJson(200, path);
  }
  const loads = (whole as { loads?: unknown } | null)?.loads;
  if (!Array.isArray(loads))
    throw new ApiError(
      200,
      'bad_answer',
      `The answer of ${path} is not what was expected: no list of loads.`,
    );
  return loads;
}

/**
 * Pulls some loads from the proxy with a body already written, and reads them into the model; with
 * `part`, a part at a time as they are parsed.
 */
export async function pullWritten(
  by: LoadBy,
  body: WrittenJson,
  signal?: AbortSignal,
  part?: LoadParts,
): Promise<PulledLoads> {
  const path = pullPath(by);
  const laid: { lines?: ReturnType<typeof loadLines> } = {};
  const parse: AnswerParse | undefined = part
    ? (text) => {
        laid.lines = loadLines(text, path);
        return laid.lines ? laid.lines.envelope : JSON.parse(text);
      }
    : undefined;
  const answer = await apiPost(path, body, ProxyPullAnswer, signal, parse);
  return readPullAnswer(answer, Date.now(), part, part && laid.lines?.raws(part.size));
}

/** Pulls some loads from the proxy and reads them into the model. */
export function pullLoads(by: LoadBy, body: PullBody, signal?: AbortSignal): Promise<PulledLoads> {
  return pullWritten(by, writtenPull(body), signal);
}
