import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SharedLoad, ShareView } from '@/contract/share-api';
import { jsonResponse } from '@/testing/wire-fixtures';
import { createQueryClient } from '../../data/query-client';
import { SharePage } from './share-page';

const REFRESH_SECONDS = 30;

function view(loads: SharedLoad[]): ShareView {
  return {
    broker: 'Bo Broker',
    expiresAt: '2026-12-04T10:00:00.000Z',
    shows: { map: false, status: true, stops: false, pod: false },
    refreshSeconds: REFRESH_SECONDS,
    tileUrl: null,
    tileAttribution: '',
    servedAt: Date.UTC(2026, 10, 27, 10),
    loads,
  };
}

let answer: ShareView;
let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
beforeEach(() => {
  // The test moves the page's poll timer; testing-library's own waits still run on real time.
  vi.useFakeTimers({ shouldAdvanceTime: true });
  fetchMock = vi.fn<typeof fetch>(() => Promise.resolve(jsonResponse(200, answer)));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function renderShare(token: string) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <SharePage token={token} />
    </QueryClientProvider>,
  );
}

describe('SharePage', () => {
  it('says it waits for the first data of a pending load, polls, and shows the load once it comes', async () => {
    answer = view([
      { label: 'PO 4471', found: false, pending: true },
      { label: 'PO 4472', found: false },
    ]);
    renderShare('pending-token');
    const waiting = await screen.findByText(/^Waiting for the first tracking data of this load/);
    expect(waiting).toHaveAttribute('role', 'status');
    // A load the service does not know is told apart from one whose data is to come.
    expect(screen.getAllByText('No tracking information for this load yet.')).toHaveLength(1);

    // The puller's first answer came in: the page's next poll shows it, without a reload.
    answer = view([
      { label: 'PO 4471', found: true, status: { name: 'In transit', at: Date.UTC(2026, 10, 27, 9) } },
      { label: 'PO 4472', found: false },
    ]);
    await act(() => vi.advanceTimersByTimeAsync(REFRESH_SECONDS * 1000));
    expect(await screen.findByText('In transit')).toBeInTheDocument();
    expect(screen.queryByText(/Waiting for the first tracking data/)).toBeNull();
    const urls = fetchMock.mock.calls.map(([url]) => String(url));
    expect(urls).toEqual(['/api/share/pending-token', '/api/share/pending-token?poll=1']);
  });

  it('says a trip is over once the truck has begun another, with its last status', async () => {
    answer = view([
      {
        label: 'PO 4471',
        found: true,
        ended: true,
        status: { name: 'Delivered', at: Date.UTC(2026, 10, 26, 9) },
      },
      { label: 'PO 4472', found: true, status: { name: 'In transit', at: Date.UTC(2026, 10, 27, 9) } },
    ]);
    renderShare('ended-token');
    const [over, rolling] = await screen.findAllByTestId('share-load');
    expect(over).toHaveTextContent(/Delivered.*This shipment’s trip is over: tracking stopped with it\./);
    expect(rolling).not.toHaveTextContent(/trip is over/);
  });

  it('writes an appointment in the viewer’s zone when its instant is known, else as the stop’s local time', async () => {
    const stop = {
      order: 1,
      type: 'delivery' as const,
      progress: 'upcoming' as const,
      status: 'on-time' as const,
    };
    answer = {
      ...view([
        {
          label: 'PO 4471',
          found: true,
          stops: [
            { ...stop, appointment: '11/27/2026 05:30', appointmentAt: Date.UTC(2026, 10, 27, 12, 30) },
            { ...stop, order: 2, appointment: '11/28/2026 08:00' },
          ],
        },
      ]),
      shows: { map: false, status: true, stops: true, pod: false },
    };
    renderShare('appointment-token');
    const [known, unknown] = await screen.findAllByTestId('share-stop');
    expect(known).toHaveTextContent(/Appointment Nov 27, 12:30:00 UTC$/);
    expect(unknown).toHaveTextContent(/Appointment 11\/28\/2026 08:00, the stop’s local time$/);
  });

  it('refuses an answer whose pending is anything but true, as it does any answer off its shape', async () => {
    answer = view([{ label: 'PO 4471', found: false, pending: 'yes' as unknown as true }]);
    renderShare('odd-token');
    // Past the query's retries.
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(await screen.findByRole('alert')).toHaveTextContent(/not what was expected/);
    expect(screen.queryByText(/Waiting for the first tracking data/)).toBeNull();
  });
});
