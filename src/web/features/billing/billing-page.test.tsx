import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OverdueAnswer, PaperworkAnswer, PaperworkLoad, ReadyLoad } from '@/contract/billing-api';
import { createQueryClient } from '../../data/query-client';
import { BillingPage } from './billing-page';

const load = (id: string, over: Partial<PaperworkLoad> = {}): PaperworkLoad => ({
  ref: `e:${id}`,
  by: 'external-id',
  id,
  externalId: id,
  state: 'to-review',
  checks: [],
  ...over,
});
const check = (id: string, flags: PaperworkLoad['checks'][number]['flags'], instant = 1_764_000_000_000) => ({
  url: `https://files.example.com/${id}.jpg`,
  kind: 'POD' as const,
  instant,
  stopOrder: 2,
  flags,
});

const PAPERWORK: PaperworkAnswer = {
  held: 4,
  counts: { 'on-the-road': 3, missing: 1, 'to-review': 2, rejected: 0, complete: 1 },
  loads: [
    load('700101', { checks: [check('a', [{ kind: 'no-time', text: 'no time to check' }], 1)] }),
    load('700102', {
      checks: [check('b', [{ kind: 'far-from-stop', text: 'taken 38 km from the delivery stop' }], 2)],
    }),
    load('700103', { state: 'complete', checks: [check('c', [], 3)] }),
    load('700104', { state: 'missing' }),
    load('700105', {
      state: 'on-the-road',
      checks: [check('e', [{ kind: 'earlier-trip', text: 'of an earlier trip under the same ids' }], 4)],
    }),
  ],
};
const READY: ReadyLoad = {
  ref: 'e:700103',
  by: 'external-id',
  id: '700103',
  externalId: '700103',
  deliveryStop: { order: 2, name: 'Lakeside Foods', city: 'Chicago', state: 'IL' },
  deliveredAt: '2026-11-24T20:55:00.000Z',
  deliveredAtStop: '11/24/2026 14:55',
  stopZone: 'GMT-6',
  podUrl: 'https://files.example.com/c.jpg',
  reviewedBy: 'Ana',
  reviewedAt: '2026-11-25T09:00:00.000Z',
};
/** The same load's earlier delivery: it was dispatched again under its ids since. */
const EARLIER: ReadyLoad = {
  ...READY,
  deliveryStop: undefined,
  deliveredAtStop: undefined,
  stopZone: undefined,
  deliveredAt: '2026-11-22T08:00:00.000Z',
  podUrl: 'https://files.example.com/earlier.jpg',
  earlierTrip: true,
};
/** Another earlier delivery, whose stops were kept while its trip was current. */
const EARLIER_KEPT: ReadyLoad = {
  ...READY,
  deliveryStop: { order: 2, name: 'Fresh Mart', city: 'Dallas', state: 'TX' },
  deliveredAt: '2026-11-23T08:00:00.000Z',
  podUrl: 'https://files.example.com/earlier-kept.jpg',
  earlierTrip: true,
};
const OVERDUE: OverdueAnswer = {
  held: 4,
  dueHours: 24,
  loads: [
    {
      ref: 'e:700104',
      by: 'external-id',
      id: '700104',
      externalId: '700104',
      deliveryStop: { order: 2, city: 'Omaha', state: 'NE' },
      deliveredAt: '2026-11-23T10:00:00.000Z',
      hoursSince: 30.5,
    },
  ],
};

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  fetchMock = vi.fn<typeof fetch>(async (input) => {
    const url = new URL(String(input), 'http://x');
    if (url.pathname === '/api/billing/paperwork') return json(200, PAPERWORK);
    if (url.pathname === '/api/billing/overdue') return json(200, OVERDUE);
    if (url.pathname === '/api/billing/ready') {
      const from = url.searchParams.get('from');
      return json(200, { held: 4, loads: from && from > '2026-11-24' ? [] : [EARLIER, EARLIER_KEPT, READY] });
    }
    return json(404, { error: { code: 'not_found', message: 'no route' } });
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

function renderPage() {
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <BillingPage />
    </QueryClientProvider>,
  );
  return user;
}

describe('the billing page', () => {
  it('counts the paperwork states and lists the overdue PODs', async () => {
    renderPage();
    const states = await screen.findByRole('region', { name: 'Paperwork state' });
    await within(states).findByText('2');
    expect(states.querySelector('[data-state=to-review]')).toHaveTextContent('2To review');
    expect(states.querySelector('[data-state=missing]')).toHaveTextContent('1POD missing');
    expect(states.querySelector('[data-state=complete]')).toHaveTextContent('1Complete');
    const overdue = screen.getByRole('region', { name: 'POD overdue' });
    expect(await within(overdue).findByText('700104')).toHaveAttribute('href', '/loads/external-id/700104');
    expect(overdue).toHaveTextContent('Deliveries with no POD 24 hours after delivery');
    expect(overdue).toHaveTextContent('(30 h without POD)');
  });

  it('lists the loads ready to bill with stop time and UTC, filters by day, and links the CSV', async () => {
    const user = renderPage();
    const ready = screen.getByRole('region', { name: 'Ready to bill' });
    const row = await within(ready).findByRole('row', { name: /Lakeside Foods/ });
    expect(row).toHaveTextContent('Lakeside Foods · Chicago, IL');
    expect(row).toHaveTextContent('11/24/2026 14:55 GMT-6');
    expect(row).toHaveTextContent('2026-11-24T20:55:00Z');
    expect(row).toHaveTextContent('Ana');
    // The load's earlier trips are billed on lines of their own: one whose stops were never seen,
    // one whose stops were kept while it was current.
    const rows = within(ready).getAllByRole('row', { name: /700103/ });
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringMatching(/earlier trip: stops not kept—2026-11-22T08:00:00Z/),
      expect.stringMatching(/Fresh Mart · Dallas, TX \(earlier trip\)11\/24\/2026 14:55 GMT-6/),
      expect.stringMatching(/Lakeside Foods · Chicago, IL11/),
    ]);
    const csv = within(ready).getByRole('link', { name: 'Download CSV' });
    expect(csv).toHaveAttribute('href', '/api/billing/ready?format=csv');

    await user.type(within(ready).getByLabelText('Delivered from'), '2026-11-25');
    expect(
      await within(ready).findByText('No delivered load with an approved POD in these days.'),
    ).toBeVisible();
    expect(csv).toHaveAttribute('href', '/api/billing/ready?from=2026-11-25&format=csv');
    expect(fetchMock.mock.calls.map(([u]) => String(u))).toContain('/api/billing/ready?from=2026-11-25');

    await user.type(within(ready).getByLabelText('to'), '2026-11-20');
    expect(within(ready).getByText('The end day is before the first.')).toBeVisible();
  });

  it('shows the flagged PODs worst first, sorts them by load, and shows clean ones on request', async () => {
    const user = renderPage();
    const checks = await screen.findByRole('region', { name: 'PODs and BOLs against their stops' });
    const flags = () => [...checks.querySelectorAll('[data-flag]')].map((f) => f.textContent);
    await within(checks).findByText('taken 38 km from the delivery stop');
    expect(flags()).toEqual(['taken 38 km from the delivery stop', 'no time to check']);
    expect(checks.querySelectorAll('[data-pod-check]')).toHaveLength(2);

    await user.selectOptions(within(checks).getByLabelText('Sort by'), 'load');
    expect(flags()).toEqual(['no time to check', 'taken 38 km from the delivery stop']);

    await user.click(within(checks).getByLabelText('Flagged only'));
    expect(checks.querySelectorAll('[data-pod-check]')).toHaveLength(4);
    expect(within(checks).getByText('no flag')).toBeVisible();
    // An earlier trip's paper is told apart, not flagged: shown with every paper only.
    expect(within(checks).getByText('of an earlier trip under the same ids')).toHaveClass('text-ink-muted');
  });

  it('says when the server refuses or the store is down', async () => {
    fetchMock.mockImplementation(async () =>
      json(503, { error: { code: 'store_unavailable', message: 'the store does not answer' } }),
    );
    renderPage();
    // Each part of the page says it once; the counts stay blank rather than read as zero.
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(3));
    for (const alert of screen.getAllByRole('alert'))
      expect(alert).toHaveTextContent('database does not answer');
    expect(
      screen.getByRole('region', { name: 'Paperwork state' }).querySelector('[data-state=missing]'),
    ).toHaveTextContent('–POD missing');
  });
});
