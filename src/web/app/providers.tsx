import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Router } from 'wouter';
import { writeBeforeNavigating } from '../lib/url-state';

export function Providers({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={client}>
      <Router aroundNav={writeBeforeNavigating}>{children}</Router>
    </QueryClientProvider>
  );
}
