import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { RecordedWebhook } from '@/contract/admin-api';
import type { ClientConfig } from '@/contract/proxy-api';
import { HttpsUrl, WEBHOOK_EVENT_TYPES } from '@/contract/webhook';
import { createdWebhookRowId, CreatedWebhooksList } from './created-webhooks-list';
import { formatInstant } from './format-time';
import { ProblemList, ServiceDetails } from './problem-list';
import { useCreateWebhook, webhookQueries } from './webhook-mutations';
import {
  describeFailure,
  FORM_FIELDS,
  type FailureView,
  type FormField,
  type Problem,
} from './webhook-problems';
import { WebhookResultCard } from './webhook-result-card';

export interface WebhooksPageProps {
  config: ClientConfig;
  /** The browser's own deadline for one request; the default suits the proxy's (tests shorten it). */
  requestTimeoutMs?: number;
}

type Values = Record<FormField, string>;
type FocusTarget = FormField | 'summary' | 'result';

/** A token as the proxy forwards it (token68): a JWT is three base64url parts joined by dots. */
const TOKEN68 = /^[\w\-.~+/]+=*$/;

/** What is wrong with each field before anything is sent. */
function validate(values: Values): Partial<Record<FormField, string>> {
  const errors: Partial<Record<FormField, string>> = {};
  if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(values.eventType)) {
    errors.eventType = 'Choose an event type.';
  }
  const url = HttpsUrl.safeParse(values.clientUrl);
  if (!url.success) errors.clientUrl = sentence(url.error.issues[0]?.message ?? 'not a valid URL');
  const token = normalizeToken(values.token);
  if (token === '') errors.token = 'Enter the bearer token.';
  else if (!TOKEN68.test(token)) {
    errors.token = 'A bearer token holds letters, digits and - . _ ~ + / only, without spaces.';
  }
  return errors;
}

/** A pasted `Bearer …` header value, or stray spaces, still mean the token. */
function normalizeToken(token: string): string {
  return token.trim().replace(/^Bearer\s+/i, '');
}

function sentence(text: string): string {
  const s = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

/** The same address however it is written ("HTTPS://Example.com" is "https://example.com/"). */
function sameUrl(a: string, b: string): boolean {
  const norm = (u: string) => (URL.canParse(u.trim()) ? new URL(u.trim()).href : u.trim());
  return norm(a) === norm(b);
}

/** The entry of the team's list that a 409 for this request duplicates, if it is there. */
function duplicateOf(
  entries: readonly RecordedWebhook[],
  sent: { eventType: string; clientUrl: string } | undefined,
): RecordedWebhook | undefined {
  if (!sent) return undefined;
  return entries.find((e) => e.eventType === sent.eventType && sameUrl(e.clientUrl, sent.clientUrl));
}

/** Where a 409 points: the entry it duplicates in the list below, or that it is not there. */
function DuplicatePointer({ entry }: { entry: RecordedWebhook | undefined }) {
  if (!entry) {
    return <p className="mt-1">It was not created through Haulview, so it is not in the list below.</p>;
  }
  const time = formatInstant(entry.createdAt);
  return (
    <p className="mt-1">
      It is in the list below:{' '}
      <a
        href={`#${createdWebhookRowId(entry.uuid)}`}
        className="font-medium underline"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById(createdWebhookRowId(entry.uuid))?.scrollIntoView({ block: 'center' });
        }}
      >
        created by {entry.createdBy} {time?.local ?? entry.createdAt}, UUID <code>{entry.uuid}</code>
      </a>
      .
    </p>
  );
}

/** `/webhooks`: an admin registers an address the service notifies (4.4), and sees what was created. */
export function WebhooksPage({ config, requestTimeoutMs }: WebhooksPageProps) {
  const [values, setValues] = useState<Values>({
    eventType: WEBHOOK_EVENT_TYPES[0],
    clientUrl: '',
    token: '',
  });
  // A field's own error shows once it was edited (so it is checked as you type) or a submit was tried.
  const [checked, setChecked] = useState<ReadonlySet<FormField>>(new Set());
  // The service's verdict on a field stands until that field is edited.
  const [editedSinceSend, setEditedSinceSend] = useState<ReadonlySet<FormField>>(new Set());
  const [showToken, setShowToken] = useState(false);
  const [focusRequest, setFocusRequest] = useState<{ target: FocusTarget } | null>(null);
  const mutation = useCreateWebhook(requestTimeoutMs);
  // Set synchronously on submit: a second click before React re-renders must not send again.
  const inFlight = useRef(false);

  const refs = {
    eventType: useRef<HTMLSelectElement>(null),
    clientUrl: useRef<HTMLInputElement>(null),
    token: useRef<HTMLInputElement>(null),
    summary: useRef<HTMLDivElement>(null),
    result: useRef<HTMLHeadingElement>(null),
  };
  const { eventType, clientUrl, token, summary, result } = refs;
  useEffect(() => {
    if (!focusRequest) return;
    const targets = { eventType, clientUrl, token, summary, result };
    targets[focusRequest.target].current?.focus();
  }, [focusRequest, eventType, clientUrl, token, summary, result]);

  const errors = validate(values);
  const failure: FailureView | undefined = mutation.isError ? describeFailure(mutation.error) : undefined;
  const created = useQuery(webhookQueries.list());
  const duplicate = failure?.duplicate
    ? duplicateOf(created.data?.webhooks ?? [], mutation.variables)
    : undefined;
  const pending = mutation.isPending;

  function change(field: FormField, value: string) {
    setValues((v) => ({ ...v, [field]: value }));
    setChecked((s) => new Set(s).add(field));
    setEditedSinceSend((s) => new Set(s).add(field));
  }

  function send() {
    if (inFlight.current) return;
    setChecked(new Set(FORM_FIELDS));
    const firstInvalid = FORM_FIELDS.find((f) => errors[f]);
    if (firstInvalid) {
      // The last answer's verdict and its Details were of other values: they go with them.
      mutation.reset();
      setFocusRequest({ target: firstInvalid });
      return;
    }
    inFlight.current = true;
    setEditedSinceSend(new Set());
    mutation.mutate(
      {
        eventType: values.eventType as (typeof WEBHOOK_EVENT_TYPES)[number],
        clientUrl: values.clientUrl,
        token: normalizeToken(values.token),
      },
      {
        onSuccess: () => setFocusRequest({ target: 'result' }),
        onError: (error) => {
          const view = describeFailure(error);
          if (view.focus !== 'none') setFocusRequest({ target: view.focus });
        },
        onSettled: () => {
          inFlight.current = false;
        },
      },
    );
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    send();
  }

  /** What stands under a field: its own error, or the service's verdict on it. */
  function problemsOf(field: FormField): readonly Problem[] {
    const own = checked.has(field) ? errors[field] : undefined;
    if (own) return [{ message: own }];
    if (failure && !editedSinceSend.has(field)) return failure.fieldProblems[field] ?? [];
    return [];
  }

  /** The service's own words under a field, behind "Details", while its verdict stands there. */
  function detailsOf(field: FormField): readonly Problem[] | undefined {
    if (!failure || failure.detailsField !== field || problemsOf(field).length === 0) return undefined;
    return failure.details;
  }

  const demoToken = config.demo?.webhookToken ?? null;
  const showSummary = failure && (failure.title || failure.problems.length > 0);

  return (
    <div className="h-full overflow-y-auto">
      <div className="mx-auto flex max-w-3xl flex-col gap-4 p-4">
        <div>
          <h2 className="text-xl font-semibold tracking-tight">Webhooks</h2>
          <p className="mt-1 text-sm text-ink-muted">
            Register an address that the tracking service notifies when an event happens. The service delivers
            to https addresses only.
          </p>
        </div>

        {showSummary && (
          <div
            ref={summary}
            tabIndex={-1}
            role={failure.focus === 'none' ? 'alert' : undefined}
            aria-labelledby="webhook-failure-title"
            className="rounded border border-red-300 bg-red-50 p-3 text-sm text-red-900"
          >
            <p id="webhook-failure-title" className="font-semibold">
              {failure.title ?? 'The webhook was not created.'}
            </p>
            <ProblemList problems={failure.problems} />
            {failure.duplicate && <DuplicatePointer entry={duplicate} />}
            {failure.note && <p className="mt-1">{failure.note}</p>}
            {!failure.detailsField && <ServiceDetails problems={failure.details} />}
            {failure.retryable && (
              <button
                type="button"
                onClick={send}
                aria-disabled={pending}
                className="mt-2 rounded border border-red-400 px-2 py-0.5 hover:bg-red-100 aria-disabled:opacity-50"
              >
                Retry
              </button>
            )}
          </div>
        )}

        <form
          noValidate
          onSubmit={onSubmit}
          aria-labelledby="webhook-form-heading"
          className="flex flex-col gap-4 rounded border border-panel-line bg-panel p-4"
        >
          <h3 id="webhook-form-heading" className="text-base font-semibold">
            New webhook
          </h3>

          <Field
            label="Event type"
            hint="PdvRequestCompleted is the only event the service offers for self-service webhooks."
            problems={problemsOf('eventType')}
          >
            {(a11y) => (
              <select
                {...a11y}
                ref={eventType}
                value={values.eventType}
                onChange={(e) => change('eventType', e.target.value)}
                className={inputClass}
              >
                {WEBHOOK_EVENT_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            )}
          </Field>

          <Field
            label="Client URL"
            hint="The https:// address that is to receive the notifications."
            problems={problemsOf('clientUrl')}
          >
            {(a11y) => (
              <input
                {...a11y}
                ref={clientUrl}
                type="url"
                inputMode="url"
                autoComplete="off"
                spellCheck={false}
                placeholder="https://example.com/hooks/haulview"
                value={values.clientUrl}
                onChange={(e) => change('clientUrl', e.target.value)}
                className={inputClass}
              />
            )}
          </Field>

          <Field
            label="Bearer token"
            hint="The access token (a JWT) of the webhook service. It is sent with the request and held by this page while it is open, never saved, not even in this browser."
            problems={problemsOf('token')}
            details={detailsOf('token')}
          >
            {(a11y) => (
              <div className="flex flex-wrap items-center gap-2">
                <input
                  {...a11y}
                  ref={token}
                  type={showToken ? 'text' : 'password'}
                  autoComplete="off"
                  spellCheck={false}
                  value={values.token}
                  onChange={(e) => change('token', e.target.value)}
                  // Room for a token's start before the buttons share its row; on a phone they wrap below.
                  className={`${inputClass} min-w-0 flex-1 basis-56 font-mono`}
                />
                <button
                  type="button"
                  aria-pressed={showToken}
                  aria-controls={a11y.id}
                  onClick={() => setShowToken((s) => !s)}
                  className={secondaryButton}
                >
                  Show token
                </button>
                {demoToken !== null && (
                  <button
                    type="button"
                    onClick={() => {
                      change('token', demoToken);
                      token.current?.focus();
                    }}
                    className={secondaryButton}
                  >
                    Use the demo token
                  </button>
                )}
              </div>
            )}
          </Field>

          <div className="flex items-center gap-3">
            <button
              type="submit"
              aria-disabled={pending}
              className="rounded bg-status-selected px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-800 aria-disabled:cursor-wait aria-disabled:opacity-60"
            >
              {pending ? 'Creating…' : 'Create webhook'}
            </button>
            <span role="status" className="text-sm text-ink-muted">
              {pending ? 'Sending the request to the webhook service…' : ''}
            </span>
          </div>
        </form>

        {mutation.isSuccess && <WebhookResultCard created={mutation.data} headingRef={result} />}

        <CreatedWebhooksList highlight={duplicate?.uuid} />
      </div>
    </div>
  );
}

const inputClass =
  'rounded border border-panel-line bg-panel px-2 py-1 text-sm aria-[invalid=true]:border-status-silent';
const secondaryButton = 'rounded border border-panel-line px-2 py-1 text-sm hover:bg-panel-sunk';

interface FieldA11y {
  id: string;
  'aria-describedby': string;
  'aria-invalid': boolean;
}

/** A labelled control with its hint and its problems, tied to it for assistive technology. */
function Field({
  label,
  hint,
  problems,
  details,
  children,
}: {
  label: string;
  hint: string;
  problems: readonly Problem[];
  /** The service's own lines about the field, behind a disclosure. */
  details?: readonly Problem[];
  children: (a11y: FieldA11y) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const invalid = problems.length > 0;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children({
        id,
        'aria-describedby': invalid ? `${errorId} ${hintId}` : hintId,
        'aria-invalid': invalid,
      })}
      <ProblemList id={errorId} problems={problems} />
      <ServiceDetails problems={details} />
      <p id={hintId} className="text-xs text-ink-muted">
        {hint}
      </p>
    </div>
  );
}
