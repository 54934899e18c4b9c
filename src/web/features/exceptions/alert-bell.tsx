import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { viewerTime } from '../../lib/time-format';
import { useDismiss } from '../../lib/use-dismiss';
import { alertQueries } from './alerts-queries';
import { alertNumber, useAlertsSeen } from './alerts-seen';
import { alertLoadHref } from './alerts-section';

/** How many of the latest alerts the bell lists; the rest are on Exceptions. */
export const BELL_LIMIT = 10;

const plural = (n: number) => `${n} new alert${n === 1 ? '' : 's'}`;

/**
 * The header's bell (issue 36): how many alerts fired since this user last looked, and the latest
 * ones with their loads. Looking is opening the bell, or the Exceptions page, which lists them all.
 */
export function AlertBell({ user, refreshSeconds }: { user: string; refreshSeconds: number }) {
  const alerts = useQuery(alertQueries.list(refreshSeconds));
  const [seen, markSeen] = useAlertsSeen(user);
  const [open, setOpen] = useState(false);
  // What was new when the bell opened stays marked while it is open, though it now counts as seen.
  const [newAbove, setNewAbove] = useState(0);
  const [location] = useLocation();
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const list = alerts.data?.alerts ?? [];
  const newest = list[0]?.id;
  const unseen = list.filter((a) => alertNumber(a.id) > seen).length;

  // Open, or on Exceptions: what arrives is seen as it comes.
  const looking = open || location === '/exceptions';
  useEffect(() => {
    if (looking && newest !== undefined) markSeen(newest);
  }, [looking, newest, markSeen]);

  useDismiss(open, setOpen, { button, box, location });

  const toggle = () => {
    if (!open) setNewAbove(seen);
    setOpen(!open);
  };

  return (
    // Not positioned: the panel hangs from the header's right edge, on a phone as on a wide screen.
    <div ref={box} className="flex items-center" data-alert-bell="">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={`Alerts, ${unseen === 0 ? 'none new' : plural(unseen)}`}
        onClick={toggle}
        className="relative rounded p-1 text-ink-faint hover:bg-white/10 hover:text-white"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor">
          <path
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
            d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9M10.3 21a1.94 1.94 0 0 0 3.4 0"
          />
        </svg>
        {unseen > 0 && (
          <span
            aria-hidden="true"
            data-unseen={unseen}
            className="absolute -top-0.5 -right-1 min-w-4 rounded-full bg-status-silent px-1 text-center text-[0.65rem] leading-4 font-semibold text-white"
          >
            {unseen > 99 ? '99+' : unseen}
          </span>
        )}
      </button>
      {/* Said when the count changes; the button's name says it when reached. */}
      <span role="status" className="sr-only">
        {unseen > 0 ? plural(unseen) : ''}
      </span>
      <div
        id={panelId}
        hidden={!open}
        // Never taller than the screen: the list scrolls, "See all" stays in view.
        className={`${open ? 'flex' : 'hidden'} absolute top-full right-2 z-[2000] mt-1 max-h-[calc(100dvh-5rem)] w-[min(24rem,calc(100vw-1rem))] flex-col rounded border border-panel-line bg-panel p-2 text-sm text-ink shadow-lg`}
      >
        {alerts.error ? (
          <p role="alert">Could not read the alerts: {alerts.error.message}</p>
        ) : alerts.isPending ? (
          <p className="text-ink-muted">Loading alerts…</p>
        ) : list.length === 0 ? (
          <p className="text-ink-muted">No alert has fired.</p>
        ) : (
          <ul
            aria-label="Latest alerts"
            className="flex min-h-0 flex-col divide-y divide-panel-line overflow-y-auto"
          >
            {list.slice(0, BELL_LIMIT).map((a) => {
              const fresh = alertNumber(a.id) > newAbove;
              return (
                <li key={a.id} data-alert={a.id} className="py-1.5">
                  <p className="flex items-baseline gap-2">
                    <Link href={alertLoadHref(a.load)} className="font-medium text-status-selected underline">
                      {a.load}
                    </Link>
                    <span className="text-ink-muted">{viewerTime(Date.parse(a.firedAt))}</span>
                    {fresh && <span className="text-xs font-semibold text-status-silent">new</span>}
                  </p>
                  <p className="line-clamp-3" data-kind={a.kind}>
                    {a.text}
                  </p>
                </li>
              );
            })}
          </ul>
        )}
        <p className="mt-1 border-t border-panel-line pt-1.5">
          <Link href="/exceptions" className="text-status-selected underline">
            See all{list.length > 0 ? ` (${list.length})` : ''} on Exceptions
          </Link>
        </p>
      </div>
    </div>
  );
}
