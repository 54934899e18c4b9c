import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_CONFIG } from '@/testing/client-config';
import { createQueryClient } from '../../data/query-client';
import { viewerTime } from '../../lib/time-format';
import { DiagnosticsPage } from './diagnostics-page';

afterEach(() => vi.unstubAllGlobals());

function answer(body: unknown, status = 200) {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
    ),
  );
}

function renderPage() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <DiagnosticsPage />
    </QueryClientProvider>,
  );
}

describe('DiagnosticsPage', () => {
  it('lists each departure with its path, kind in words, count and whether data was dropped', async () => {
    answer({
      since: '2026-11-22T13:00:00.000Z',
      answersRead: 4,
      entries: [
        {
          operation: 'external-id',
          path: 'details[].locations[].lat',
          kind: 'null_where_required',
          count: 7,
          skipped: true,
          example: 'expected string, received null',
          firstSeen: '2026-11-22T13:00:00.000Z',
          lastSeen: '2026-11-22T13:05:00.000Z',
        },
        {
          operation: 'external-id',
          path: 'details[].stops',
          kind: 'unknown_field',
          count: 40,
          skipped: false,
          example: 'undocumented field "stops" kept',
          firstSeen: '2026-11-22T13:00:00.000Z',
          lastSeen: '2026-11-22T13:05:00.000Z',
        },
        {
          operation: 'external-id',
          path: 'details[].documents[].type',
          kind: 'wrong_type',
          count: 2,
          skipped: true,
          keptItem: true,
          example: 'expected string, received number: the field was dropped, its item kept',
          firstSeen: '2026-11-22T13:00:00.000Z',
          lastSeen: '2026-11-22T13:05:00.000Z',
        },
      ],
    });
    renderPage();
    const rows = await screen.findAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(rows[1]).toHaveTextContent(
      /details\[\]\.locations\[\]\.lat.*null where a value is required.*7.*skipped/,
    );
    expect(rows[2]).toHaveTextContent(/details\[\]\.stops.*undocumented field \(kept\).*40.*kept/);
    expect(rows[3]).toHaveTextContent(/details\[\]\.documents\[\]\.type.*2.*field dropped/);
    expect(screen.getByText(/4 answers read/)).toBeInTheDocument();
  });

  it('says plainly when nothing departed, and shows an error instead of crashing on a bad answer', async () => {
    answer({ since: '2026-11-22T13:00:00.000Z', answersRead: 1, entries: [] });
    renderPage();
    expect(await screen.findByText('No departures seen so far.')).toBeInTheDocument();
    expect(screen.getByText(/^1 answer read since/)).toBeInTheDocument();
  });

  it('shows a readable error when the answer is not a report', async () => {
    answer({ nothing: true });
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent(/not what was expected/);
  });

  it('says in the demo that the simulator departs from the schema on purpose', async () => {
    const report = { since: '2026-11-22T13:00:00.000Z', answersRead: 1, entries: [] };
    const demo = { externalIds: ['700100'], loadNumbers: [], webhookToken: null };
    const json = (body: unknown) =>
      new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (path: string) => json(path === '/api/config' ? { ...CLIENT_CONFIG, demo } : report)),
    );
    renderPage();
    expect(await screen.findByText(/This is the demo/)).toBeInTheDocument();
  });

  it('says nothing of the demo against a real service', async () => {
    const report = { since: '2026-11-22T13:00:00.000Z', answersRead: 1, entries: [] };
    const json = (body: unknown) =>
      new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (path: string) => json(path === '/api/config' ? CLIENT_CONFIG : report)),
    );
    renderPage();
    expect(await screen.findByText('No departures seen so far.')).toBeInTheDocument();
    // The config's answer is in too (both asked at once): still nothing of the demo.
    await new Promise((done) => setTimeout(done, 20));
    expect(fetch).toHaveBeenCalledWith('/api/config', expect.anything());
    expect(screen.queryByText(/This is the demo/)).toBeNull();
  });

  it('shows the service’s state: last success and error, a 429’s Retry-After, calls paused after failures', async () => {
    answer({
      since: '2026-11-22T13:00:00.000Z',
      answersRead: 9,
      entries: [],
      upstream: {
        lastSuccessAt: '2026-11-22T13:58:00.000Z',
        lastError: {
          at: '2026-11-22T14:00:00.000Z',
          code: 'upstream_rate_limited',
          message: 'the upstream asks us to slow down; next call in 30 s',
        },
        rateLimited: { retryAfterSeconds: 30, until: '2026-11-22T14:00:30.000Z' },
        consecutiveFailures: 5,
        pauseAfterFailures: 5,
        pausedUntil: '2026-11-22T14:01:00.000Z',
      },
    });
    renderPage();
    const section = await screen.findByRole('region', { name: 'The tracking service, as the proxy sees it' });
    const value = (term: string) => within(section).getByText(term).nextElementSibling?.textContent ?? '';
    expect(value('Last success')).toContain(viewerTime(Date.parse('2026-11-22T13:58:00.000Z')));
    expect(value('Last error')).toContain('the upstream asks us to slow down; next call in 30 s');
    expect(value('Last error')).toContain('upstream_rate_limited');
    expect(value('Rate limiting')).toBe(
      `The service asked the proxy to slow down (429, Retry-After 30 s): no call before ${viewerTime(Date.parse('2026-11-22T14:00:30.000Z'))}.`,
    );
    expect(value('Calls')).toMatch(/^Paused after 5 failures in a row/);
  });

  it('says all is well when the service answers and is not limiting', async () => {
    answer({
      since: '2026-11-22T13:00:00.000Z',
      answersRead: 1,
      entries: [],
      upstream: {
        lastSuccessAt: null,
        lastError: null,
        rateLimited: null,
        consecutiveFailures: 0,
        pauseAfterFailures: 5,
        pausedUntil: null,
      },
    });
    renderPage();
    const section = await screen.findByRole('region', { name: 'The tracking service, as the proxy sees it' });
    expect(section).toHaveTextContent('Last successnone since the server started');
    expect(section).toHaveTextContent('None: the service has not asked the proxy to wait.');
    expect(section).toHaveTextContent('CallsGoing through.');
  });
});
