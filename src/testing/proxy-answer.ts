import { parseLoadDetail } from '@/contract/parse-pull';
import type { ParseIssue } from '@/contract/parse-issue';
import { type IncludeFlags } from '@/contract/proxy-api';
import { PULL_ANSWER_VERSION, type ProxyPullAnswer } from '@/contract/load-view';
import type { LoadBy } from '@/domain/model';
import { normalizeLoad } from '@/domain/normalize';
import { loadView, relativeIssues } from '@/server/track-cache';

/**
 * The proxy's pull answer for load details written in the upstream's wire shape: read by the very
 * parser, normalizer and serving code the proxy runs, so tests of the page keep their fixtures in
 * the upstream's shape, quirks included, and get what the proxy would send. Without `by`, a detail
 * with a `loadNumber` and no `loadTrackExternalId` is one asked for by load number.
 */
export function proxyPullAnswer(
  details: unknown[],
  {
    by,
    missing = [],
    cursor = 'c',
    include,
  }: { by?: LoadBy; missing?: string[]; cursor?: string; include?: IncludeFlags } = {},
): ProxyPullAnswer {
  const loads: unknown[] = [];
  details.forEach((raw, i) => {
    const issues: ParseIssue[] = [];
    const path = `details[${i}]`;
    const detail = parseLoadDetail(raw, path, issues);
    const load = detail && normalizeLoad(detail, by ?? byOf(raw), path, issues);
    // Written out and read back, as it crosses the wire.
    if (load) loads.push(JSON.parse(JSON.stringify(loadView(load, relativeIssues(load.issues), include))));
  });
  return { version: PULL_ANSWER_VERSION, cursor, loads, missing };
}

function byOf(raw: unknown): LoadBy {
  const d = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  return d.loadNumber !== undefined && d.loadTrackExternalId === undefined ? 'load-number' : 'external-id';
}
