import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { ErrorBanner } from '../../components/error-banner';
import { may, useSessionUser } from '../../data/session-queries';
import { loadPageHref } from '../../lib/load-ref';
import { viewerTime } from '../../lib/time-format';
import { alertQueries } from './alerts-queries';

/** `e:9001` → the load's page. */
export const alertLoadHref = (ref: string) =>
  loadPageHref({ by: ref.startsWith('n:') ? 'load-number' : 'external-id', id: ref.slice(2) });

/**
 * The alerts the admins' rules fired (issue 36 part 5), newest first: what the team was told, with
 * its load. Every load the proxy holds counts, not only this browser's watch list.
 */
export function AlertsSection({ refreshSeconds }: { refreshSeconds: number }) {
  const alerts = useQuery(alertQueries.list(refreshSeconds));
  const user = useSessionUser();
  const list = alerts.data?.alerts ?? [];
  return (
    <section aria-labelledby="alerts-heading" className="flex flex-col gap-2">
      <div className="flex flex-wrap items-baseline gap-x-3">
        <h3 id="alerts-heading" className="text-lg font-semibold">
          Alerts ({list.length})
        </h3>
        <p className="text-sm text-ink-muted">
          Fired by the team&apos;s alert rules, once each, newest first.
        </p>
        {may(user, 'manageAlerts') ? (
          <Link href="/admin/alerts" className="text-sm text-status-selected underline">
            Alert rules
          </Link>
        ) : null}
      </div>
      {alerts.error ? <ErrorBanner error={alerts.error} onRetry={() => void alerts.refetch()} /> : null}
      {alerts.isPending ? (
        <p className="text-sm text-ink-muted">Loading alerts…</p>
      ) : alerts.data === undefined ? null : list.length === 0 ? (
        <p className="rounded border border-panel-line bg-panel-sunk p-3 text-sm">No alert has fired.</p>
      ) : (
        <ul
          aria-label="Alerts"
          className="flex flex-col divide-y divide-panel-line rounded border border-panel-line"
        >
          {list.map((a) => (
            <li
              key={a.id}
              data-alert={a.id}
              className="flex flex-wrap items-baseline gap-x-3 px-3 py-1.5 text-sm"
            >
              <span className="text-ink-muted">{viewerTime(Date.parse(a.firedAt))}</span>
              <Link href={alertLoadHref(a.load)} className="text-status-selected underline">
                {a.load}
              </Link>
              {/* The text says the kind and the load: it is also what the webhook posts. */}
              <span className="min-w-0 flex-1 basis-64" data-kind={a.kind}>
                {a.text}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
