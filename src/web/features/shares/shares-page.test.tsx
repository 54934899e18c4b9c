import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ShareLink } from '@/contract/share-api';
import { createQueryClient } from '../../data/query-client';
import { SharesPage } from './shares-page';

const link = (over: Partial<ShareLink> = {}): ShareLink => ({
  id: '1',
  loads: ['e:700101'],
  shows: { map: true, status: true, stops: true, pod: false },
  expiresAt: '2026-12-04T03:10:26.007Z',
  afterDeliveryDays: null,
  reference: null,
  createdBy: 'Ana',
  createdAt: '2026-11-27T03:10:26.007Z',
  revokedAt: null,
  revokedBy: null,
  views: 0,
  lastViewAt: null,
  live: true,
  ...over,
});

let links: ShareLink[];

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(
      async () =>
        new Response(JSON.stringify({ links }), { headers: { 'Content-Type': 'application/json' } }),
    ),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderPage() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <SharesPage />
    </QueryClientProvider>,
  );
}

describe('SharesPage', () => {
  it('names each shared load by its id, as the board does, with a link to its page', async () => {
    links = [link({ loads: ['e:700101', 'n:LN 5/1'] })];
    renderPage();
    const [row] = await screen.findAllByTestId('share-row');
    const cell = within(row!).getAllByRole('cell')[0]!;
    // The API's "e:"/"n:" prefixes say which kind of id; a person reads the id.
    expect(cell).toHaveTextContent(/^700101, LN 5\/1$/);
    expect(within(cell).getByRole('link', { name: '700101' })).toHaveAttribute(
      'href',
      '/loads/external-id/700101',
    );
    expect(within(cell).getByRole('link', { name: 'LN 5/1' })).toHaveAttribute(
      'href',
      '/loads/load-number/LN%205%2F1',
    );
    expect(
      within(row!).getByRole('button', { name: /^Revoke the link to 700101, LN 5\/1 made / }),
    ).toBeVisible();
  });

  it('shows a reference it cannot read as it came, not as a broken link', async () => {
    links = [link({ loads: ['x:oops'], reference: 'PO 4471' })];
    renderPage();
    const [row] = await screen.findAllByTestId('share-row');
    const cell = within(row!).getAllByRole('cell')[0]!;
    expect(cell).toHaveTextContent('x:oops');
    expect(cell).toHaveTextContent('as “PO 4471”');
    expect(within(cell).queryByRole('link')).toBeNull();
  });
});
