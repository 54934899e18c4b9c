/// <reference lib="webworker" />
// Pulls of many loads, off the page's main thread: the answer of a refresh (large, on a big board) is
// parsed and read into loads here, and its garbage stays here.
import { pullHandler } from './pull-handler';
import type { PullReply, PullRequest } from './pull-protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const handle = pullHandler((reply: PullReply, transfer: Transferable[] = []) =>
  scope.postMessage(reply, transfer),
);
scope.onmessage = (event: MessageEvent<PullRequest>) => handle(event.data);
