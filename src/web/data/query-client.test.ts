import { QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { createQueryClient } from './query-client';
import { sessionQueries, takeSessionEnded } from './session-queries';

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

describe('a session that ends under the user', () => {
  const refused = new ApiError(401, 'login_required', 'log in first');
  const mutate = (client: ReturnType<typeof createQueryClient>) =>
    client
      .getMutationCache()
      .build(client, { mutationFn: () => Promise.reject(refused) })
      .execute(undefined)
      .catch(() => undefined);

  it('is noted for the login screen when an action is refused, and the session read again', async () => {
    const client = createQueryClient();
    client.setQueryData(sessionQueries.state().queryKey, {
      mode: 'users',
      user: { name: 'Bo', role: 'broker' },
    });
    await mutate(client);
    expect(client.getQueryState(sessionQueries.state().queryKey)?.isInvalidated).toBe(true);
    expect(takeSessionEnded()).toBe(true);
    // Said once.
    expect(takeSessionEnded()).toBe(false);
  });

  it('is not noted after the user’s own logout, whose last polls come back refused', async () => {
    const client = createQueryClient();
    client.setQueryData(sessionQueries.state().queryKey, {
      mode: 'users',
      user: { name: 'Bo', role: 'broker' },
    });
    await client.invalidateQueries({ queryKey: sessionQueries.state().queryKey, refetchType: 'none' });
    await mutate(client);
    expect(takeSessionEnded()).toBe(false);
  });

  it('is not noted when nobody was logged in', async () => {
    const client = createQueryClient();
    client.setQueryData(sessionQueries.state().queryKey, { mode: 'users', user: null });
    await mutate(client);
    expect(takeSessionEnded()).toBe(false);
  });
});
