import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { ApiError, apiGet, REQUEST_TIMEOUT_MS } from './api-client';

/** A fetch that never answers (an instance paused, a connection held), until its signal aborts it. */
function hangingFetch() {
  return vi.fn<typeof fetch>(
    (_url, init) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      ),
  );
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('a call to the proxy that gets no answer', () => {
  it('fails after REQUEST_TIMEOUT_MS, saying so, as an error worth trying again', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('fetch', hangingFetch());
    const call = apiGet('/api/config', z.unknown());
    const failed = call.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(await Promise.race([failed, Promise.resolve('still waiting')])).toBe('still waiting');
    await vi.advanceTimersByTimeAsync(1);
    const error = await failed;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('timeout');
    expect((error as ApiError).transient).toBe(true);
    expect((error as ApiError).message).toBe('Haulview’s server did not answer within 90 s.');
  });

  it('is no timeout when its caller gave it up', async () => {
    vi.stubGlobal('fetch', hangingFetch());
    const controller = new AbortController();
    const call = apiGet('/api/config', z.unknown(), controller.signal).catch((e: unknown) => e);
    controller.abort();
    expect(((await call) as ApiError).code).toBe('network');
  });
});
