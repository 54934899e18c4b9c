import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AlertRule, AlertRulesAnswer } from '@/contract/alerts-api';
import { createQueryClient } from '../../data/query-client';
import { AlertsAdminPage } from './alerts-admin-page';

const json = (status: number, body: unknown) =>
  new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

let answer: AlertRulesAnswer;
let sent: { method: string; path: string; body: unknown }[];

const rule = (id: number, over: Partial<AlertRule> = {}): AlertRule => ({
  id,
  kind: 'dark',
  minMinutes: 45,
  enabled: true,
  webhookUrl: 'https://hooks.slack.com/services/T000/B000/SECRET',
  createdBy: 'Ada',
  createdAt: '2026-11-26T20:00:00Z',
  updatedBy: 'Ada',
  updatedAt: '2026-11-26T20:00:00Z',
  version: 1,
  ...over,
});

beforeEach(() => {
  sent = [];
  answer = {
    rules: [rule(1)],
    failing: [
      {
        alertId: '7',
        load: 'e:9001',
        text: 'Dark (no recent ping): load e:9001, last ping 2026-11-26T19:00Z',
        state: 'pending',
        attempts: 2,
        nextAt: '2026-11-26T20:10:00Z',
        lastError: 'HTTP 500',
        firedAt: '2026-11-26T20:00:00Z',
      },
    ],
  };
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async (url, init) => {
      const method = init?.method ?? 'GET';
      const path = String(url);
      if (method === 'GET') return json(200, answer);
      const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined;
      sent.push({ method, path, body });
      if (method === 'POST' && body?.webhookUrl === 'https://10.0.0.9/hook')
        return json(400, {
          error: {
            code: 'invalid_request',
            message: 'webhookUrl: the address is on a private network: alerts are not posted there',
          },
        });
      if (method === 'POST' && String(body?.webhookUrl).startsWith('http:'))
        return json(400, {
          error: {
            code: 'invalid_request',
            message: 'webhookUrl: a webhook URL is an https:// URL',
            details: [{ path: 'webhookUrl', message: 'a webhook URL is an https:// URL' }],
          },
        });
      if (method === 'POST') return json(201, rule(2, body as Partial<AlertRule>));
      if (method === 'DELETE') return json(204, null);
      return json(200, rule(1, { ...(body as Partial<AlertRule>), version: 2 }));
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const show = () =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AlertsAdminPage />
    </QueryClientProvider>,
  );

describe('AlertsAdminPage', () => {
  it('lists the rules without the webhook secret, and the failing deliveries with their error', async () => {
    show();
    const rules = await screen.findByRole('list', { name: 'Rules' });
    expect(await within(rules).findByText('Dark (no recent ping), after 45 minutes dark')).toBeTruthy();
    expect(within(rules).getByText('webhook hooks.slack.com')).toBeTruthy();
    expect(document.body.textContent).not.toContain('SECRET');
    const failing = screen.getByRole('list', { name: 'Failing deliveries' });
    expect(failing.textContent).toContain('Retrying after 2 attempts: HTTP 500');
  });

  it('adds a POD rule in hours, pauses and deletes a rule', async () => {
    const user = userEvent.setup();
    show();
    await screen.findByText('Dark (no recent ping), after 45 minutes dark');
    await user.selectOptions(screen.getByLabelText('Alert when'), 'pod-overdue');
    const amount = screen.getByLabelText('After (hours after delivery)');
    await user.clear(amount);
    await user.type(amount, '24');
    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    await user.click(await screen.findByRole('button', { name: 'Pause' }));
    await user.click(screen.getByRole('button', { name: /^Delete rule/ }));
    await vi.waitFor(() => expect(sent).toHaveLength(3));
    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/api/alerts/rules',
        body: { kind: 'pod-overdue', minMinutes: 1440, enabled: true, webhookUrl: null },
      },
      {
        method: 'PUT',
        path: '/api/alerts/rules/1',
        body: {
          kind: 'dark',
          minMinutes: 45,
          enabled: false,
          webhookUrl: 'https://hooks.slack.com/services/T000/B000/SECRET',
          version: 1,
        },
      },
      { method: 'DELETE', path: '/api/alerts/rules/1', body: {} },
    ]);
  });

  it('shows the server’s refusal of a private webhook address', async () => {
    const user = userEvent.setup();
    show();
    await screen.findByText('Dark (no recent ping), after 45 minutes dark');
    await user.type(screen.getByLabelText('Webhook (optional, https)'), 'https://10.0.0.9/hook');
    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    expect((await screen.findByRole('alert')).textContent).toContain('private network');
  });

  it('says a refused field under it, and moves the focus there', async () => {
    const user = userEvent.setup();
    show();
    await screen.findByText('Dark (no recent ping), after 45 minutes dark');
    const webhook = screen.getByLabelText('Webhook (optional, https)');
    await user.type(webhook, 'http://hooks.example.com/x');
    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    await vi.waitFor(() => expect(webhook).toHaveAttribute('aria-invalid', 'true'));
    expect(webhook).toHaveAccessibleDescription('a webhook URL is an https:// URL');
    expect(webhook).toHaveFocus();
    // Said once, where it belongs: not again in a banner with the request's field name.
    expect(screen.queryByText(/webhookUrl/)).toBeNull();
    // A later try the browser's own check refuses (more than a year): the server's refusal goes.
    const amount = screen.getByLabelText('After (minutes dark)');
    expect(amount).toHaveAttribute('max', '525600');
    await user.clear(amount);
    await user.type(amount, '99999999');
    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    await vi.waitFor(() => expect(webhook).not.toHaveAttribute('aria-invalid'));
    expect(screen.queryByText('a webhook URL is an https:// URL')).toBeNull();
    await user.selectOptions(screen.getByLabelText('Alert when'), 'pod-overdue');
    expect(screen.getByLabelText('After (hours after delivery)')).toHaveAttribute('max', '8760');
  });

  it('counts one minute or hour in the singular', async () => {
    answer.rules = [rule(1, { minMinutes: 1 }), rule(3, { kind: 'pod-overdue', minMinutes: 60 })];
    show();
    expect(await screen.findByText('Dark (no recent ping), after 1 minute dark')).toBeTruthy();
    expect(screen.getByText('No POD after delivery, 1 hour after delivery')).toBeTruthy();
  });
});
