import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { AlertRule, AlertRulesAnswer, type AlertRuleInput } from '@/contract/alerts-api';
import { apiGet, apiSend } from '../../data/api-client';

const NoContent = z.undefined();

/** The alert rules and the webhook deliveries that fail (admins). */
export const alertRuleQueries = {
  all: () => ['alert-rules'] as const,
  list: () =>
    queryOptions({
      queryKey: alertRuleQueries.all(),
      queryFn: ({ signal }) => apiGet('/api/alerts/rules', AlertRulesAnswer, signal),
      // Failing deliveries change as attempts are made: a minute is soon enough for an admin.
      refetchInterval: 60_000,
      refetchIntervalInBackground: false,
    }),
};

export type RuleChange =
  | { kind: 'create'; rule: AlertRuleInput }
  | { kind: 'update'; id: number; version: number; rule: AlertRuleInput }
  | { kind: 'delete'; id: number };

/** Add, change or delete a rule; the list is read again after each. */
export function useChangeRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: RuleChange) =>
      change.kind === 'create'
        ? apiSend('POST', '/api/alerts/rules', change.rule, AlertRule)
        : change.kind === 'update'
          ? apiSend(
              'PUT',
              `/api/alerts/rules/${change.id}`,
              { ...change.rule, version: change.version },
              AlertRule,
            )
          : apiSend('DELETE', `/api/alerts/rules/${change.id}`, {}, NoContent),
    onSettled: () => client.invalidateQueries({ queryKey: alertRuleQueries.all() }),
  });
}
