import type { LoadBy } from '@/domain/model';
import { ApiError } from './api-client';
import type { PullBody, PulledLoads } from './pull-answer';
import { perfMark, type PerfDetail } from './perf-marks';
import type { PullReply, PullRequestMessage } from './pull-protocol';

interface Waiting {
  by: LoadBy;
  body: PullBody;
  mark: PerfDetail;
  resolve: (data: PulledLoads) => void;
  reject: (error: unknown) => void;
  signal: AbortSignal | undefined;
}

/** The pull worker: undefined until the first pull, null where there is none (or it failed). */
let worker: Worker | null | undefined;
const waiting = new Map<number, Waiting>();
let lastId = 0;

/** On the page's own thread: where there are no workers (tests in jsdom), or the worker failed. */
async function pullHere(by: LoadBy, body: PullBody, signal?: AbortSignal): Promise<PulledLoads> {
  // Loaded only then: the page's first screen does not carry the answer's reader.
  const { pullLoads } = await import('./pull-answer');
  return pullLoads(by, body, signal);
}

function startWorker(): Worker | null {
  if (typeof Worker === 'undefined') return null;
  let started: Worker;
  try {
    started = new Worker(new URL('./pull-worker.ts', import.meta.url), { type: 'module', name: 'pulls' });
  } catch {
    return null;
  }
  started.onmessage = (event: MessageEvent<PullReply>) => {
    const reply = event.data;
    const w = waiting.get(reply.id);
    if (!w) return;
    waiting.delete(reply.id);
    if ('data' in reply) {
      perfMark('answer', w.mark);
      w.resolve(reply.data);
    } else {
      const e = reply.error;
      w.reject(new ApiError(e.status, e.code, e.message, e.details, e.retryAfter));
    }
  };
  // The worker could not start (or broke): the pulls it held, and every pull after, run here. A
  // pull asked again is safe: the proxy answers the same cursor with the same loads.
  started.onerror = (event) => {
    event.preventDefault();
    started.terminate();
    worker = null;
    const held = [...waiting.values()];
    waiting.clear();
    for (const w of held) pullHere(w.by, w.body, w.signal).then(w.resolve, w.reject);
  };
  return started;
}

/**
 * Pulls some loads from the proxy and reads them into the model. The fetch and the reading (a
 * megabyte of JSON for 1,000 loads) run in a worker, so the page's main thread only receives the
 * loads; without workers, on the page's thread. Errors are the api client's ApiErrors either way.
 */
export function pull(by: LoadBy, body: PullBody, signal?: AbortSignal): Promise<PulledLoads> {
  if (worker === undefined) worker = startWorker();
  const w = worker;
  if (!w) return pullHere(by, body, signal);
  if (signal?.aborted) return Promise.reject(signal.reason);
  const id = ++lastId;
  return new Promise<PulledLoads>((resolve, reject) => {
    const mark = { path: `/api/pull/by-${by}`, include: JSON.stringify(body.include) };
    waiting.set(id, { by, body, mark, resolve, reject, signal });
    signal?.addEventListener(
      'abort',
      () => {
        if (!waiting.delete(id)) return;
        w.postMessage({ type: 'abort', id } satisfies PullRequestMessage);
        reject(signal.reason);
      },
      { once: true },
    );
    w.postMessage({ type: 'pull', id, by, body } satisfies PullRequestMessage);
  });
}
