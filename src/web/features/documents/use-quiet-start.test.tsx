import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { loadQueries } from '../../data/load-queries';
import { createQueryClient } from '../../data/query-client';
import { useQuietStart } from './use-quiet-start';

describe('useQuietStart', () => {
  it('stays false while a pull of loads is in flight, then turns true for good', async () => {
    const client = createQueryClient();
    let finish: (value: string) => void = () => {};
    const pull = client.fetchQuery({
      queryKey: [...loadQueries.all(), 'board', 'external-id', ['1']],
      queryFn: () => new Promise<string>((resolve) => (finish = resolve)),
    });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useQuietStart(50), { wrapper });
    await new Promise((r) => setTimeout(r, 100));
    expect(result.current).toBe(false);
    await act(async () => {
      finish('done');
      await pull;
    });
    await waitFor(() => expect(result.current).toBe(true));
    // Another pull later does not take it back.
    void client.fetchQuery({
      queryKey: [...loadQueries.all(), 'board', 'external-id', ['2']],
      queryFn: () => new Promise<string>(() => {}),
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(result.current).toBe(true);
  });
});
