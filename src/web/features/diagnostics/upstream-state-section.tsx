import type { ReactNode } from 'react';
import type { UpstreamState } from '@/contract/diagnostics-api';
import { viewerTime } from '../../lib/time-format';

const at = (iso: string): string => viewerTime(Date.parse(iso));

/**
 * The tracking service's state as the proxy knows it from its own calls: when it last answered
 * well, its last failure, whether it asked the proxy to wait (429), and whether calls are paused
 * after repeated failures.
 */
export function UpstreamStateSection({ state }: { state: UpstreamState }) {
  const { lastSuccessAt, lastError, rateLimited, pausedUntil } = state;
  const rows: [term: string, value: ReactNode, alarm: boolean][] = [
    ['Last success', lastSuccessAt ? at(lastSuccessAt) : 'none since the server started', false],
    [
      'Last error',
      lastError ? (
        <>
          {at(lastError.at)}: {lastError.message}{' '}
          <code className="text-xs text-ink-muted">{lastError.code}</code>
        </>
      ) : (
        'none since the server started'
      ),
      false,
    ],
    [
      'Rate limiting',
      rateLimited
        ? `The service asked the proxy to slow down (429, Retry-After ${rateLimited.retryAfterSeconds} s): no call before ${at(rateLimited.until)}.`
        : 'None: the service has not asked the proxy to wait.',
      rateLimited !== null,
    ],
    [
      'Calls',
      pausedUntil
        ? `Paused after ${state.consecutiveFailures} failures in a row: they fail at once until ${at(pausedUntil)}, then one call tries the service again.`
        : `Going through${
            state.consecutiveFailures > 0
              ? ` (${state.consecutiveFailures} failed in a row; paused after ${state.pauseAfterFailures})`
              : ''
          }.`,
      pausedUntil !== null,
    ],
  ];
  return (
    <section
      aria-labelledby="upstream-state-heading"
      className="mt-3 max-w-3xl rounded border border-panel-line bg-panel p-3"
    >
      <h3 id="upstream-state-heading" className="font-semibold">
        The tracking service, as the proxy sees it
      </h3>
      <dl className="mt-2 grid grid-cols-[8rem_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        {rows.map(([term, value, alarm]) => (
          <div key={term} className="contents">
            <dt className="text-ink-muted">{term}</dt>
            <dd className={alarm ? 'font-medium text-status-silent' : undefined}>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
