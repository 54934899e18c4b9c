import { QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { createQueryClient } from './query-client';

/** How many times a query that always fails with `error` is asked before it gives up. */
async function attempts(error: ApiError): Promise<number> {
  vi.useFakeTimers();
  try {
    const client = createQueryClient();
    const queryFn = vi.fn(() => Promise.reject(error));
    const observer = new QueryObserver(client, { queryKey: ['probe', error.code], queryFn });
    const unsubscribe = observer.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(60_000);
    unsubscribe();
    client.clear();
    return queryFn.mock.calls.length;
  } finally {
    vi.useRealTimers();
  }
}

describe('the queries’ retries', () => {
  it('asks again after a server failure, not after one that only a change of configuration mends', async () => {
    expect(await attempts(new ApiError(502, 'upstream_error', 'the service failed'))).toBe(3);
    expect(await attempts(new ApiError(0, 'network', 'unreachable'))).toBe(3);
    // Every retry would reach the service with the same refused credentials.
    expect(await attempts(new ApiError(502, 'partner_credentials_rejected', 'Invalid account'))).toBe(1);
    expect(await attempts(new ApiError(400, 'bad_request', 'ids must hold at least one id'))).toBe(1);
  });
});
