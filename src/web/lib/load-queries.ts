import { queryOptions } from '@tanstack/react-query';
import { ClientConfig, ProxyPullAnswer, type IncludeFlags } from '@/contract/proxy-api';
import { parseLoadDetail } from '@/contract/parse-pull';
import type { ParseIssue } from '@/contract/parse-issue';
import type { Load, LoadBy } from '@/domain/model';
import { normalizeLoad } from '@/domain/normalize';
import { apiGet, apiPost } from './api-client';

export interface BoardData {
  loads: Load[];
  missing: string[];
  /** Loads the proxy sent that could not be read at all. */
  unreadable: ParseIssue[];
  fetchedAt: number;
}

const BOARD_INCLUDE: IncludeFlags = { locations: false, events: false, documents: false, comments: false };

/** Reads the proxy's pull answer into Loads; one bad load costs only itself. */
export function readPullAnswer(answer: ProxyPullAnswer, by: LoadBy, fetchedAt: number): BoardData {
  const loads: Load[] = [];
  const unreadable: ParseIssue[] = [];
  answer.details.forEach((raw, i) => {
    const issues: ParseIssue[] = [];
    const path = `details[${i}]`;
    const detail = parseLoadDetail(raw, path, issues);
    const load = detail ? normalizeLoad(detail, by, path, issues) : undefined;
    if (load) loads.push(load);
    else unreadable.push(...issues);
  });
  return { loads, missing: answer.missing, unreadable, fetchedAt };
}

const pullPath = (by: LoadBy) => `/api/pull/by-${by}`;

export const configQuery = () =>
  queryOptions({
    queryKey: ['config'],
    queryFn: ({ signal }) => apiGet('/api/config', ClientConfig, signal),
    staleTime: Infinity,
  });

/** The query factory of loads: keys are made here and nowhere else. */
export const loadQueries = {
  all: () => ['loads'] as const,
  board: (by: LoadBy, ids: readonly string[], refreshSeconds: number) =>
    queryOptions({
      queryKey: [...loadQueries.all(), 'board', by, ids] as const,
      queryFn: async ({ signal }) =>
        readPullAnswer(
          await apiPost(pullPath(by), { ids, include: BOARD_INCLUDE }, ProxyPullAnswer, signal),
          by,
          Date.now(),
        ),
      enabled: ids.length > 0,
      refetchInterval: refreshSeconds * 1000,
      refetchIntervalInBackground: false,
      placeholderData: (previous) => previous,
    }),
};
