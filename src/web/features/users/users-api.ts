import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { type Role } from '@/contract/proxy-api';
import { UserChanged, UsersAnswer } from '@/contract/users-api';
import { apiGet, apiSend } from '../../data/api-client';
import { sessionQueries } from '../../data/session-queries';

export const userQueries = {
  list: () =>
    queryOptions({
      queryKey: ['users'],
      queryFn: ({ signal }) => apiGet('/api/users', UsersAnswer, signal),
    }),
};

export type UserChange = { role: Role } | { disabled: boolean } | { password: true };

/** Adding or changing a user; the list (and, for the first user, the session) is read again after. */
export function useUserMutations() {
  const client = useQueryClient();
  const refresh = async () => {
    await client.invalidateQueries({ queryKey: userQueries.list().queryKey });
    // The first user ends open demo mode: the session says so, and the login screen follows.
    await client.invalidateQueries({ queryKey: sessionQueries.state().queryKey });
  };
  const add = useMutation({
    mutationFn: (input: { name: string; role: Role; password?: string }) =>
      apiSend('POST', '/api/users', input, UserChanged),
    retry: false,
    gcTime: 0,
  });
  const change = useMutation({
    mutationFn: ({ name, change }: { name: string; change: UserChange }) =>
      apiSend('PATCH', `/api/users/${encodeURIComponent(name)}`, change, UserChanged),
    retry: false,
    gcTime: 0,
    onSuccess: refresh,
  });
  return { add, change, refresh };
}
