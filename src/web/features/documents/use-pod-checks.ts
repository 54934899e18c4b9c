import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ClientConfig } from '@/contract/proxy-api';
import type { PodCheck } from '@/contract/billing-api';
import { billingQueries } from '../../data/billing-queries';
import { may, useSessionUser } from '../../data/session-queries';

const NONE: ReadonlyMap<string, PodCheck> = new Map();

/**
 * Each POD and BOL of the loads the proxy holds, checked against its stop, by document URL: the
 * checks the Billing page lists (`GET /api/billing/paperwork`), reckoned by the proxy from the whole
 * track, which the inbox does not pull. Only the papers still to work on (`?flagged=1`): flagged,
 * or not decided yet; a decided clean paper shows no flag, and most papers are such once reviewed. Asked once the inbox's own pulls are in (they put the loads in
 * the proxy's cache), and again at each refresh; only for the roles that may bill (brokers, admins).
 */
export function usePodChecks(
  config: Pick<ClientConfig, 'refreshSeconds'>,
  ready: boolean,
): { checks: ReadonlyMap<string, PodCheck>; refetch: () => void } {
  const allowed = may(useSessionUser(), 'bill');
  const paperwork = useQuery({
    ...billingQueries.paperwork('flagged'),
    enabled: allowed && ready,
    refetchInterval: config.refreshSeconds * 1000,
  });
  const loads = paperwork.data?.loads;
  // Unchanged checks keep their objects across refreshes (structural sharing): memoized rows stay.
  const checks = useMemo(
    () => (loads ? new Map(loads.flatMap((l) => l.checks.map((c) => [c.url, c] as const))) : NONE),
    [loads],
  );
  const refetch = paperwork.refetch;
  return useMemo(() => ({ checks, refetch: () => void (allowed && refetch()) }), [checks, refetch, allowed]);
}
