import { useRef, type ReactNode, type RefObject } from 'react';
import { CopyButton } from './copy-button';
import { formatInstant } from './format-time';
import type { CreatedWebhook } from './webhook-api';

export interface WebhookResultCardProps {
  created: CreatedWebhook;
  /** Focused once the card appears, so keyboard and screen-reader users land on the result. */
  headingRef: RefObject<HTMLHeadingElement | null>;
}

/** What the service answered to a successful creation (2.7 and the `Location` header), each copyable. */
export function WebhookResultCard({ created, headingRef }: WebhookResultCardProps) {
  const { webhook, location, recorded } = created;
  const time = webhook.createdAt ? formatInstant(webhook.createdAt) : undefined;
  return (
    <section
      aria-labelledby="webhook-created-heading"
      className="rounded border border-status-fresh/40 bg-panel p-4 shadow-sm"
    >
      <h3
        id="webhook-created-heading"
        ref={headingRef}
        tabIndex={-1}
        className="mb-3 text-base font-semibold text-status-fresh"
      >
        Webhook created
      </h3>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <Row label="UUID" copy={webhook.uuid}>
          <code>{webhook.uuid}</code>
        </Row>
        <Row label="Event type" copy={webhook.eventType}>
          {webhook.eventType ?? <NotSent />}
        </Row>
        <Row label="Client URL" copy={webhook.clientUrl}>
          <span className="break-all">{webhook.clientUrl ?? <NotSent />}</span>
        </Row>
        <Row label="Active" copy={webhook.isActive === undefined ? undefined : String(webhook.isActive)}>
          {webhook.isActive === undefined ? <NotSent /> : webhook.isActive ? 'Yes' : 'No'}
        </Row>
        <Row label="Created" copy={webhook.createdAt}>
          {time ? (
            <>
              <time dateTime={webhook.createdAt}>{time.local}</time>
              <span className="block text-ink-muted">{time.utc}</span>
            </>
          ) : (
            (webhook.createdAt ?? <NotSent />)
          )}
        </Row>
        <Row label="Location" copy={location}>
          {location ? <code className="break-all">{location}</code> : <NotSent />}
        </Row>
      </dl>
      {!recorded && (
        <p role="status" className="mt-3 text-sm text-status-stale">
          Haulview’s store did not answer, so this webhook is missing from the team’s list below. Copy its
          UUID now: the service keeps the webhook, but Haulview has no other record of it.
        </p>
      )}
    </section>
  );
}

function Row({ label, copy, children }: { label: string; copy: string | undefined; children: ReactNode }) {
  const value = useRef<HTMLElement>(null);
  return (
    <>
      <dt className="font-medium text-ink-muted">{label}</dt>
      <dd className="flex flex-wrap items-start justify-between gap-2">
        <span ref={value} className="min-w-0">
          {children}
        </span>
        {copy !== undefined && <CopyButton value={copy} label={label} source={value} />}
      </dd>
    </>
  );
}

function NotSent() {
  // The proxy cannot tell a field left out from one it could not read: both are absent here.
  return <span className="text-ink-muted">not sent by the service, or not readable</span>;
}
