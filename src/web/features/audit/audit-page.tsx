import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'wouter';
import type { AuditEntry } from '@/contract/admin-api';
import { ErrorBanner } from '../../components/error-banner';
import { utcIso, viewerTime } from '../../lib/time-format';
import { auditQueries } from './audit-queries';

/** Each action the server records, in words; an action not listed shows as its code. */
const ACTION_LABEL: Record<string, string> = {
  login: 'Logged in',
  logout: 'Logged out',
  'login.failed': 'Failed login',
  review: 'Document review',
  'exception.acknowledge': 'Exception acknowledged',
  'exception.snooze': 'Exception snoozed',
  'exception.clear': 'Exception back to the list',
  'webhook.create': 'Webhook created',
  'alert.rule.create': 'Alert rule added',
  'alert.rule.update': 'Alert rule changed',
  'alert.rule.delete': 'Alert rule deleted',
  'share.create': 'Share link made',
  'share.view': 'Share link opened',
  'share.revoke': 'Share link revoked',
  'board.save': 'Board saved',
  'board.delete': 'Board deleted',
  'user.add': 'User added',
  'user.role': 'Role changed',
  'user.disable': 'User disabled',
  'user.enable': 'User enabled',
  'user.password': 'New password',
};

const labelOf = (action: string) => ACTION_LABEL[action] ?? action;

/** An exception's occurrence ("stop 2 due 1795915560000") with its instant as the page's times are. */
function occurrenceText(occurrence: string): string {
  return occurrence.replace(/\b\d{12,14}\b/g, (ms) => viewerTime(Number(ms)));
}

/** An entry's details as `key: value` pairs, values as JSON unless they are plain text. */
function Details({ details }: { details: AuditEntry['details'] }) {
  const pairs = Object.entries(details).filter(([, value]) => value !== null && value !== undefined);
  if (pairs.length === 0) return null;
  return (
    <dl className="flex flex-wrap gap-x-3 text-xs">
      {pairs.map(([key, value]) => (
        <div key={key} className="flex gap-1">
          <dt className="text-ink-muted">{key}</dt>
          <dd className="break-all">
            {typeof value === 'string'
              ? key === 'occurrence'
                ? occurrenceText(value)
                : value
              : JSON.stringify(value)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** `/admin/audit`: who did what and when (logins, reviews, webhooks, user changes), newest first. */
export function AuditPage() {
  const [action, setAction] = useState<string | undefined>(undefined);
  const log = useInfiniteQuery(auditQueries.log(action));
  const filterId = useId();
  const entries = log.data?.pages.flatMap((p) => p.entries) ?? [];
  // Every action the log holds, as of the latest page read, plus the one chosen (it may be gone).
  const actions = [...new Set([...(log.data?.pages[0]?.actions ?? []), ...(action ? [action] : [])])].sort();

  return (
    <div className="h-full overflow-y-auto">
      <div className="mx-auto flex max-w-5xl flex-col gap-4 p-4">
        <div>
          <h2 className="text-xl font-semibold tracking-tight">Audit log</h2>
          <p className="mt-1 text-sm text-ink-muted">
            Who did what and when: logins, failed logins, document reviews, exceptions handled, share links,
            boards, alert rules, webhooks and user changes, the newest first. Alerts are set on{' '}
            <Link href="/admin/alerts" className="text-status-selected underline">
              Alert rules
            </Link>
            .
          </p>
        </div>

        <div className="flex flex-wrap items-center gap-3 text-sm">
          <label htmlFor={filterId} className="font-medium">
            Action
          </label>
          <select
            id={filterId}
            value={action ?? ''}
            onChange={(e) => setAction(e.target.value === '' ? undefined : e.target.value)}
            className="rounded border border-panel-line bg-panel px-2 py-1"
          >
            <option value="">All actions</option>
            {actions.map((a) => (
              <option key={a} value={a}>
                {labelOf(a)} ({a})
              </option>
            ))}
          </select>
          <button
            type="button"
            onClick={() => void log.refetch()}
            aria-disabled={log.isFetching}
            className="rounded border border-panel-line px-2 py-1 hover:bg-panel-sunk aria-disabled:opacity-60"
          >
            Refresh
          </button>
          <span role="status" className="text-ink-muted">
            {log.isFetching ? 'Reading the log…' : ''}
          </span>
        </div>

        {log.isError && <ErrorBanner error={log.error} onRetry={() => void log.refetch()} />}

        {log.isPending ? (
          <p className="text-sm text-ink-muted">Loading the audit log…</p>
        ) : entries.length === 0 ? (
          !log.isError && (
            <p className="text-sm">
              {action ? `No “${labelOf(action)}” entry in the log.` : 'The audit log is empty.'}
            </p>
          )
        ) : (
          <section aria-label="Audit entries" className="rounded border border-panel-line bg-panel p-4">
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm">
                <thead className="border-b border-panel-line text-ink-muted">
                  <tr>
                    <th scope="col" className="py-1 pr-3 font-medium">
                      When
                    </th>
                    <th scope="col" className="py-1 pr-3 font-medium">
                      Who
                    </th>
                    <th scope="col" className="py-1 pr-3 font-medium">
                      Action
                    </th>
                    <th scope="col" className="py-1 pr-3 font-medium">
                      Subject
                    </th>
                    <th scope="col" className="py-1 font-medium">
                      Details
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {entries.map((e) => {
                    const at = Date.parse(e.at);
                    return (
                      <tr key={e.id} className="border-b border-panel-line align-top last:border-0">
                        <td className="py-1 pr-3 whitespace-nowrap">
                          <time dateTime={e.at} title={Number.isFinite(at) ? utcIso(at) : e.at}>
                            {viewerTime(at)}
                          </time>
                        </td>
                        <td className="py-1 pr-3">{e.actor}</td>
                        <td className="py-1 pr-3" title={e.action}>
                          {labelOf(e.action)}
                        </td>
                        <td className="py-1 pr-3 break-all">
                          <Subject action={e.action} subject={e.subject} details={e.details} />
                        </td>
                        <td className="py-1">
                          <Details details={e.details} />
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            <div className="mt-3 flex items-center gap-3 text-sm">
              {log.hasNextPage ? (
                <button
                  type="button"
                  onClick={() => void log.fetchNextPage()}
                  aria-disabled={log.isFetchingNextPage}
                  className="rounded border border-panel-line px-2 py-1 hover:bg-panel-sunk aria-disabled:opacity-60"
                >
                  {log.isFetchingNextPage ? 'Reading older entries…' : 'Older entries'}
                </button>
              ) : (
                <span className="text-ink-muted">These are the oldest entries kept.</span>
              )}
              <span className="text-ink-muted">{entries.length} shown</span>
            </div>
          </section>
        )}
      </div>
    </div>
  );
}

/**
 * What an entry was about. A review's subject is the document's address, exact but unreadable: the
 * load comes first, the address (the evidence) after it, smaller.
 */
function Subject({ action, subject, details }: { action: string; subject: string | null; details: unknown }) {
  const load = (details as { load?: unknown } | null)?.load;
  if (action !== 'review' || typeof load !== 'string' || subject === null) return subject ?? '';
  return (
    <>
      Document of load {load}
      <span className="block text-xs text-ink-muted">{subject}</span>
    </>
  );
}
