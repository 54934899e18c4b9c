import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import type { ShareExpiry, ShareShows } from '@/contract/share-api';
import type { LoadBy } from '@/domain/model';
import { DISABLED_LOOK } from '../../components/disabled-look';
import { shareMutations, shareQueries, shareUrl } from '../../data/share-queries';
import { refPrefix } from '../../lib/load-ref';

const EXPIRIES: { value: string; label: string; expiry: ShareExpiry }[] = [
  { value: '7', label: '7 days', expiry: { kind: 'days', days: 7 } },
  { value: '1', label: '1 day', expiry: { kind: 'days', days: 1 } },
  { value: '3', label: '3 days', expiry: { kind: 'days', days: 3 } },
  { value: '30', label: '30 days', expiry: { kind: 'days', days: 30 } },
  { value: 'd1', label: '1 day after delivery', expiry: { kind: 'after-delivery', days: 1 } },
  { value: 'd3', label: '3 days after delivery', expiry: { kind: 'after-delivery', days: 3 } },
];

const SHOWS: { key: keyof ShareShows; label: string }[] = [
  { key: 'map', label: 'Map and latest position' },
  { key: 'status', label: 'Status' },
  { key: 'stops', label: 'Stops with ETA, arrival and departure' },
  { key: 'pod', label: 'Proof of delivery' },
];

/**
 * "Share tracking link": a link a shipper or consignee opens without an account, showing what is
 * ticked here and never the driver. The link is shown once: only its hash is kept.
 */
export function ShareLinkSection({ by, id }: { by: LoadBy; id: string }) {
  const client = useQueryClient();
  const create = useMutation({
    ...shareMutations.create(),
    onSuccess: () => void client.invalidateQueries({ queryKey: shareQueries.all() }),
  });
  const [expiry, setExpiry] = useState('7');
  const [shows, setShows] = useState<ShareShows>({ map: true, status: true, stops: true, pod: false });
  const [reference, setReference] = useState('');
  const [copied, setCopied] = useState(false);
  const linkField = useRef<HTMLInputElement>(null);
  const formId = useId();
  const url = create.data ? shareUrl(create.data.path) : undefined;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url ?? '');
      setCopied(true);
    } catch {
      // No clipboard (plain http on another host): the link is selected for copying by hand.
      linkField.current?.select();
    }
  };

  return (
    <details className="rounded border border-panel-line bg-panel p-3" data-testid="share-link-section">
      <summary className="cursor-pointer font-semibold">Share tracking link</summary>
      <form
        className="mt-2 flex flex-col gap-2 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          setCopied(false);
          create.mutate({
            loads: [`${refPrefix(by)}:${id}`],
            expiry: EXPIRIES.find((x) => x.value === expiry)!.expiry,
            shows,
            ...(reference.trim() ? { reference: reference.trim() } : {}),
          });
        }}
      >
        <label className="flex flex-wrap items-center gap-2">
          Works for
          <select
            value={expiry}
            onChange={(e) => setExpiry(e.target.value)}
            className="rounded border border-panel-line bg-panel px-1 py-0.5"
          >
            {EXPIRIES.map((x) => (
              <option key={x.value} value={x.value}>
                {x.label}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span>
            Customer’s reference{' '}
            <span className="text-ink-muted">(optional: shown instead of our load id)</span>
          </span>
          <input
            value={reference}
            onChange={(e) => setReference(e.target.value)}
            maxLength={60}
            placeholder="PO 4471"
            className="rounded border border-panel-line bg-panel px-1 py-0.5"
          />
        </label>
        <fieldset className="flex flex-col gap-1">
          <legend className="text-ink-muted">
            It shows (never the driver’s name or phone, comments or notices)
          </legend>
          {SHOWS.map(({ key, label }) => (
            <label key={key} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={shows[key]}
                onChange={(e) => setShows({ ...shows, [key]: e.target.checked })}
              />
              {label}
            </label>
          ))}
        </fieldset>
        <div>
          <button
            type="submit"
            disabled={create.isPending}
            className={`rounded border border-panel-line bg-panel-sunk px-2 py-0.5 hover:bg-panel ${DISABLED_LOOK}`}
          >
            Create link
          </button>
        </div>
        {create.isError && (
          <p role="alert" className="text-red-800">
            The link was not made: {create.error.message}
          </p>
        )}
        {url && (
          <div className="flex flex-wrap items-center gap-2" role="status">
            <label htmlFor={`${formId}-link`}>Link (shown once):</label>
            <input
              id={`${formId}-link`}
              ref={linkField}
              readOnly
              value={url}
              data-testid="share-link-url"
              className="min-w-0 flex-1 rounded border border-panel-line bg-panel-sunk px-1 py-0.5 font-mono text-xs"
              onFocus={(e) => e.target.select()}
            />
            <button
              type="button"
              onClick={() => void copy()}
              className="rounded border border-panel-line px-2 py-0.5 hover:bg-panel-sunk"
            >
              {copied ? 'Copied' : 'Copy link'}
            </button>
          </div>
        )}
      </form>
    </details>
  );
}
