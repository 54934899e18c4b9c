import { useState } from 'react';
import { clearCreatedWebhooks, useCreatedWebhooks } from './created-webhooks-log';
import { formatInstant } from './format-time';

/** A row's element id, so that a 409 can point to the entry it duplicates. */
export const createdWebhookRowId = (uuid: string): string => `created-webhook-${uuid}`;

/**
 * The webhooks created from this browser: the service lists none, so this is all there is. The
 * entry `highlight` names (the one a 409 duplicates) is marked.
 */
export function CreatedWebhooksList({ highlight }: { highlight?: string }) {
  const { entries, problem } = useCreatedWebhooks();
  const [confirming, setConfirming] = useState(false);
  return (
    <section
      aria-labelledby="created-webhooks-heading"
      className="rounded border border-panel-line bg-panel p-4"
    >
      <h3 id="created-webhooks-heading" className="text-base font-semibold">
        Created from this browser
      </h3>
      <p className="mt-1 text-sm text-ink-muted">
        This list is kept in this browser only, because the webhook service offers no way to list webhooks.
        Webhooks created elsewhere are not in it, and clearing the browser’s data erases it. The token is
        never kept.
      </p>
      {problem && (
        <p role="status" className="mt-2 text-sm text-status-stale">
          {problem}
        </p>
      )}
      {entries.length === 0 ? (
        <p className="mt-3 text-sm">No webhook has been created from this browser yet.</p>
      ) : (
        <>
          <div className="mt-3 overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="border-b border-panel-line text-ink-muted">
                <tr>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    Created
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
          <div className="mt-3 flex items-center gap-2 text-sm">
            {confirming ? (
              <>
                <span>Forget these {entries.length} entries? The webhooks themselves stay registered.</span>
                <button
                  type="button"
                  onClick={() => {
                    clearCreatedWebhooks();
                    setConfirming(false);
                  }}
                  className="rounded border border-red-400 px-2 py-0.5 text-red-900 hover:bg-red-50"
                >
                  Forget them
                </button>
                <button
                  type="button"
                  onClick={() => setConfirming(false)}
                  className="rounded border border-panel-line px-2 py-0.5 hover:bg-panel-sunk"
                >
                  Keep
                </button>
              </>
            ) : (
              <button
                type="button"
                onClick={() => setConfirming(true)}
                className="rounded border border-panel-line px-2 py-0.5 hover:bg-panel-sunk"
              >
                Clear this list
              </button>
            )}
          </div>
        </>
      )}
    </section>
  );
}
