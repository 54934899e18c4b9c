import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_CONFIG } from '@/testing/client-config';
import { jsonResponse, pullAnswer, wireDetail } from '@/testing/wire-fixtures';
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
