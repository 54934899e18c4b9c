import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import {
  ALERT_KIND_TEXT,
  ALERT_MAX_MINUTES,
  ALERT_KINDS,
  type AlertKind,
  type AlertRule,
  type AlertRuleInput,
} from '@/contract/alerts-api';
import { ErrorBanner } from '../../components/error-banner';
import { ApiError } from '../../data/api-client';
import { viewerTime } from '../../lib/time-format';
import { alertRuleQueries, useChangeRule } from './alert-rule-queries';

/** What the rule's number means for each kind: minutes, or hours for a POD. */
const UNIT: Record<AlertKind, { label: string; one: string; minutes: number }> = {
  dark: { label: 'minutes dark', one: 'minute dark', minutes: 1 },
  'at-risk': { label: 'minutes at risk', one: 'minute at risk', minutes: 1 },
  late: { label: 'minutes late', one: 'minute late', minutes: 1 },
  detention: { label: 'minutes of detention', one: 'minute of detention', minutes: 1 },
  'pod-overdue': { label: 'hours after delivery', one: 'hour after delivery', minutes: 60 },
};

const ruleText = (r: Pick<AlertRule, 'kind' | 'minMinutes'>) => {
  if (r.minMinutes === 0) return `${ALERT_KIND_TEXT[r.kind]}, at once`;
  const amount = r.minMinutes / UNIT[r.kind].minutes;
  const unit = amount === 1 ? UNIT[r.kind].one : UNIT[r.kind].label;
  // "No POD after delivery, 24 hours after delivery"; the others "…, after 45 minutes dark".
  return `${ALERT_KIND_TEXT[r.kind]}, ${r.kind === 'pod-overdue' ? '' : 'after '}${amount} ${unit}`;
};

/** The form's fields the server may refuse, by the request's names. */
type RuleField = 'minMinutes' | 'webhookUrl';

/** The server's refusal of fields of the form, each field's first reason: said under the field. */
function fieldProblems(error: unknown): Partial<Record<RuleField, string>> {
  if (!(error instanceof ApiError) || error.code !== 'invalid_request' || !Array.isArray(error.details))
    return {};
  const problems: Partial<Record<RuleField, string>> = {};
  for (const d of error.details as unknown[]) {
    const { path, message } = (d ?? {}) as { path?: unknown; message?: unknown };
    if ((path === 'minMinutes' || path === 'webhookUrl') && typeof message === 'string')
      problems[path] ??= message;
  }
  return problems;
}

/** The webhook's host only: Slack's addresses carry their secret in the path. */
const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).host : url);

/** `/admin/alerts`: the rules that fire alerts, a form to add one, and the webhooks that fail. */
export function AlertsAdminPage() {
  const rules = useQuery(alertRuleQueries.list());
  const change = useChangeRule();
  const ids = { kind: useId(), amount: useId(), url: useId(), amountError: useId(), urlError: useId() };
  const [kind, setKind] = useState<AlertKind>('dark');
  const [amount, setAmount] = useState('60');
  const [url, setUrl] = useState('');
  const problems = fieldProblems(change.error);
  const amountRef = useRef<HTMLInputElement>(null);
  const urlRef = useRef<HTMLInputElement>(null);
  // A refused field takes the focus, so a keyboard or screen reader user lands on what to mend.
  useEffect(() => {
    const wrong = fieldProblems(change.error);
    (wrong.minMinutes ? amountRef : wrong.webhookUrl ? urlRef : undefined)?.current?.focus();
  }, [change.error]);
  const fieldError = (field: RuleField, id: string) =>
    problems[field] ? (
      <p id={id} className="text-xs text-red-800">
        {problems[field]}
      </p>
    ) : null;
  const invalid = (field: RuleField, id: string) =>
    problems[field] ? { 'aria-invalid': true, 'aria-describedby': id } : {};

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const rule: AlertRuleInput = {
      kind,
      minMinutes: Math.round(Number(amount) * UNIT[kind].minutes),
      enabled: true,
      webhookUrl: url.trim() === '' ? null : url.trim(),
    };
    change.mutate({ kind: 'create', rule }, { onSuccess: () => setUrl('') });
  };
  const toggle = (r: AlertRule) =>
    change.mutate({
      kind: 'update',
      id: r.id,
      version: r.version,
      rule: { kind: r.kind, minMinutes: r.minMinutes, enabled: !r.enabled, webhookUrl: r.webhookUrl },
    });

  return (
    <div className="h-full overflow-y-auto">
      <div className="mx-auto flex max-w-5xl flex-col gap-4 p-4">
        <div>
          <h2 className="text-xl font-semibold tracking-tight">Alert rules</h2>
          <p className="mt-1 text-sm text-ink-muted">
            The server checks every load it holds against these rules at each refresh. An alert fires once per
            load and occurrence (a new stop, a new dark spell), shows on the{' '}
            <Link href="/exceptions" className="text-status-selected underline">
              Exceptions
            </Link>{' '}
            page, and is posted to the rule&apos;s webhook as Slack-compatible JSON, retried after 1, 5 and 30
            minutes. Changes are in the{' '}
            <Link href="/admin/audit" className="text-status-selected underline">
              audit log
            </Link>
            .
          </p>
        </div>
        {rules.error ? <ErrorBanner error={rules.error} onRetry={() => void rules.refetch()} /> : null}
        {change.error && !problems.minMinutes && !problems.webhookUrl ? (
          <ErrorBanner error={change.error} />
        ) : null}

        <form
          onSubmit={submit}
          // The browser's own check refused the form: the server's last refusal is no longer what is wrong.
          onInvalid={() => change.reset()}
          className="flex flex-wrap items-end gap-3 rounded border border-panel-line p-3"
        >
          <div className="flex flex-col gap-1 text-sm">
            <label htmlFor={ids.kind} className="font-medium">
              Alert when
            </label>
            <select
              id={ids.kind}
              value={kind}
              onChange={(e) => setKind(e.target.value as AlertKind)}
              className="rounded border border-panel-line bg-panel px-2 py-1"
            >
              {ALERT_KINDS.map((k) => (
                <option key={k} value={k}>
                  {ALERT_KIND_TEXT[k]}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1 text-sm">
            <label htmlFor={ids.amount} className="font-medium">
              After ({UNIT[kind].label})
            </label>
            <input
              id={ids.amount}
              type="number"
              min={0}
              max={ALERT_MAX_MINUTES / UNIT[kind].minutes}
              step={1}
              required
              value={amount}
              ref={amountRef}
              {...invalid('minMinutes', ids.amountError)}
              onChange={(e) => setAmount(e.target.value)}
              className="w-28 rounded border border-panel-line px-2 py-1"
            />
            {fieldError('minMinutes', ids.amountError)}
          </div>
          <div className="flex min-w-64 flex-1 flex-col gap-1 text-sm">
            <label htmlFor={ids.url} className="font-medium">
              Webhook (optional, https)
            </label>
            <input
              id={ids.url}
              type="url"
              placeholder="https://hooks.slack.com/services/…"
              value={url}
              ref={urlRef}
              {...invalid('webhookUrl', ids.urlError)}
              onChange={(e) => setUrl(e.target.value)}
              className="rounded border border-panel-line px-2 py-1"
            />
            {fieldError('webhookUrl', ids.urlError)}
          </div>
          <button
            type="submit"
            disabled={change.isPending}
            className="rounded bg-ink px-3 py-1 text-sm text-white disabled:opacity-50"
          >
            Add rule
          </button>
        </form>

        {rules.isPending ? <p className="text-ink-muted">Loading the rules…</p> : null}
        {rules.data && rules.data.rules.length === 0 ? (
          <p className="rounded border border-panel-line bg-panel-sunk p-3 text-sm">
            No rule yet: no alert fires.
          </p>
        ) : null}
        <ul
          aria-label="Rules"
          className="flex flex-col divide-y divide-panel-line rounded border border-panel-line"
        >
          {(rules.data?.rules ?? []).map((r) => (
            <li
              key={r.id}
              data-rule={r.id}
              className="flex flex-wrap items-center gap-x-4 gap-y-1 px-3 py-2 text-sm"
            >
              <span className={`font-semibold ${r.enabled ? '' : 'text-ink-muted line-through'}`}>
                {ruleText(r)}
              </span>
              <span className="text-ink-muted">
                {r.webhookUrl ? `webhook ${hostOf(r.webhookUrl)}` : 'in-app only'}
              </span>
              <span className="text-xs text-ink-muted">
                by {r.updatedBy}, {viewerTime(Date.parse(r.updatedAt))}
              </span>
              <span className="ml-auto flex gap-2">
                <button
                  type="button"
                  onClick={() => toggle(r)}
                  disabled={change.isPending}
                  className="rounded border border-ink px-2 py-0.5 text-xs disabled:opacity-50"
                >
                  {r.enabled ? 'Pause' : 'Resume'}
                </button>
                <button
                  type="button"
                  onClick={() => change.mutate({ kind: 'delete', id: r.id })}
                  disabled={change.isPending}
                  aria-label={`Delete rule: ${ruleText(r)}`}
                  className="rounded border border-red-700 px-2 py-0.5 text-xs text-red-800 disabled:opacity-50"
                >
                  Delete
                </button>
              </span>
            </li>
          ))}
        </ul>

        <section aria-labelledby="failing-heading" className="flex flex-col gap-2">
          <h3 id="failing-heading" className="text-lg font-semibold">
            Webhook deliveries failing ({rules.data?.failing.length ?? 0})
          </h3>
          {rules.data && rules.data.failing.length === 0 ? (
            <p className="text-sm text-ink-muted">Every webhook delivery so far went through.</p>
          ) : (
            <ul aria-label="Failing deliveries" className="flex flex-col gap-1 text-sm">
              {(rules.data?.failing ?? []).map((f) => (
                <li key={f.alertId} className="rounded border border-red-300 bg-red-50 px-3 py-1.5">
                  <span className="font-semibold">{f.state === 'failed' ? 'Gave up' : 'Retrying'}</span>
                  {` after ${f.attempts} attempt${f.attempts === 1 ? '' : 's'}: ${f.lastError ?? 'no answer'}`}
                  {f.nextAt ? `; next ${viewerTime(Date.parse(f.nextAt))}` : ''}
                  <span className="block text-ink-muted">{f.text}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}
