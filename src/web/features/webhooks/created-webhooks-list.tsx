import { useQuery } from '@tanstack/react-query';
import { formatInstant } from './format-time';
import { webhookQueries } from './webhook-mutations';

/** A row's element id, so that a 409 can point to the entry it duplicates. */
export const createdWebhookRowId = (uuid: string): string => `created-webhook-${uuid}`;

/**
 * The webhooks created through Haulview, by any admin of the team, as the server records them: the
 * service lists none, so this is all there is. The entry `highlight` names (the one a 409
 * duplicates) is marked.
 */
export function CreatedWebhooksList({ highlight }: { highlight?: string }) {
  const list = useQuery(webhookQueries.list());
  const entries = list.data?.webhooks ?? [];
  return (
    <section
      aria-labelledby="created-webhooks-heading"
      className="rounded border border-panel-line bg-panel p-4"
    >
      <h3 id="created-webhooks-heading" className="text-base font-semibold">
        Created through Haulview
      </h3>
      <p className="mt-1 text-sm text-ink-muted">
        Every webhook your team created here, newest first, with who created it. The webhook service offers no
        way to list webhooks, so ones created elsewhere are not in it. The token is never kept.
      </p>
      {list.isError && (
        <p role="alert" className="mt-2 text-sm text-status-stale">
          The list cannot be read now: {list.error.message}{' '}
          <button
            type="button"
            onClick={() => void list.refetch()}
            className="rounded border border-panel-line px-2 py-0.5 hover:bg-panel-sunk"
          >
            Try again
          </button>
        </p>
      )}
      {list.isPending ? (
        <p className="mt-3 text-sm text-ink-muted">Loading the list…</p>
      ) : entries.length === 0 ? (
        !list.isError && <p className="mt-3 text-sm">No webhook has been created through Haulview yet.</p>
      ) : (
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-panel-line text-ink-muted">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Created
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  By
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Event type
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Client URL
                </th>
                <th scope="col" className="py-1 font-medium">
                  UUID
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => {
                const time = formatInstant(e.createdAt);
                return (
                  <tr
                    key={e.uuid}
                    id={createdWebhookRowId(e.uuid)}
                    aria-current={e.uuid === highlight ? 'true' : undefined}
                    className={`border-b border-panel-line align-top last:border-0 ${
                      e.uuid === highlight ? 'bg-amber-100 outline-2 outline-amber-500' : ''
                    }`}
                  >
                    <td className="py-1 pr-3 whitespace-nowrap">
                      {time ? (
                        <time dateTime={e.createdAt} title={time.utc}>
                          {time.local}
                        </time>
                      ) : (
                        e.createdAt
                      )}
                    </td>
                    <td className="py-1 pr-3">{e.createdBy}</td>
                    <td className="py-1 pr-3">{e.eventType}</td>
                    <td className="py-1 pr-3 break-all">{e.clientUrl}</td>
                    <td className="py-1">
                      <code className="break-all">{e.uuid}</code>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
