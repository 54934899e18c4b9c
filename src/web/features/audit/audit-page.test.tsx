import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuditEntry } from '@/contract/admin-api';
import { createQueryClient } from '../../data/query-client';
import { viewerTime } from '../../lib/time-format';
import { AuditPage } from './audit-page';

/** The server's log, oldest first (ids grow with time), as GET /api/audit pages it. */
let log: AuditEntry[];
let down: boolean;
let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;

const entry = (id: number, over: Partial<AuditEntry> = {}): AuditEntry => ({
  id: String(id),
  at: new Date(Date.parse('2026-11-26T20:00:00Z') + id * 60_000).toISOString(),
  actor: 'Bo',
  action: 'login',
  subject: 'Bo',
  details: {},
  ...over,
});

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A small stand-in for the server: the same paging rules, so the page is tested against them. */
function answer(path: string): Response {
  if (down) return json(503, { error: { code: 'store_unavailable', message: 'the store does not answer' } });
  const query = new URL(path, 'http://x').searchParams;
  const limit = Number(query.get('limit'));
  const before = query.get('before');
  const action = query.get('action');
  const matching = log
    .filter((e) => (before === null || Number(e.id) < Number(before)) && (!action || e.action === action))
    .reverse();
  const entries = matching.slice(0, limit);
  return json(200, {
    entries,
    older: matching.length > limit ? (entries.at(-1)?.id ?? null) : null,
    actions: [...new Set(log.map((e) => e.action))].sort(),
  });
}

beforeEach(() => {
  down = false;
  log = [
    entry(1, { actor: 'test', action: 'user.add', subject: 'Ana', details: { role: 'broker' } }),
    entry(2, {
      actor: 'anonymous',
      action: 'login.failed',
      subject: 'Ana',
      details: { address: '10.0.0.7' },
    }),
    entry(3, { actor: 'Ana', subject: 'Ana', details: { address: '10.0.0.7' } }),
    entry(4, {
      actor: 'Ana',
      action: 'review',
      subject: 'https://files.example.com/pod.jpg',
      details: { decision: 'rejected', reason: 'unsigned', load: 'e:9001' },
    }),
    entry(5, {
      action: 'webhook.create',
      subject: '3f2b8c1e-5d4a-4e6b-9c7d-0a1b2c3d4e5f',
      details: { eventType: 'PdvRequestCompleted', clientUrl: 'https://hooks.example.com/h' },
    }),
  ];
  fetchMock = vi.fn<typeof fetch>(async (input) => answer(String(input)));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

function renderPage() {
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AuditPage />
    </QueryClientProvider>,
  );
  return { user };
}

const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent);
const bodyRows = async () => (await screen.findAllByRole('row')).slice(1);

describe('AuditPage', () => {
  it('lists who did what to what and when, the newest first, each action in words', async () => {
    renderPage();
    const rows = await bodyRows();
    expect(rows.map((r) => cellsOf(r).slice(1, 4))).toEqual([
      ['Bo', 'Webhook created', '3f2b8c1e-5d4a-4e6b-9c7d-0a1b2c3d4e5f'],
      ['Ana', 'Document review', 'Document of load e:9001https://files.example.com/pod.jpg'],
      ['Ana', 'Logged in', 'Ana'],
      ['anonymous', 'Failed login', 'Ana'],
      ['test', 'User added', 'Ana'],
    ]);
    expect(rows[1]).toHaveTextContent(/decision\s*rejected.*reason\s*unsigned.*load\s*e:9001/);
    expect(rows[0]).toHaveTextContent('https://hooks.example.com/h');
    const time = within(rows[0]!).getByText(viewerTime(Date.parse(log[4]!.at)));
    expect(time).toHaveAttribute('datetime', log[4]!.at);
    expect(time).toHaveAttribute('title', '2026-11-26 20:05:00 UTC');
    expect(screen.getByText('These are the oldest entries kept.')).toBeInTheDocument();
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/audit?limit=50');
  });

  it('says in words the share links, boards and exceptions the team acted on, not their codes', async () => {
    log = [
      'share.create',
      'share.view',
      'share.revoke',
      'board.save',
      'board.delete',
      'exception.acknowledge',
    ].map((action, i) => entry(i + 1, { action, subject: 'e:700101' }));
    const due = Date.parse('2026-11-29T04:06:00Z');
    log[5] = { ...log[5]!, details: { kind: 'late', occurrence: `stop 2 due ${due}`, note: 'called' } };
    renderPage();
    const rows = await bodyRows();
    // The occurrence's instant as the page writes times, not as milliseconds.
    expect(rows[0]).toHaveTextContent(`occurrencestop 2 due ${viewerTime(due)}`);
    expect(rows[0]).toHaveTextContent('notecalled');
    expect(rows.map((r) => cellsOf(r)[2])).toEqual([
      'Exception acknowledged',
      'Board deleted',
      'Board saved',
      'Share link revoked',
      'Share link opened',
      'Share link made',
    ]);
  });

  it('reads older entries a page at a time, after the last one shown, to the oldest', async () => {
    log = Array.from({ length: 120 }, (_, i) => entry(i + 1, { subject: `u${i + 1}` }));
    const { user } = renderPage();
    expect(await bodyRows()).toHaveLength(50);
    expect(cellsOf((await bodyRows())[0]!)[3]).toBe('u120');
    await user.click(screen.getByRole('button', { name: 'Older entries' }));
    await screen.findByText('100 shown');
    expect(fetchMock.mock.calls.at(-1)![0]).toBe('/api/audit?limit=50&before=71');
    await user.click(screen.getByRole('button', { name: 'Older entries' }));
    await screen.findByText('120 shown');
    const subjects = (await bodyRows()).map((r) => cellsOf(r)[3]);
    expect(subjects).toEqual(Array.from({ length: 120 }, (_, i) => `u${120 - i}`));
    expect(screen.queryByRole('button', { name: 'Older entries' })).not.toBeInTheDocument();
    expect(screen.getByText('These are the oldest entries kept.')).toBeInTheDocument();
  });

  it('filters by action, offering the actions the log holds, and back to all', async () => {
    const { user } = renderPage();
    await bodyRows();
    const filter = screen.getByLabelText('Action');
    expect(
      within(filter)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'All actions',
      'Logged in (login)',
      'Failed login (login.failed)',
      'Document review (review)',
      'User added (user.add)',
      'Webhook created (webhook.create)',
    ]);
    await user.selectOptions(filter, 'login.failed');
    await screen.findByText('1 shown');
    expect(fetchMock.mock.calls.at(-1)![0]).toBe('/api/audit?limit=50&action=login.failed');
    expect((await bodyRows()).map((r) => cellsOf(r)[1])).toEqual(['anonymous']);
    await user.selectOptions(filter, '');
    await screen.findByText('5 shown');
  });

  it('says when the log is empty', async () => {
    log = [];
    renderPage();
    expect(await screen.findByText('The audit log is empty.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('says so when the store does not answer, and reads again on request', async () => {
    down = true;
    const { user } = renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('database does not answer');
    down = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await bodyRows()).toHaveLength(5);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
