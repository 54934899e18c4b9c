/// <reference lib="webworker" />
// The pull worker: fetches and reads the proxy's pull answers off the page's main thread. A refresh of
// 10,000 loads in which 1,000 moved is a megabyte of JSON to parse, check and normalize; here that
// costs the page nothing, and the page receives the loads read (a structured clone, a few ms).
import { ApiError } from './api-client';
import { pullLoads } from './pull-answer';
import type { PullFailure, PullReply, PullRequestMessage } from './pull-protocol';

declare const self: DedicatedWorkerGlobalScope;

const running = new Map<number, AbortController>();

self.onmessage = (event: MessageEvent<PullRequestMessage>) => {
  const message = event.data;
  if (message.type === 'abort') {
    running.get(message.id)?.abort();
    return;
  }
  const { id, by, body } = message;
  const controller = new AbortController();
  running.set(id, controller);
  pullLoads(by, body, controller.signal)
    .then(
      (data) => self.postMessage({ id, data } satisfies PullReply),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const failure: PullFailure =
          error instanceof ApiError
            ? {
                status: error.status,
                code: error.code,
                message: error.message,
                details: error.details,
                retryAfter: error.retryAfter,
              }
            : { status: 0, code: 'client_error', message: `Reading the answer failed: ${String(error)}` };
        self.postMessage({ id, error: failure } satisfies PullReply);
      },
    )
    .finally(() => running.delete(id));
};
