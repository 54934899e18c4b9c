import { infiniteQueryOptions } from '@tanstack/react-query';
import { AuditAnswer } from '@/contract/admin-api';
import { ApiError, apiGet } from '../../data/api-client';

/** Entries per page of the audit log. */
export const AUDIT_PAGE_SIZE = 50;

function auditPath(action: string | undefined, before: string | undefined): string {
  const params = new URLSearchParams({ limit: String(AUDIT_PAGE_SIZE) });
  if (action) params.set('action', action);
  if (before) params.set('before', before);
  return `/api/audit?${params}`;
}

/** The audit log, newest first, one action's entries or all; older pages are added on request. */
export const auditQueries = {
  all: () => ['audit'] as const,
  log: (action: string | undefined) =>
    infiniteQueryOptions({
      queryKey: [...auditQueries.all(), { action: action ?? null }],
      queryFn: ({ pageParam, signal }) => apiGet(auditPath(action, pageParam), AuditAnswer, signal),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (page) => page.older ?? undefined,
      // A store that does not answer is said at once; "Try again" asks again.
      retry: (count, error) =>
        count < 2 && !(error instanceof ApiError && (!error.transient || error.code === 'store_unavailable')),
    }),
};
