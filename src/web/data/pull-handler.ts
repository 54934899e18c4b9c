import { ApiError, onServedBuild, WrittenJson } from './api-client';
import { changesFrom, shareBoard, withUnchanged, type BoardData } from './board-data';
import { lastPerfMark } from '../lib/perf-marks';
import { documentUrlsKeeper } from './document-urls';
import { pullWritten, type LoadParts, type PulledLoads } from './pull-answer';
import { writtenPull } from './pull-body';
import type { AnswerMark, ApiErrorFields, PullReply, PullRequest } from './pull-protocol';
import type { Driver, Load, Place } from '@/domain/model';
import { earlyPointsOf, type LookRules } from '../lib/load-look';

function errorFields(error: unknown): ApiErrorFields {
  if (error instanceof ApiError) {
    const { status, code, message, details, retryAfter } = error;
    return { status, code, message, details, retryAfter };
  }
  return {
    status: 0,
    code: 'unexpected',
    message: `Reading the answer failed: ${error instanceof Error ? error.message : String(error)}`,
  };
}

/** How many views of many loads the worker keeps: a board and an inbox, each by both operations. */
const VIEWS_KEPT = 4;

/**
 * Loads per part of a full answer: few enough that the page copies a part in a task shorter than a
 * long one, while the worker reads the next part.
 */
const PART_SIZE = 2000;

/**
 * What the pull worker does with each message: pulls, reads the answer into loads, and posts them
 * (or the error) back with the time the answer arrived. An abort stops the pull's request.
 *
 * A pull for a view (a board, an inbox) also keeps the view as the page will have it after this
 * answer. When the page asked from the cursor of the view the worker holds, the worker sends only
 * the changes: a refresh in which 1,000 of 10,000 loads moved sends their new latest locations, not
 * 1,000 whole loads for the page to copy and merge again. Otherwise it sends the answer as read, and
 * the page merges it as it would without a worker.
 */
export function pullHandler(
  post: (reply: PullReply, transfer?: Transferable[]) => void,
): (request: PullRequest) => void {
  const running = new Map<number, AbortController>();
  // The page offers a reload when the server serves another build: it hears of it from here too.
  let build: string | undefined;
  onServedBuild((named) => {
    if (named !== build) post({ kind: 'build', build: (build = named) });
  });
  /** How the map's markers look, once the page told: whole answers of a view go to the map first. */
  let looks: LookRules | undefined;
  /** Pulls whose points were sent: what posts their loads, once the page asks for them. */
  const held = new Map<number, () => void>();
  const views = new Map<string, BoardData>();

  /**
   * The view after this answer, kept for the next poll. From a full answer, the answer. From a
   * delta, the view kept merged with it; the page merges the same delta into a view the worker
   * kept the same or earlier (every view the page has came from here), and merges are unions, so
   * both come out alike. Without a view kept, nothing can be kept.
   */
  const keep = (key: string, read: PulledLoads, text: string, since: string | undefined) => {
    const kept = views.get(key);
    views.delete(key);
    const next = since === undefined ? read : kept && merged(kept, read, text);
    if (next) {
      views.set(key, next);
      if (views.size > VIEWS_KEPT) views.delete(views.keys().next().value as string);
    }
    return { kept, next };
  };

  // Off the page, each watch list's documents: the page gets their URLs (the nav's badge).
  const documentUrls = documentUrlsKeeper((by, body, signal) => pullWritten(by, writtenPull(body), signal));
  /** The ids a watch list's JSON reads to, one array per list: what is made per list is made once. */
  const lists = new Map<string, readonly string[]>();
  const idsOf = (text: string): readonly string[] => {
    let ids = lists.get(text);
    if (!ids) {
      if (lists.size >= VIEWS_KEPT) lists.clear();
      lists.set(text, (ids = JSON.parse(text) as string[]));
    }
    return ids;
  };

  /**
   * Runs a request's work, abortable by its id, and posts what `reply` makes of the result, or the
   * error. The answer's mark is read in the same turn as the result: no other answer's can come between.
   */
  function run<T>(
    id: number,
    work: (signal: AbortSignal) => Promise<T>,
    reply: (result: T, answer: AnswerMark | undefined) => PullReply | null,
  ): void {
    const controller = new AbortController();
    running.set(id, controller);
    work(controller.signal).then(
      (result) => {
        const answer = lastPerfMark('answer');
        if (!running.delete(id)) return;
        const made = reply(result, answer);
        if (made) post(made);
      },
      (error: unknown) => {
        if (running.delete(id)) post({ kind: 'failed', id, error: errorFields(error) });
      },
    );
  }

  return (request) => {
    if (request.kind === 'abort') {
      running.get(request.id)?.abort();
      running.delete(request.id);
      held.delete(request.id);
      return;
    }
    if (request.kind === 'loads') {
      const send = held.get(request.id);
      held.delete(request.id);
      send?.();
      return;
    }
    if (request.kind === 'looks') {
      looks = request.rules;
      return;
    }
    if (request.kind === 'document-urls') {
      const { id, by, ids, key, known } = request;
      run(
        id,
        (signal) => documentUrls(by, idsOf(ids), key, known, signal),
        (urls, answer) => ({ kind: 'document-urls', id, urls, answer }),
      );
      return;
    }
    const { id, by, text, body, view, points: forMap } = request;
    // A full answer comes in parts, which the page copies while the rest is read. For the map, its
    // points come first, and the loads wait until the page asks for them (once the map drew): the
    // page's copies of the loads and its render of the board do not stand before the map's draw.
    let given = 0;
    const alike = sharedAlike();
    const early = view !== undefined && forMap && body.since === undefined ? looks : undefined;
    const kept: Load[][] = [];
    const parts: LoadParts | undefined =
      body.since === undefined
        ? {
            size: PART_SIZE,
            take(loads) {
              given += loads.length;
              if (early) kept.push(alike(loads));
              else post({ kind: 'part', id, loads: alike(loads) });
            },
          }
        : undefined;
    run(
      id,
      (signal) => pullWritten(by, new WrittenJson(body, text), signal, parts),
      (data, answer) => {
        const reply = answerOf(data, answer);
        if (!early || view === undefined) return reply;
        const points = earlyPointsOf(view, data.loads, early.at, early);
        const { coords, accuracy, looks: codes } = points;
        post({ kind: 'points', id, points }, [coords.buffer, accuracy.buffer, codes.buffer]);
        held.set(id, () => {
          for (const loads of kept) post({ kind: 'part', id, loads });
          post(reply);
        });
        return null;
      },
    );

    function answerOf(data: PulledLoads, answer: AnswerMark | undefined): PullReply {
      if (view !== undefined) {
        const { kept: before, next } = keep(view, data, text, body.since);
        const changes =
          body.since !== undefined && before?.cursor === body.since && next && changesFrom(before, next);
        if (changes && next) {
          const { loads: _, ...rest } = next;
          return { kind: 'patched', id, changes, rest, answer };
        }
      }
      const rest = { ...data, loads: alike(given > 0 ? data.loads.slice(given) : data.loads) };
      return { kind: 'pulled', id, data: rest, given, answer };
    }
  };
}

const LISTS = ['pings', 'events', 'comments', 'documents', 'readings', 'issues'] as const;

/**
 * Makes equal places and drivers of the loads one object each (a load's driver is mostly the same at
 * its latest location and status, and a few hundred towns hold 10,000 loads), and their empty lists
 * one empty array: a structured copy writes an object it meets again as a reference, so the page
 * reads and keeps each once. Nothing changes the lists of a load read (merges make new ones).
 * Mutates the loads it is given, which are the worker's own, just read.
 */
export function sharedAlike(): (loads: Load[]) => Load[] {
  const places = new Map<string, Place>();
  const drivers = new Map<string, Driver>();
  const none: never[] = [];
  const noExtras: Load['extras'] = {};
  const one = <T extends object>(kept: Map<string, T>, key: string, value: T): T => {
    const found = kept.get(key);
    if (found) return found;
    kept.set(key, value);
    return value;
  };
  const driver = (d: Driver) => one(drivers, `${d.name ?? '\u0001'}\u0000${d.phone ?? '\u0001'}`, d);
  return (loads) => {
    for (const load of loads) {
      const at = load.latestLocation;
      if (at) {
        const { city, state, country } = at.place;
        at.place = one(
          places,
          `${city ?? '\u0001'}\u0000${state ?? '\u0001'}\u0000${country ?? '\u0001'}`,
          at.place,
        );
        if (at.driver) at.driver = driver(at.driver);
      }
      const status = load.latestStatus;
      if (status?.driver) status.driver = driver(status.driver);
      // A board's loads come without their lists: each empty one is the same empty array.
      for (const list of LISTS) if (load[list].length === 0) load[list] = none;
      if (Object.keys(load.extras).length === 0) load.extras = noExtras;
    }
    return loads;
  };
}

/** The view kept, with a delta merged in as the page merges it (the ids are the body's). */
function merged(kept: BoardData, delta: PulledLoads, text: string): BoardData {
  const { ids } = JSON.parse(text) as { ids: string[] };
  return shareBoard(kept, withUnchanged(kept, delta, ids));
}
