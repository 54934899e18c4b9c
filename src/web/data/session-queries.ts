import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { SessionState, type Role, type SessionUser } from '@/contract/proxy-api';
import { apiGet, apiSend } from './api-client';

/** Who this browser is logged in as, and whether the dashboard runs open (a demo with no users). */
export const sessionQueries = {
  state: () =>
    queryOptions({
      queryKey: ['session'],
      queryFn: ({ signal }) => apiGet('/api/session', SessionState, signal),
      staleTime: Infinity,
    }),
};

/** A session that ended under the user (logged out elsewhere, expired): the login screen says so once. */
let endedUnderUser = false;
export const noteSessionEnded = () => void (endedUnderUser = true);
/** Whether the session ended under the user since last asked; asking clears it. */
export function takeSessionEnded(): boolean {
  const was = endedUnderUser;
  endedUnderUser = false;
  return was;
}

/** The session's changes answer 204: no body. */
const NoContent = z.undefined();

/** What each role may open: every role watches loads; brokers and admins review; admins manage. */
export const MAY = {
  seeExceptions: ['dispatcher', 'broker', 'admin'],
  reviewDocuments: ['broker', 'admin'],
  manageShares: ['broker', 'admin'],
  bill: ['broker', 'admin'],
  manageWebhooks: ['admin'],
  seeDiagnostics: ['admin'],
  manageUsers: ['admin'],
  seeAudit: ['admin'],
  manageAlerts: ['admin'],
} as const satisfies Record<string, readonly Role[]>;

export function may(user: SessionUser | null | undefined, what: keyof typeof MAY): boolean {
  return user != null && (MAY[what] as readonly Role[]).includes(user.role);
}

/** The logged-in user (undefined while the session is being read). */
export function useSessionUser(): SessionUser | null | undefined {
  return useQuery(sessionQueries.state()).data?.user;
}

/**
 * Log in, log out, or (open demo only) view as another role. Each starts afresh: every query is
 * dropped, so nothing one user saw stays on screen for the next.
 */
export function useSessionChange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (
      change:
        | { kind: 'login'; username: string; password: string }
        | { kind: 'logout' }
        | { kind: 'viewAs'; role: Role },
    ) =>
      change.kind === 'logout'
        ? apiSend('DELETE', '/api/session', {}, NoContent)
        : change.kind === 'login'
          ? apiSend(
              'POST',
              '/api/session',
              { username: change.username, password: change.password },
              NoContent,
            )
          : apiSend('POST', '/api/session/view-as', { role: change.role }, NoContent),
    onSuccess: async () => {
      client.removeQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
      await client.invalidateQueries({ queryKey: sessionQueries.state().queryKey });
    },
  });
}
