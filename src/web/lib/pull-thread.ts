import type { LoadBy } from '@/domain/model';
import { ApiError } from './api-client';
import { withChanges, withUnchanged, type BoardData } from './board-data';
import { perfMark } from './perf-marks';
import { pullWritten, writtenPull, type PullBody, type PulledLoads, type ReadOptions } from './pull-answer';
import type { PullReply, PullRequest } from './pull-protocol';
import { startWorker, stopWorker, type WorkerLike } from './worker-like';

/** The pull worker, or a stand-in for it. */
export type PullWorkerLike = WorkerLike<PullRequest, PullReply>;

/** A view of many loads a pull refreshes: its key, and the view the page has (if it asks from its cursor). */
export interface PullView {
  key: string;
  previous: BoardData | undefined;
}

/**
 * Pulls some loads. With a view, what comes back is the view after this answer: the previous one
 * with the changed loads in their places (a body with `since` gets only the loads that changed).
 */
export type PullFn = (
  by: LoadBy,
  body: PullBody,
  signal?: AbortSignal,
  options?: ReadOptions,
  view?: PullView,
) => Promise<PulledLoads>;

/** The view after an answer read as it came: a delta goes into the previous view, a full answer is it. */
function afterAnswer(data: PulledLoads, body: PullBody, view: PullView | undefined): PulledLoads {
  return view?.previous && body.since ? withUnchanged(view.previous, data, body.ids) : data;
}

/** A pull made and read on the page's thread (no worker, or after it failed). */
const pullHere: PullFn = (by, body, signal, options, view) =>
  pullWritten(by, writtenPull(body), signal, options).then((data) => afterAnswer(data, body, view));

const startPullWorker = () =>
  startWorker<PullRequest, PullReply>(
    () => new Worker(new URL('./pull-worker.ts', import.meta.url), { type: 'module', name: 'pulls' }),
  );

interface Waiting {
  by: LoadBy;
  body: PullBody;
  options: ReadOptions;
  view: PullView | undefined;
  signal: AbortSignal | undefined;
  resolve: (data: PulledLoads) => void;
  reject: (error: unknown) => void;
}

/**
 * Pulls of many loads made and read in a worker, where the browser has them: the answer of a board's
 * refresh (a megabyte of JSON for 1,000 moved loads) was parsed and read into loads on the page's
 * main thread, about 20 ms, and its garbage was the page's to collect. The page gets the loads as a
 * structured copy. Without a worker (jsdom), or once it failed, pulls run on the page, and a pull the
 * worker held is made again there: a pull from the proxy can be repeated (the proxy alone keeps the
 * upstream's cursor).
 */
export function pullThread(makeWorker: () => PullWorkerLike | null = startPullWorker): {
  pull: PullFn;
  where(): 'worker' | 'page';
  dispose(): void;
} {
  let worker: PullWorkerLike | null | undefined;
  const waiting = new Map<number, Waiting>();
  let nextId = 0;

  const stop = () => {
    if (!worker) return;
    stopWorker(worker);
    worker = null;
  };
  const fallBack = () => {
    stop();
    const held = [...waiting.values()];
    waiting.clear();
    for (const w of held) void pullHere(w.by, w.body, w.signal, w.options, w.view).then(w.resolve, w.reject);
  };

  // Started at the first pull, not when the module loads: a page without pulls needs no worker.
  const ready = (): PullWorkerLike | null => {
    if (worker !== undefined) return worker;
    worker = makeWorker();
    if (worker) {
      worker.onmessage = (event) => {
        const reply = event.data;
        const w = waiting.get(reply.id);
        if (!w) return;
        waiting.delete(reply.id);
        if (reply.kind !== 'failed' && reply.answer)
          perfMark(
            'answer',
            { ...reply.answer.detail, in: 'worker' },
            reply.answer.at - performance.timeOrigin,
          );
        if (reply.kind === 'pulled') w.resolve(afterAnswer(reply.data, w.body, w.view));
        else if (reply.kind === 'patched') {
          const previous = w.view?.previous;
          const next = previous && withChanges(previous, reply.changes, reply.rest);
          if (next) w.resolve(next);
          else
            w.reject(
              new ApiError(
                0,
                'unexpected',
                'The loads read in the background do not fit the view; the next refresh reads them again.',
              ),
            );
        } else {
          const { status, code, message, details, retryAfter } = reply.error;
          w.reject(new ApiError(status, code, message, details, retryAfter));
        }
      };
      worker.onerror = fallBack;
      worker.onmessageerror = fallBack;
    }
    return worker;
  };

  const pull: PullFn = (by, body, signal, options = { extras: true }, view) => {
    const w = ready();
    if (!w) return pullHere(by, body, signal, options, view);
    return new Promise<PulledLoads>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const id = nextId++;
      waiting.set(id, { by, body, options, view, signal, resolve, reject });
      signal?.addEventListener(
        'abort',
        () => {
          if (!waiting.delete(id)) return;
          worker?.postMessage({ kind: 'abort', id });
          reject(signal.reason);
        },
        { once: true },
      );
      const { ids: _, ...rest } = body;
      w.postMessage({
        kind: 'pull',
        id,
        by,
        text: writtenPull(body).text,
        body: rest,
        options,
        ...(view ? { view: view.key } : {}),
      });
    });
  };

  return {
    pull,
    where: () => (worker ? 'worker' : 'page'),
    dispose() {
      stop();
      waiting.clear();
    },
  };
}

/** The page's pulls of many loads: in one worker, started at the first pull. */
export const pullsOffPage = pullThread();
