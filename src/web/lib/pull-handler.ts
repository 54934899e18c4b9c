import { ApiError, WrittenJson } from './api-client';
import { lastPerfMark } from './perf-marks';
import { pullWritten } from './pull-answer';
import type { ApiErrorFields, PullReply, PullRequest } from './pull-protocol';

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

/**
 * What the pull worker does with each message: pulls, reads the answer into loads, and posts them
 * (or the error) back with the time the answer arrived. An abort stops the pull's request.
 */
export function pullHandler(post: (reply: PullReply) => void): (request: PullRequest) => void {
  const running = new Map<number, AbortController>();
  return (request) => {
    if (request.kind === 'abort') {
      running.get(request.id)?.abort();
      running.delete(request.id);
      return;
    }
    const { id, by, text, body, options } = request;
    const controller = new AbortController();
    running.set(id, controller);
    pullWritten(by, new WrittenJson(body, text), controller.signal, options).then(
      (data) => {
        // Read in the same turn as the answer's own mark: no other answer's can come between.
        const answer = lastPerfMark('answer');
        if (running.delete(id)) post({ kind: 'pulled', id, data, answer });
      },
      (error: unknown) => {
        if (running.delete(id)) post({ kind: 'failed', id, error: errorFields(error) });
      },
    );
  };
}
