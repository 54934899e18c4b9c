import type { Load, LoadBy } from '@/domain/model';
import { ApiError } from './api-client';
import { noteServedBuild } from './served-build';
import { withChanges, withUnchanged, type BoardData } from './board-data';
import type { EarlyPoints, LookRules } from '../lib/load-look';
import { perfMark } from '../lib/perf-marks';
import type { documentUrlsKeeper } from './document-urls';
import type { PulledLoads } from './pull-answer';
import { idsJsonOf, writtenPull, type PullBody } from './pull-body';
import type { PullReply, PullRequest } from './pull-protocol';
import { startWorker, stopWorker, type WorkerLike } from '../lib/worker-like';

/** The pull worker, or a stand-in for it. */
export type PullWorkerLike = WorkerLike<PullRequest, PullReply>;

/** A view of many loads a pull refreshes: its key, and the view the page has (if it asks from its cursor). */
export interface PullView {
  key: string;
  previous: BoardData | undefined;
  /** The map draws this view: its points may come ahead of its loads (`lookRules`). */
  points?: boolean;
}

/**
 * Pulls some loads. With a view, what comes back is the view after this answer: the previous one
 * with the changed loads in their places (a body with `since` gets only the loads that changed).
 */
export type PullFn = (
  by: LoadBy,
  body: PullBody,
  signal?: AbortSignal,
  view?: PullView,
) => Promise<PulledLoads>;

/** The URLs of the documents of many loads (`documentUrlsKeeper`), kept where the pulls run. */
export type DocumentUrlsFn = ReturnType<typeof documentUrlsKeeper>;

/** The view after an answer read as it came: a delta goes into the previous view, a full answer is it. */
function afterAnswer(data: PulledLoads, body: PullBody, view: PullView | undefined): PulledLoads {
  return view?.previous && body.since ? withUnchanged(view.previous, data, body.ids) : data;
}

// The page reads answers itself only without a worker: the reader (and the loads' schemas) comes
// then, not with the first page.
const pullAnswer = () => import('./pull-answer');

/** A pull made and read on the page's thread (no worker, or after it failed). */
const pullHere: PullFn = async (by, body, signal, view) => {
  const { pullWritten } = await pullAnswer();
  return afterAnswer(await pullWritten(by, writtenPull(body), signal), body, view);
};

/** Pulls some loads on the page's thread, for the documents kept there. */
const pullLoadsHere = async (by: LoadBy, body: PullBody, signal?: AbortSignal): Promise<PulledLoads> =>
  (await pullAnswer()).pullLoads(by, body, signal);

const startPullWorker = () =>
  startWorker<PullRequest, PullReply>(
    () => new Worker(new URL('./pull-worker.ts', import.meta.url), { type: 'module', name: 'pulls' }),
  );

/**
 * How long a pull's loads wait in the worker for the map to draw their points, at most (a map that
 * cannot draw, being hidden, must not hold the board back for long).
 */
export const EARLY_WAIT_MS = 1000;

/** A reply that settles a request (parts of a full answer come before it). */
type Answered = Exclude<PullReply, { kind: 'failed' | 'part' }>;

/** A full answer with the loads that came in parts before it put back in front of its own. */
function withParts(reply: Extract<PullReply, { kind: 'pulled' }>, parts: Load[][]): Answered {
  const given = parts.reduce((n, part) => n + part.length, 0);
  if (given !== reply.given)
    throw new Error(`The background pull sent ${given} loads in parts where it said ${reply.given}.`);
  if (given === 0) return reply;
  return { ...reply, data: { ...reply.data, loads: [...parts.flat(), ...reply.data.loads] } };
}

/** A request the worker holds: what to do with its reply, and how to make it on the page instead. */
interface Waiting {
  reply(reply: Answered): void;
  /** The parts of a full answer that came so far (copied as each came). */
  parts: Load[][];
  here(): void;
  reject: (error: unknown) => void;
}

/**
 * Pulls of many loads made and read in a worker, where the browser has them: parsing a board's
 * refresh and reading it into loads is long work for the page's main thread, and its garbage would
 * be the page's to collect. The page gets the loads as a structured copy. Without a worker (jsdom),
 * or once it failed, pulls run on the page, and a pull the worker held is made again there: a pull
 * from the proxy can be repeated (the proxy alone keeps the upstream's cursor).
 */
export function pullThread(makeWorker: () => PullWorkerLike | null = startPullWorker): {
  pull: PullFn;
  documentUrls: DocumentUrlsFn;
  /**
   * The rules the map's looks are judged by: from then on the worker sends the map's points of a
   * whole answer of a view before its loads (`earlyPoints`). Without a worker, none come.
   */
  lookRules(rules: LookRules): void;
  /** The map's points of the last whole answer of a view, if the worker sent them. */
  earlyPoints(view: string): EarlyPoints | undefined;
  /** Calls `listener` when early points come; returns the unsubscribing. */
  onEarlyPoints(listener: () => void): () => void;
  /**
   * The map waits for this view's early points, to draw them: when they come, their loads wait in
   * the worker until `earlyDrawn` (at most `EARLY_WAIT_MS`). Returns the undoing. The loads of
   * points no one waits for come at once.
   */
  awaitEarly(view: string): () => void;
  /** The map drew the early points it waited for: their loads may come now. */
  earlyDrawn(): void;
  where(): 'worker' | 'page';
  dispose(): void;
} {
  let worker: PullWorkerLike | null | undefined;
  const waiting = new Map<number, Waiting>();
  let rulesNow: LookRules | undefined;
  /** The early points of each view, the last whole answer's (a board and an inbox, by both operations). */
  const early = new Map<string, EarlyPoints>();
  const earlyListeners = new Set<() => void>();
  /** The views whose early points the map waits for (how many wait for each). */
  const awaited = new Map<string, number>();
  /** Pulls whose loads wait in the worker for the map to draw their points, and their fallback timers. */
  const loadsHeld = new Map<number, ReturnType<typeof setTimeout>>();
  const sendLoads = (id: number) => {
    clearTimeout(loadsHeld.get(id));
    loadsHeld.delete(id);
    worker?.postMessage({ kind: 'loads', id });
  };
  let nextId = 0;
  // The documents kept on the page, where there is no worker (or it failed): their keeper's code
  // comes then, not with the first page.
  let urlsHere: Promise<DocumentUrlsFn> | undefined;
  const documentUrlsHere: DocumentUrlsFn = async (...args) => {
    urlsHere ??= import('./document-urls').then(
      (m) => m.documentUrlsKeeper(pullLoadsHere),
      (error: unknown) => {
        urlsHere = undefined;
        throw error;
      },
    );
    return (await urlsHere)(...args);
  };

  const stop = () => {
    for (const timer of loadsHeld.values()) clearTimeout(timer);
    loadsHeld.clear();
    if (!worker) return;
    stopWorker(worker);
    worker = null;
  };
  const fallBack = () => {
    stop();
    const held = [...waiting.values()];
    waiting.clear();
    for (const w of held) w.here();
  };

  // Started at the first pull, not when the module loads: a page without pulls needs no worker.
  const ready = (): PullWorkerLike | null => {
    if (worker !== undefined) return worker;
    worker = makeWorker();
    if (worker) {
      worker.onmessage = (event) => {
        const reply = event.data;
        if (reply.kind === 'build') return noteServedBuild(reply.build);
        const w = waiting.get(reply.id);
        if (!w) return;
        if (reply.kind === 'part') {
          w.parts.push(reply.loads);
          return;
        }
        if (reply.kind === 'points') {
          early.delete(reply.points.view);
          early.set(reply.points.view, reply.points);
          if (early.size > 4) early.delete(early.keys().next().value as string);
          for (const listener of earlyListeners) listener();
          // No point to draw: the map has nothing to say it drew.
          if (!awaited.has(reply.points.view) || reply.points.keys.length === 0) sendLoads(reply.id);
          else
            loadsHeld.set(
              reply.id,
              setTimeout(() => sendLoads(reply.id), EARLY_WAIT_MS),
            );
          return;
        }
        waiting.delete(reply.id);
        if (reply.kind !== 'failed' && reply.answer)
          perfMark(
            'answer',
            { ...reply.answer.detail, in: 'worker' },
            reply.answer.at - performance.timeOrigin,
          );
        if (reply.kind !== 'failed') w.reply(reply);
        else {
          const { status, code, message, details, retryAfter } = reply.error;
          w.reject(new ApiError(status, code, message, details, retryAfter));
        }
      };
      worker.onerror = fallBack;
      worker.onmessageerror = fallBack;
      if (rulesNow) worker.postMessage({ kind: 'looks', rules: rulesNow });
    }
    return worker;
  };

  /**
   * Sends a request to the worker, and settles with what `read` makes of its reply; `here` makes
   * the request on the page instead. An abort rejects at once, and tells the worker.
   */
  function ask<T>(
    signal: AbortSignal | undefined,
    request: (id: number) => PullRequest,
    read: (reply: Answered) => T,
    here: () => Promise<T>,
  ): Promise<T> {
    const w = ready();
    if (!w) return here();
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const id = nextId++;
      const parts: Load[][] = [];
      waiting.set(id, {
        reply(reply) {
          try {
            resolve(read(reply.kind === 'pulled' ? withParts(reply, parts) : reply));
          } catch (error) {
            reject(error);
          }
        },
        here: () => void here().then(resolve, reject),
        reject,
        parts,
      });
      signal?.addEventListener(
        'abort',
        () => {
          if (!waiting.delete(id)) return;
          worker?.postMessage({ kind: 'abort', id });
          reject(signal.reason);
        },
        { once: true },
      );
      w.postMessage(request(id));
    });
  }

  const pull: PullFn = (by, body, signal, view) => {
    const { ids: _, ...rest } = body;
    return ask(
      signal,
      (id) => ({
        kind: 'pull',
        id,
        by,
        text: writtenPull(body).text,
        body: rest,
        ...(view ? { view: view.key } : {}),
        ...(view?.points ? { points: true } : {}),
      }),
      (reply) => {
        if (reply.kind === 'pulled') return afterAnswer(reply.data, body, view);
        const previous = view?.previous;
        const next = reply.kind === 'patched' && previous && withChanges(previous, reply.changes, reply.rest);
        if (next) return next;
        throw new ApiError(
          0,
          'unexpected',
          'The loads read in the background do not fit the view; the next refresh reads them again.',
        );
      },
      () => pullHere(by, body, signal, view),
    );
  };

  const documentUrls: DocumentUrlsFn = (by, ids, key, known, signal) =>
    ask(
      signal,
      (id) => ({ kind: 'document-urls', id, by, ids: idsJsonOf(ids), key, known }),
      (reply) => {
        if (reply.kind === 'document-urls') return reply.urls;
        throw new ApiError(0, 'unexpected', 'The background pull answered another question.');
      },
      () => documentUrlsHere(by, ids, key, known, signal),
    );

  return {
    pull,
    documentUrls,
    lookRules(rules) {
      if (
        rulesNow?.excursionTolerance === rules.excursionTolerance &&
        rulesNow.at === rules.at &&
        rulesNow.thresholds.staleAfterMinutes === rules.thresholds.staleAfterMinutes &&
        rulesNow.thresholds.silentAfterMinutes === rules.thresholds.silentAfterMinutes
      )
        return;
      rulesNow = rules;
      worker?.postMessage({ kind: 'looks', rules });
    },
    earlyPoints: (view) => early.get(view),
    onEarlyPoints(listener) {
      earlyListeners.add(listener);
      return () => earlyListeners.delete(listener);
    },
    awaitEarly(view) {
      awaited.set(view, (awaited.get(view) ?? 0) + 1);
      return () => {
        const n = (awaited.get(view) ?? 1) - 1;
        if (n > 0) awaited.set(view, n);
        else awaited.delete(view);
      };
    },
    earlyDrawn() {
      for (const id of [...loadsHeld.keys()]) sendLoads(id);
    },
    where: () => (worker ? 'worker' : 'page'),
    dispose() {
      stop();
      waiting.clear();
    },
  };
}

/** The page's pulls of many loads: in one worker, started at the first pull. */
export const pullsOffPage = pullThread();
