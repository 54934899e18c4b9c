/** What a worker is to the page: enough to stand one in for it in tests. */
export interface WorkerLike<Request, Reply> {
  postMessage(message: Request): void;
  terminate(): void;
  onmessage: ((event: MessageEvent<Reply>) => void) | null;
  onerror: ((event: Event) => void) | null;
  onmessageerror: ((event: MessageEvent) => void) | null;
}

/**
 * A worker, or null where the browser has none (jsdom) or will not start it. `make` calls
 * `new Worker(new URL('./…', import.meta.url))` itself: Vite bundles a worker from that very form.
 */
export function startWorker<Request, Reply>(make: () => Worker): WorkerLike<Request, Reply> | null {
  if (typeof Worker === 'undefined') return null;
  try {
    return make() as unknown as WorkerLike<Request, Reply>;
  } catch {
    return null;
  }
}

/** Stops a worker and hears nothing more from it. */
export function stopWorker<Request, Reply>(worker: WorkerLike<Request, Reply>): void {
  worker.onmessage = worker.onerror = worker.onmessageerror = null;
  worker.terminate();
}
