import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Alert } from '@/contract/alerts-api';
import type { Role } from '@/contract/proxy-api';
import { createQueryClient } from '../../data/query-client';
import { AlertsSection } from './alerts-section';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const alert = (id: string, load: string, text: string): Alert => ({
  id,
  ruleId: 1,
  kind: 'late',
  load,
  occurrence: 'stop 2',
  text,
  since: null,
  firedAt: '2026-11-26T20:00:00Z',
});

let role: Role;
let alerts: unknown;

beforeEach(() => {
  role = 'dispatcher';
  alerts = { alerts: [alert('2', 'n:ABC 1', 'Late for the next stop: load n:ABC 1, Stop 2: Late 40 min')] };
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async (url) =>
      String(url) === '/api/session'
        ? json(200, { mode: 'users', user: { name: 'Ana', role } })
        : json(200, alerts),
    ),
  );
});
afterEach(() => vi.unstubAllGlobals());

const show = () =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AlertsSection refreshSeconds={30} />
    </QueryClientProvider>,
  );

describe('AlertsSection', () => {
  it('lists each alert with a link to its load; only admins get the rules link', async () => {
    show();
    const list = await screen.findByRole('list', { name: 'Alerts' });
    expect(within(list).getByText(/Late 40 min/)).toBeTruthy();
    expect(within(list).getByRole('link', { name: 'n:ABC 1' }).getAttribute('href')).toBe(
      '/loads/load-number/ABC%201',
    );
    expect(screen.queryByRole('link', { name: 'Alert rules' })).toBeNull();
  });

  it('shows the rules link to an admin', async () => {
    role = 'admin';
    show();
    expect(await screen.findByRole('link', { name: 'Alert rules' })).toBeTruthy();
  });

  it('says so when an answer does not fit, instead of an empty list', async () => {
    alerts = { alerts: [{ id: 1 }] };
    show();
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.queryByText('No alert has fired.')).toBeNull();
  });
});
