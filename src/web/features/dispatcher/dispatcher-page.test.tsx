import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { CLIENT_CONFIG } from '@/testing/client-config';
import { withBasemapModules } from '@/testing/basemap-modules';
import { withMapSize } from '@/testing/map-size';
import { jsonResponse, pullAnswer, wireDetail } from '@/testing/wire-fixtures';
import { createQueryClient } from '../../data/query-client';
import { BOARD_TICK_MS } from '../../lib/use-now';
import { watchList } from '../../lib/watch-list';
import { DispatcherPage } from './dispatcher-page';

// The page calls useLevelNow once per render of its body: counted, it says how often the page (with
// its 10,000 loads' hooks and memos) rendered.
const pageRenders = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../lib/use-now', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../lib/use-now')>();
  return {
    ...original,
    useLevelNow: (...args: Parameters<typeof original.useLevelNow>) => {
      pageRenders.count++;
      return original.useLevelNow(...args);
    },
  };
});

// What the map was given beside the board's rows, render by render: whether every row was of a
// load the map drew (the same object), or of an older version of it.
const mapAndBoard = vi.hoisted(() => ({ renders: [] as boolean[] }));
vi.mock('./use-map-loads', async (importOriginal) => {
  const original = await importOriginal<typeof import('./use-map-loads')>();
  return {
    ...original,
    useMapLoads: (...args: Parameters<typeof original.useMapLoads>) => {
      const [loads, rows] = args;
      const drawn = new Set(loads);
      mapAndBoard.renders.push(rows.every((r) => drawn.has(r.load)));
      return original.useMapLoads(...args);
    },
  };
});

/** Pulls wait here until the test lets them answer. */
let held: (() => void)[] = [];
let holdPulls = false;
let pulls = 0;

// The page loads its map lazily. Loaded here first, the lazy import resolves from the module cache;
// left to the test, it could still be importing supercluster when the test ends and vitest tears the
// environment down (CI failed once on exactly that).
beforeAll(async () => {
  await import('./fleet-map');
});
withBasemapModules();

beforeEach(() => {
  withMapSize();
  window.localStorage.clear();
  window.localStorage.setItem('haulview.watch', 'e:700100,700200');
  watchList.reset();
  window.history.replaceState(null, '', '/');
  held = [];
  holdPulls = false;
  pulls = 0;
  mapAndBoard.renders = [];
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async (input) => {
      const path = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
      if (path.endsWith('/api/config')) return jsonResponse(200, CLIENT_CONFIG);
      if (holdPulls) await new Promise<void>((resolve) => held.push(resolve));
      if (path.endsWith('/api/pull/by-external-id')) {
        pulls++;
        // Each answer moves the first load on: a refresh brings a new version of it.
        const moved = { ...(wireDetail().latestLocation as object), accuracy: 10 + pulls };
        return jsonResponse(
          200,
          pullAnswer([
            wireDetail({ loadTrackExternalId: 700100, latestLocation: moved }),
            wireDetail({ loadTrackExternalId: 700200 }),
          ]),
        );
      }
      return jsonResponse(404, { error: { code: 'not_found', message: `no route ${path}` } });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** The page with its first answer drawn, and that answer's renders (the board's deferred pass among them) settled. */
async function renderSettled() {
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <DispatcherPage config={CLIENT_CONFIG} />
    </QueryClientProvider>,
  );
  await screen.findByText(/Updated/);
  await new Promise((resolve) => setTimeout(resolve, 100));
  return user;
}

it('a refresh that starts renders its button, not the page; the page renders when the answer comes', async () => {
  const user = await renderSettled();
  const refresh = screen.getByRole('button', { name: 'Refresh' });
  const before = pageRenders.count;
  expect(before).toBeGreaterThan(0);

  holdPulls = true;
  await user.click(refresh);
  const button = await screen.findByRole('button', { name: 'Refreshing…' });
  expect(button).toBeDisabled();
  expect(pageRenders.count).toBe(before);

  for (const answer of held) answer();
  await screen.findByRole('button', { name: 'Refresh' });
  expect(screen.getByRole('button', { name: 'Refresh' })).toBeEnabled();
  // The answer's data (a new fetch time) does render the page.
  await waitFor(() => expect(pageRenders.count).toBeGreaterThan(before));
});

it('a refresh reaches the board and the map in the same render: never two versions of a load', async () => {
  const user = await renderSettled();
  mapAndBoard.renders = [];

  await user.click(screen.getByRole('button', { name: 'Refresh' }));
  await waitFor(() => expect(pulls).toBe(2));
  await screen.findByRole('button', { name: 'Refresh' });
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(mapAndBoard.renders.length).toBeGreaterThan(0);
  expect(mapAndBoard.renders.every(Boolean)).toBe(true);
});

it("a tick of the board's clock renders the ages, not the page", async () => {
  // Intervals and the date only: the pulls' promises and the page's own timeouts run as they would.
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  try {
    await renderSettled();
    expect(screen.getByText(/^Updated/)).toHaveTextContent('Updated just now');
    const before = pageRenders.count;
    act(() => vi.advanceTimersByTime(BOARD_TICK_MS));
    expect(screen.getByText(/^Updated/)).toHaveTextContent('Updated 5 s ago');
    expect(pageRenders.count).toBe(before);
  } finally {
    vi.useRealTimers();
  }
});

it("Tab goes down the board's column before the map's header, as a wide screen shows them", async () => {
  await renderSettled();
  const watch = screen.getByRole('region', { name: 'Watch list' });
  const board = screen.getByRole('grid', { name: /Loads, \d+ shown/ });
  const refresh = screen.getByRole('button', { name: 'Refresh' });
  const map = document.querySelector('.leaflet-container') as Element;
  // No control sets a tabindex above 0: the page's order is the keyboard's.
  expect(document.querySelectorAll('[tabindex]:not([tabindex="0"]):not([tabindex="-1"])')).toHaveLength(0);
  const before = (a: Element, b: Element) =>
    (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  expect(before(watch, board)).toBe(true);
  expect(before(board, refresh)).toBe(true);
  expect(before(refresh, map)).toBe(true);
});
