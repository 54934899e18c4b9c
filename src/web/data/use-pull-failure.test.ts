import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { usePullFailure } from './use-pull-failure';

describe('usePullFailure', () => {
  it('says a failed try at once, holds it through the next fetch, and lets it go with an answer', () => {
    const timedOut = new Error('the tracking service timed out');
    const { result, rerender } = renderHook((q: Parameters<typeof usePullFailure>[0]) => usePullFailure(q), {
      initialProps: { error: null, failureReason: null, dataUpdatedAt: 0 } as Parameters<
        typeof usePullFailure
      >[0],
    });
    expect(result.current).toBeNull();
    // The first try failed; its retries are still to come.
    rerender({ error: null, failureReason: timedOut, dataUpdatedAt: 0 });
    expect(result.current).toBe(timedOut);
    // The next fetch starts with no answer yet: the query forgets its failure, the page does not.
    rerender({ error: null, failureReason: null, dataUpdatedAt: 0 });
    expect(result.current).toBe(timedOut);
    const answered = 1_764_000_000_000;
    rerender({ error: null, failureReason: null, dataUpdatedAt: answered });
    expect(result.current).toBeNull();
    // With data on screen, a try its retry may mend is not said; the failure once retries are spent is.
    rerender({ error: null, failureReason: timedOut, dataUpdatedAt: answered });
    expect(result.current).toBeNull();
    rerender({ error: timedOut, failureReason: timedOut, dataUpdatedAt: answered });
    expect(result.current).toBe(timedOut);
  });
});
