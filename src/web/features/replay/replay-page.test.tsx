import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_CONFIG } from '@/testing/client-config';
import { jsonResponse, pullAnswer, wireDetail, wireEvent } from '@/testing/wire-fixtures';
import { createQueryClient } from '../../data/query-client';
import { ReplayPage } from './replay-page';

// jsdom has neither canvas nor layout: the map and the chart are stand-ins; the layers are tested
// in the browser (e2e/replay.spec.ts), the time functions in replay-state.test.ts.
vi.mock('../../map/core/map-shell', () => ({ MapShell: (_: { children?: ReactNode }) => <div /> }));
vi.mock('../../components/temperature-chart', () => ({
  TemperatureChart: ({ label }: { label: string }) => <div role="img" aria-label={label} />,
}));

/** The fixture's first good ping: 2026-11-22 13:20:00 UTC. */
const FIRST_PING = Date.UTC(2026, 10, 22, 13, 20);

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(() => Promise.resolve(jsonResponse(200, pullAnswer([wireDetail()])))),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function renderReplay(query: string) {
  window.history.replaceState(null, '', `/replay?${query}`);
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ReplayPage config={CLIENT_CONFIG} />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

const slider = () => screen.getByRole('slider', { name: 'Replay time' });
const value = () => Number((slider() as HTMLInputElement).value);
const urlParam = (name: string) => new URLSearchParams(window.location.search).get(name);

describe('ReplayPage keys', () => {
  it('space plays and pauses, arrows step by the speed, + and − change the speed', async () => {
    const user = renderReplay('loads=e:700100&speed=60');
    await screen.findByRole('slider', { name: 'Replay time' });
    expect(value()).toBe(FIRST_PING);
    expect(slider()).toHaveAttribute('aria-valuetext', expect.stringMatching(/0 min into the replay of/));

    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(value()).toBe(FIRST_PING + 60_000));
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    // Not before the replay's start (its first item may come earlier than the first ping).
    await waitFor(() => expect(value()).toBeLessThan(FIRST_PING));

    await user.keyboard('+');
    expect(screen.getByRole('combobox', { name: 'Speed' })).toHaveValue('300');
    expect(urlParam('speed')).toBe('300');
    const before = value();
    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(value()).toBe(before + 300_000));
    await user.keyboard('--');
    expect(screen.getByRole('combobox', { name: 'Speed' })).toHaveValue('10');

    await user.keyboard(' ');
    expect(screen.getByRole('button', { name: 'Pause' })).toBeInTheDocument();
    await user.keyboard(' ');
    expect(screen.getByRole('button', { name: 'Play' })).toBeInTheDocument();
  });

  it('leaves the keys alone while the focus is in the speed list', async () => {
    const user = renderReplay('loads=e:700100');
    await screen.findByRole('slider', { name: 'Replay time' });
    screen.getByRole('combobox', { name: 'Speed' }).focus();
    await user.keyboard('{ArrowRight}+');
    await act(() => new Promise((r) => requestAnimationFrame(r)));
    expect(value()).toBe(FIRST_PING);
    expect(urlParam('speed')).toBeNull();
  });

  it('opens at the instant of the link, and writes the time back once it rests', async () => {
    const at = FIRST_PING + 3 * 60_000;
    const user = renderReplay(`loads=e:700100&t=${new Date(at).toISOString()}`);
    await screen.findByRole('slider', { name: 'Replay time' });
    expect(value()).toBe(at);
    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(urlParam('t')).toBe(new Date(at + 60_000).toISOString()));
  });

  it('refuses a link with no readable load, and starts at the first ping when its time is no time', async () => {
    renderReplay('loads=x:1,e:');
    expect(screen.getByText(/A replay needs loads/)).toBeInTheDocument();
    cleanup();
    renderReplay('loads=e:700100&t=tomorrow&speed=7');
    await waitFor(() => expect(value()).toBe(FIRST_PING));
    expect(screen.getByRole('combobox', { name: 'Speed' })).toHaveValue('60');
  });
});

describe('ReplayPage, loads not pulled yet (pending)', () => {
  /** Answers 700100 whole once `arrived`, and every other id as pending. */
  function serve(arrived: () => boolean) {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>((_path, init) => {
        const { ids } = JSON.parse(String(init?.body)) as { ids: string[] };
        const id = ids[0] as string;
        if (id === '700100' && arrived())
          return Promise.resolve(jsonResponse(200, pullAnswer([wireDetail()])));
        return Promise.resolve(jsonResponse(200, { ...pullAnswer([]), cursor: 's.4', pending: [id] }));
      }),
    );
  }
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits for the first data instead of saying there is nothing, polls, and replays it once it comes', async () => {
    // The test moves the queries' poll timer; testing-library's own waits still run on real time.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let arrived = false;
    serve(() => arrived);
    renderReplay('loads=e:700100');
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Waiting for the first answer from the tracking service about this load',
    );
    expect(screen.queryByText(/nothing timed to replay/)).toBeNull();

    arrived = true;
    await act(() => vi.advanceTimersByTimeAsync(CLIENT_CONFIG.refreshSeconds * 1000));
    await screen.findByRole('slider', { name: 'Replay time' });
    expect(value()).toBe(FIRST_PING);
    expect(screen.queryByText(/Waiting for the first answer/)).toBeNull();
  });

  it('names the loads it left out', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>((_path, init) => {
        const { ids } = JSON.parse(String(init?.body)) as { ids: string[] };
        const id = ids[0] as string;
        if (id === '700100') return Promise.resolve(jsonResponse(200, pullAnswer([wireDetail()])));
        return Promise.resolve(jsonResponse(200, { ...pullAnswer([]), missing: [id] }));
      }),
    );
    renderReplay('loads=e:700100,e:404404,n:zzz');
    expect(
      await screen.findByText('2 loads could not be read and are left out: 404404, zzz.'),
    ).toBeInTheDocument();
  });

  it('replays the loads it has and counts the one still to come apart from those that failed', async () => {
    serve(() => true);
    renderReplay('loads=e:700100,e:700200');
    await screen.findByRole('slider', { name: 'Replay time' });
    expect(await screen.findByText(/about 1 of the loads/)).toHaveTextContent(
      'Waiting for the first answer from the tracking service about 1 of the loads: it joins the replay as soon as it comes.',
    );
    expect(screen.queryByText(/could not be read/)).toBeNull();
  });
});

describe('ReplayPage, a load whose ids were reused for its next trip', () => {
  /** The fixture with an earlier trip under the same id, delivered the day before its dispatch. */
  const twoTrips = () => {
    const detail = wireDetail();
    detail.events = [
      wireEvent(10, 'Dispatched', 'DSP', '11/20/2026 04:00:00 CST'),
      wireEvent(11, 'Delivered', 'DLV', '11/21/2026 10:00:00 CST'),
      ...(detail.events as unknown[]),
    ];
    const answer = pullAnswer([detail]);
    Object.assign(answer.loads[0] as object, { outlook: { asOf: FIRST_PING, stops: [pickupStop] } });
    return answer;
  };
  /** The proxy's reckoning of the current trip's one stop. */
  const pickupStop = {
    order: 1,
    type: 'pickup',
    lat: 41.25,
    lon: -95.93,
    progress: 'upcoming',
    status: 'no-appointment',
  };
  /** The server's answers: the load's track, and its trips' kept stops. */
  const serve = (answer: unknown, trips: unknown[]) => {
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>((input) => {
        const url = String(input);
        asked.push(url);
        return Promise.resolve(jsonResponse(200, url.includes('/api/trips/stops') ? { trips } : answer));
      }),
    );
    return asked;
  };
  const dispatched = Date.UTC(2026, 10, 22, 10);
  const inEarlierTrip = new Date(Date.UTC(2026, 10, 21, 12)).toISOString();

  it('shows the current trip’s stops from that trip’s start only, and says an earlier trip’s were not kept', async () => {
    const asked = serve(twoTrips(), []);
    renderReplay(`loads=e:700100&t=${inEarlierTrip}`);
    const earlier = await screen.findByText(/An earlier trip under the same ids: its stops were not kept/);
    expect(earlier).toHaveAttribute('data-earlier-trip');
    expect(document.querySelector('[data-stop-progress]')).toBeNull();
    expect(asked.some((u) => u.endsWith('/api/trips/stops?load=e%3A700100'))).toBe(true);

    cleanup();
    renderReplay(`loads=e:700100&t=${new Date(dispatched + 60_000).toISOString()}`);
    await waitFor(() => expect(document.querySelector('[data-stop-progress]')).not.toBeNull());
    expect(screen.queryByText(/An earlier trip/)).toBeNull();
  });

  it('names no earlier trip for a load with one trip, before its dispatch', async () => {
    const answer = pullAnswer([wireDetail()]);
    Object.assign(answer.loads[0] as object, {
      outlook: { asOf: FIRST_PING, stops: [pickupStop] },
    });
    serve(answer, []);
    renderReplay(`loads=e:700100&t=${new Date(dispatched - 3_600_000).toISOString()}`);
    await waitFor(() => expect(document.querySelector('[data-stop-progress]')).not.toBeNull());
    expect(screen.queryByText(/An earlier trip/)).toBeNull();
  });

  it('lists an earlier trip’s stops at its time when the server kept them', async () => {
    serve(twoTrips(), [
      {
        from: Date.UTC(2026, 10, 20, 10),
        stops: [
          {
            order: 1,
            type: 'pickup',
            name: 'Acme DC',
            progress: 'departed',
            arrivedAt: Date.UTC(2026, 10, 20, 18),
            departedAt: Date.UTC(2026, 10, 20, 20),
            status: 'on-time',
          },
          {
            order: 2,
            type: 'delivery',
            name: 'Lakeside Foods',
            progress: 'departed',
            arrivedAt: Date.UTC(2026, 10, 21, 14),
            departedAt: Date.UTC(2026, 10, 21, 16),
            status: 'on-time',
          },
        ],
      },
    ]);
    renderReplay(`loads=e:700100&t=${inEarlierTrip}`);
    expect(await screen.findByText(/its stops as they were kept/)).toHaveAttribute('data-earlier-trip');
    const stops = [...document.querySelectorAll('[data-stop-progress]')];
    expect(stops.map((s) => [s.textContent?.split(':')[0], s.getAttribute('data-stop-progress')])).toEqual([
      ['Stop 1 (pickup), Acme DC', 'departed'],
      ['Stop 2 (delivery), Lakeside Foods', 'upcoming'],
    ]);
  });
});

describe('ReplayPage, documents and comments sent so far', () => {
  it('lists the latest eight and says how many there are in all', async () => {
    const detail = wireDetail();
    const notes = Array.from({ length: 10 }, (_, i) => ({
      comment: `Note ${i + 1}`,
      commentBy: 'B',
      timestampSec: `11/22/2026 07:${String(10 + i).padStart(2, '0')}:00 CST`,
    }));
    detail.comments = notes;
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => Promise.resolve(jsonResponse(200, pullAnswer([detail])))),
    );
    renderReplay(`loads=e:700100&t=${new Date(Date.UTC(2026, 10, 22, 14)).toISOString()}`);
    const sent = await screen.findByRole('region', { name: 'Sent so far' });
    // Ten comments and the fixture's two documents.
    await waitFor(() =>
      expect(sent.querySelector('h3')).toHaveTextContent('Sent so far (12, the latest 8 shown)'),
    );
    expect(sent.querySelectorAll('li')).toHaveLength(8);
    expect(sent.querySelector('li')).toHaveTextContent('Note 10');
  });
});
