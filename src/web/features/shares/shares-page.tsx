import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment } from 'react';
import { Link } from 'wouter';
import type { ShareLink } from '@/contract/share-api';
import { DISABLED_LOOK } from '../../components/disabled-look';
import { ErrorBanner } from '../../components/error-banner';
import { shareMutations, shareQueries } from '../../data/share-queries';
import { loadPageHref, parseLoadParam } from '../../lib/load-ref';
import { viewerTime } from '../../lib/time-format';

const SHOWN = { map: 'map', status: 'status', stops: 'stops', pod: 'POD' } as const;

function stateOf(link: ShareLink): string {
  if (link.revokedAt) return `Revoked ${viewerTime(Date.parse(link.revokedAt))} by ${link.revokedBy ?? '?'}`;
  if (!link.live) return `Expired ${viewerTime(Date.parse(link.expiresAt))}`;
  const until = `until ${viewerTime(Date.parse(link.expiresAt))}`;
  return link.afterDeliveryDays === null
    ? `Live ${until}`
    : `Live, ${link.afterDeliveryDays} d after delivery (at most ${until})`;
}

/** The link's loads by their ids, as the board names them, each a link to its page ("e:" is the API's). */
function SharedLoads({ refs }: { refs: readonly string[] }) {
  return refs.map((text, i) => {
    const ref = parseLoadParam(text);
    return (
      <Fragment key={text}>
        {i > 0 && ', '}
        {ref ? (
          <Link href={loadPageHref(ref)} className="text-status-selected underline">
            {ref.id}
          </Link>
        ) : (
          text
        )}
      </Fragment>
    );
  });
}

/** `/shares`: the team's customer tracking links, their views, and revoke. */
export function SharesPage() {
  const client = useQueryClient();
  const links = useQuery(shareQueries.list());
  const revoke = useMutation({
    ...shareMutations.revoke(),
    onSuccess: () => void client.invalidateQueries({ queryKey: shareQueries.all() }),
  });
  return (
    <div className="h-full overflow-auto p-4">
      <h2 className="text-lg font-semibold">Share links</h2>
      <p className="mb-3 text-sm text-ink-muted">
        Tracking links sent to customers, newest first. Make one from a load’s page (“Share tracking link”). A
        revoked link stops working at once.
      </p>
      {links.isError && <ErrorBanner error={links.error} onRetry={() => void links.refetch()} />}
      {revoke.isError && (
        <p role="alert" className="text-sm text-red-800">
          Not revoked: {revoke.error.message}
        </p>
      )}
      {links.isPending ? (
        <p className="text-ink-muted">Loading…</p>
      ) : links.data?.links.length === 0 ? (
        <p>No link has been shared yet.</p>
      ) : (
        <table className="w-full text-left text-sm" aria-label="Share links">
          <thead>
            <tr className="border-b border-panel-line">
              <th className="py-1 pr-3">Loads</th>
              <th className="py-1 pr-3">Shows</th>
              <th className="py-1 pr-3">Made by</th>
              <th className="py-1 pr-3">State</th>
              <th className="py-1 pr-3">Views</th>
              <th className="py-1 pr-3">Last view</th>
              <th className="py-1" />
            </tr>
          </thead>
          <tbody>
            {links.data?.links.map((link) => (
              <tr key={link.id} className="border-b border-panel-line align-top" data-testid="share-row">
                <td className="py-1 pr-3">
                  <SharedLoads refs={link.loads} />
                  {link.reference && <span className="block text-ink-muted">as “{link.reference}”</span>}
                </td>
                <td className="py-1 pr-3">
                  {(Object.keys(SHOWN) as (keyof typeof SHOWN)[])
                    .filter((k) => link.shows[k])
                    .map((k) => SHOWN[k])
                    .join(', ') || 'the load’s name only'}
                </td>
                <td className="py-1 pr-3">
                  {link.createdBy}, {viewerTime(Date.parse(link.createdAt))}
                </td>
                <td className="py-1 pr-3">{stateOf(link)}</td>
                <td className="py-1 pr-3">{link.views}</td>
                <td className="py-1 pr-3">
                  {link.lastViewAt ? viewerTime(Date.parse(link.lastViewAt)) : '—'}
                </td>
                <td className="py-1">
                  {link.live && (
                    <button
                      type="button"
                      disabled={revoke.isPending}
                      onClick={() => revoke.mutate(link.id)}
                      aria-label={`Revoke the link to ${link.loads.map((l) => parseLoadParam(l)?.id ?? l).join(', ')} made ${viewerTime(Date.parse(link.createdAt))}`}
                      className={`rounded border border-panel-line px-2 py-0.5 hover:bg-panel-sunk ${DISABLED_LOOK}`}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
