import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { viewerInZone } from '@/testing/viewer-zone';
import type { ClientConfig } from '@/contract/proxy-api';
import { CLIENT_CONFIG } from '@/testing/client-config';
import type { LoadBy } from '@/domain/model';
import { createQueryClient } from '../../data/query-client';
import { LoadDetailPage } from './load-detail-page';
import type { ChartTimeAxis, TemperatureSeries } from '../../lib/temperature-series';
import { jsonResponse, pullAnswer, wireDetail, wireEvent, type Wire } from '@/testing/wire-fixtures';

// uPlot needs a canvas, which jsdom lacks: the chart is replaced by a stand-in that records what it
// is handed. The series themselves are tested in temperature-series.test.ts.
const chart = vi.hoisted(() => ({ series: [] as TemperatureSeries[], axes: [] as ChartTimeAxis[] }));
vi.mock('../../components/temperature-chart', () => ({
  TemperatureChart: ({
    series,
    label,
    axis,
  }: {
    series: TemperatureSeries;
    label: string;
    axis: ChartTimeAxis;
  }) => {
    chart.series.push(series);
    chart.axes.push(axis);
    return <div role="img" aria-label={label} />;
  },
}));

// The viewer sits in Denver, in a zone none of the drivers below is in. Set before the first time
// is written (the viewer's format is made once).
viewerInZone('America/Denver');

const CONFIG = CLIENT_CONFIG;

// jsdom has no layout: give the virtualizers' scroll elements a size so rows render.
Object.defineProperty(Element.prototype, 'clientHeight', { configurable: true, get: () => 2000 });
Object.defineProperty(Element.prototype, 'clientWidth', { configurable: true, get: () => 800 });

/**
 * What the proxy holds for the test's loads. It answers as the proxy does: the panel asks for a
 * load's track (no readings list) and, in a second pull, for its readings only.
 */
let served: { details: Wire[]; missing: string[] } = { details: [], missing: [] };
const LISTS = ['locations', 'events', 'comments', 'documents'] as const;

function proxyAnswer(body: { include?: Record<string, boolean> }) {
  const readingsOnly = body.include?.temperatures === true && body.include.locations === false;
  const details = served.details.map((d) => {
    const copy = { ...d };
    if (readingsOnly) for (const list of LISTS) delete copy[list];
    else if (body.include?.temperatures === false) delete copy.temperatures;
    return copy;
  });
  return jsonResponse(200, pullAnswer(details, served.missing));
}

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
beforeEach(() => {
  chart.series.length = 0;
  chart.axes.length = 0;
  window.localStorage.clear();
  served = { details: [], missing: [] };
  fetchMock = vi.fn<typeof fetch>((_path, init) =>
    Promise.resolve(proxyAnswer(JSON.parse(String(init?.body)) as { include?: Record<string, boolean> })),
  );
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function answerWith(...details: Wire[]) {
  served = { details, missing: [] };
}

function renderPage(
  {
    by = 'external-id',
    id = '700100',
    config = CONFIG,
  }: { by?: LoadBy; id?: string; config?: ClientConfig } = {},
  onPanTo = vi.fn(),
) {
  const user = userEvent.setup();
  const client = createQueryClient();
  render(
    <QueryClientProvider client={client}>
      <LoadDetailPage by={by} id={id} config={config} onPanTo={onPanTo} />
    </QueryClientProvider>,
  );
  return { user, client, onPanTo };
}

const timeline = () => screen.getByRole('region', { name: /^Timeline, newest first/ });
const rows = () => within(timeline()).queryAllByRole('article');
const summary = () => screen.getByRole('region', { name: 'Summary' });
const section = (name: RegExp) => screen.getByRole('region', { name });

/** The panel is on screen from the track's answer. */
async function trackLoaded() {
  await screen.findByRole('region', { name: 'Summary' });
}

/** ...and the readings, asked for once the track is in, have come too. */
async function loaded() {
  await trackLoaded();
  await waitFor(() => expect(screen.queryByText('Loading the temperature readings…')).toBeNull());
}

describe('LoadDetailPage', () => {
  it('says it is loading, then shows the header: ids, status without a missing code, ping, driver, temperature, stops', async () => {
    answerWith(wireDetail());
    renderPage();
    expect(screen.getByRole('status')).toHaveTextContent('Loading everything');
    await loaded();
    expect(fetchMock).toHaveBeenCalledWith('/api/pull/by-external-id', expect.anything());

    const head = summary();
    expect(head).toHaveTextContent('External id700100');
    expect(head).toHaveTextContent('LT external id9100');
    expect(head).toHaveTextContent('Load number—');
    // The code is null on the wire: nothing is shown for it, not "null", not "()".
    expect(head).toHaveTextContent('Latest statusIn transit');
    expect(head).not.toHaveTextContent(/null|\(\)/);
    expect(head).toHaveTextContent('Omaha, NE, US');
    expect(head).toHaveTextContent('±13 m');
    const phone = within(head).getByRole('link', { name: '+1 (402) 555-0100' });
    expect(phone).toHaveAttribute('href', 'tel:+14025550100');
    expect(head).toHaveTextContent('Supply 33 °F · Return 36 °F · Set 34 °F');

    // The stops that are objects, as a trip; a bare string or null is no stop.
    const stops = within(head).getByRole('region', { name: 'Stops (2)' });
    expect(
      within(stops)
        .getAllByRole('listitem')
        .map((li) => li.firstElementChild?.textContent),
    ).toEqual(['Pickup·Omaha, NE', 'Stop 2·Denver']);
    expect(stops).not.toHaveTextContent(/weird|nothing|bare string/i);
  });

  it('says in words, not colour alone, when the last ping is stale or silent, as the board does', async () => {
    answerWith(wireDetail());
    // The last fix is the latest location, sent at 13:26:01 UTC.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      for (const [minutes, word] of [
        [10, null],
        [45, 'Stale'],
        [180, 'Silent'],
      ] as const) {
        vi.setSystemTime(Date.parse('2026-11-22T13:26:01Z') + minutes * 60_000);
        const { unmount } = render(
          <QueryClientProvider client={createQueryClient()}>
            <LoadDetailPage by="external-id" id="700100" config={CONFIG} onPanTo={vi.fn()} />
          </QueryClientProvider>,
        );
        const head = await screen.findByRole('region', { name: 'Summary' });
        const text = within(head).getByText('Last ping').nextElementSibling?.textContent;
        expect(text).toMatch(/ ago · /);
        if (word) expect(text).toContain(`ago · ${word} · Omaha`);
        else expect(text).not.toMatch(/Stale|Silent/);
        unmount();
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it('leads the keyboard past the timeline: a "Go to" link per section, to a section that takes the focus', async () => {
    answerWith(wireDetail());
    renderPage();
    await loaded();
    const links = within(screen.getByRole('navigation', { name: 'Go to' })).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual([
      'Timeline',
      'Temperatures',
      'Documents',
      'Comments',
      'Pings',
    ]);
    for (const link of links) {
      const target = document.getElementById(link.getAttribute('href')!.slice(1));
      expect(target?.tagName).toBe('SECTION');
      expect(target).toHaveAttribute('tabindex', '-1');
      expect(target).toHaveAccessibleName(new RegExp(`^${link.textContent}`));
    }
  });

  it('counts the items the parser skipped and says each in words, with its path and message', async () => {
    answerWith(wireDetail());
    const { user } = renderPage();
    await loaded();
    const disclosure = within(summary()).getByText('4 items skipped because they could not be read');
    const list = within(summary()).getByRole('list', { name: 'Skipped items', hidden: true });
    expect(list).not.toBeVisible();
    await user.click(disclosure);
    expect(list).toBeVisible();
    const items = within(list)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toEqual([
      // The fixture's stops hold a bare string and a null: no stop can be made of either.
      'Stop 3 skipped: it is of the wrong type (stops[2]: expected a stop object: skipped)',
      'Stop 4 skipped: it is of the wrong type (stops[3]: expected a stop object: skipped)',
      expect.stringMatching(
        /^Ping 2 skipped: its lat is not a coordinate \(locations\[1\]\.lat: coordinate "abc"/,
      ),
      expect.stringMatching(
        /^Status event 5 skipped: it has no time Haulview can read \(events\[4\]: no readable time; item skipped\)$/,
      ),
    ]);
  });

  it('says the load is behind while its answer too large is tried again, and counts it as no skipped item', async () => {
    const answer = pullAnswer([wireDetail()]);
    const behind = {
      path: '(load)',
      kind: 'too_large',
      message: 'larger than 1024 bytes for this load alone: tried again at the next refresh',
      skipped: false,
    };
    fetchMock.mockImplementation((_path, init) => {
      const body = JSON.parse(String(init?.body)) as { include?: Record<string, boolean> };
      if (body.include?.locations === false) return Promise.resolve(proxyAnswer(body));
      const load = answer.loads[0] as { issues?: unknown[] };
      return Promise.resolve(
        jsonResponse(200, { ...answer, loads: [{ ...load, issues: [behind, ...(load.issues ?? [])] }] }),
      );
    });
    renderPage();
    await loaded();
    expect(within(summary()).getByRole('status')).toHaveTextContent(
      /^Behind: the tracking service’s last answer for this load was too large to read/,
    );
    // Nothing was dropped for good: the count is the four unreadable items alone.
    expect(within(summary()).getByText('4 items skipped because they could not be read')).toBeVisible();
  });

  it('orders the timeline by instant across zones, newest first, not by wall time', async () => {
    answerWith(
      wireDetail({
        events: [
          // 10:00 EST is 15:00 UTC; 09:30 CST is 15:30 UTC: later, though its wall time is earlier.
          wireEvent(10, 'Arrived at pickup', 'APU', '11/22/2026 10:00:00 EST'),
          wireEvent(11, 'Loaded', 'LDD', '11/22/2026 09:30:00 CST'),
        ],
        comments: [],
        documents: [],
        locations: [],
        temperatures: [],
      }),
    );
    renderPage();
    await loaded();
    expect(rows().map((r) => r.textContent)).toEqual([
      expect.stringContaining('Loaded (LDD)'),
      expect.stringContaining('Arrived at pickup (APU)'),
    ]);
    expect(rows()[0]).toHaveTextContent('Nov 22, 09:30 CST');
    expect(rows()[1]).toHaveTextContent('Nov 22, 10:00 EST');
  });

  it('writes every time one way in the driver’s zone, an unknown zone marked, the rest on hover', async () => {
    answerWith(
      wireDetail({
        events: [
          wireEvent(1, 'Dispatched', 'DSP', '11/22/2026 04:00:00 CST'),
          wireEvent(2, 'Loaded', 'LDD', '11/22/2026 05:00:00 XYZ'),
        ],
        comments: [],
        documents: [],
        locations: [],
      }),
    );
    renderPage();
    await loaded();
    // A zone nobody knows: its wall time is read as UTC (05:00Z), before 04:00 CST (10:00Z).
    const [dispatched, loadedRow] = rows().filter((r) => r.textContent?.includes('Status'));
    expect(loadedRow).toHaveTextContent('Nov 22, 05:00 XYZ(zone unknown)');
    expect(dispatched).toHaveTextContent('Nov 22, 04:00 CST');
    expect(dispatched).not.toHaveTextContent('zone unknown');
    const time = within(dispatched!).getByText('Nov 22, 04:00 CST');
    expect(time).toHaveAttribute('datetime', '2026-11-22T10:00:00.000Z');
    const hover = time.parentElement?.getAttribute('title');
    expect(hover).toContain('Your zone: Nov 22, 03:00 MST');
    expect(hover).toContain('2026-11-22 10:00:00 UTC');
    expect(hover).toContain('As sent: 11/22/2026 04:00:00 CST');
    // The header, the table and the chart's axis in the same format and zone.
    expect(summary()).toHaveTextContent('Nov 22, 07:26 CST');
    expect(summary()).not.toHaveTextContent(/\d\d\/\d\d\/\d{4}/);
    expect(chart.axes.at(-1)?.label).toBe('Driver’s time (CST)');
    expect(chart.axes.at(-1)?.zone).toEqual({ kind: 'fixed', offset: -360, name: 'CST' });
  });

  it('writes the chart, the timeline and the header in the viewer’s zone once they choose it, and keeps the choice', async () => {
    answerWith(wireDetail());
    const { user } = renderPage();
    await loaded();
    const dispatched = () => rows().find((r) => r.textContent?.includes('Dispatched'));
    expect(dispatched()).toHaveTextContent('Nov 22, 04:00 CST');
    await user.click(screen.getByRole('button', { name: 'My zone (MST)' }));
    expect(screen.getByRole('button', { name: 'Driver’s zone' })).toHaveAttribute('aria-pressed', 'false');
    expect(dispatched()).toHaveTextContent('Nov 22, 03:00 MST');
    expect(summary()).toHaveTextContent('Nov 22, 06:26 MST');
    expect(summary()).not.toHaveTextContent(/CST/);
    expect(chart.axes.at(-1)).toEqual({ zone: { kind: 'mine' }, label: 'Your time (MST)' });
    expect(within(section(/^Temperatures/)).getByRole('img')).toHaveAccessibleName(
      /readings from Nov 22, 06:00 MST to Nov 22, 06:30 MST/,
    );
    expect(window.localStorage.getItem('haulview.timeZone')).toBe('mine');
  });

  it('opens in the zone chosen on another page', async () => {
    window.localStorage.setItem('haulview.timeZone', 'mine');
    answerWith(wireDetail());
    renderPage();
    await loaded();
    expect(rows().find((r) => r.textContent?.includes('Dispatched'))).toHaveTextContent('Nov 22, 03:00 MST');
    expect(screen.getByRole('button', { name: 'My zone (MST)' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('shows no code where the event has none, and never the service’s internal ids', async () => {
    answerWith(
      wireDetail({
        events: [
          wireEvent(70013406, 'Dispatched', 'DSP', '11/22/2026 04:00:00 CST'),
          wireEvent(70013407, 'In transit', null, '11/22/2026 07:15:47 CST'),
        ],
      }),
    );
    const { user } = renderPage();
    await loaded();
    const inTransit = rows().find((r) => r.textContent?.includes('In transit'));
    expect(inTransit?.lastElementChild).toHaveTextContent(/^In transit$/);
    const dispatched = rows().find((r) => r.textContent?.includes('Dispatched'));
    expect(dispatched?.lastElementChild).toHaveTextContent(/^Dispatched \(DSP\)$/);
    expect(document.body).not.toHaveTextContent('7001340');
    // Nor found by them.
    await user.type(screen.getByRole('searchbox', { name: 'Search the timeline' }), '70013406');
    await waitFor(() => expect(rows()).toHaveLength(0));
  });

  it('starts the timeline with what happened (status events, comments, documents); pings on request', async () => {
    answerWith(wireDetail());
    const { user } = renderPage();
    await loaded();
    const kinds = () =>
      new Set(rows().map((r) => r.textContent?.match(/^\W*(Status|Comment|Document|Excursion|Ping)/)?.[1]));
    expect(kinds()).toEqual(new Set(['Status', 'Comment', 'Document', 'Excursion']));
    const toggle = screen.getByRole('checkbox', { name: 'Pings (2)' });
    expect(toggle).not.toBeChecked();
    expect(screen.getByText(/^\d+ of \d+ items shown/)).toHaveTextContent(
      /^7 of 11 items shown · 2 pings not shown$/,
    );
    await user.click(toggle);
    expect(kinds()).toContain('Ping');
    expect(screen.getByText(/^\d+ of \d+ items shown/)).toHaveTextContent(/^9 of 11 items shown$/);
  });

  it('shows the stops as a trip: kind, place and appointment, every other field behind details, no internal id', async () => {
    answerWith(
      wireDetail({
        stops: [
          // As the service sends them (its schema lists none), delivery first, fields it may add later.
          {
            id: 99120731,
            orderNumber: 2,
            stopType: 'DELIVERY',
            locationName: 'Fresh Foods DC',
            city: 'Denver',
            state: 'CO',
            zipcode: '80216',
            datetime: '11/23/2026 08:00',
            stopGMTDiff: '-7',
            eta: { at: '2026-11-23T14:40:00Z', late: false },
          },
          {
            id: 99120730,
            orderNumber: 1,
            stopType: 'PICKUP',
            city: 'Omaha',
            state: 'NE',
            stopExternalId: 'S700134-1',
            datetime: 'tomorrow morning',
          },
          { stopOrderNumber: 3, city: 'Boise', datetime: '11/24/2026 09:00' },
        ],
      }),
    );
    const { user } = renderPage();
    await loaded();
    const stops = within(summary()).getByRole('region', { name: 'Stops (3)' });
    const [pickup, delivery, third] = within(stops).getAllByRole('listitem');
    // Pickup first, by their order numbers. An appointment that is not a time is shown as sent.
    expect(pickup!.firstElementChild).toHaveTextContent(
      /^Pickup·Omaha, NE·appointment “tomorrow morning” as sent, not a time Haulview reads: no appointment judged$/,
    );
    expect(delivery!.firstElementChild).toHaveTextContent(
      /^Delivery·Fresh Foods DC, Denver, CO·appointment Nov 23, 08:00 GMT-7$/,
    );
    // Without its offset from GMT, a wall time has no zone: shown as sent, never guessed.
    expect(third!.firstElementChild).toHaveTextContent(
      /^Stop 3·Boise·appointment 11\/24\/2026 09:00 \(the stop’s zone not sent: not judged\)$/,
    );
    // The raw fields are not on show; behind "details", in words. The service's own id nowhere.
    expect(within(stops).getByText('S700134-1')).not.toBeVisible();
    expect(stops).not.toHaveTextContent(/Order number|Stop type|99120731|99120730/);
    const details = within(delivery!).getByText('details');
    expect(within(delivery!).getByText('80216')).not.toBeVisible();
    await user.click(details);
    expect(within(delivery!).getByText('80216')).toBeVisible();
    expect(delivery).toHaveTextContent('Zipcode80216');
    expect(delivery).toHaveTextContent('Eta at2026-11-23T14:40:00Z');
    expect(delivery).not.toHaveTextContent(/99120731|Stop GMT diff/i);
    expect(pickup).toHaveTextContent('Stop external idS700134-1');
    expect(within(third!).queryByText('details')).not.toBeInTheDocument();

    // The appointment follows the zone chosen, as every time does.
    await user.click(screen.getByRole('button', { name: 'My zone (MST)' }));
    expect(delivery!.firstElementChild).toHaveTextContent(/appointment Nov 23, 08:00 MST$/);
  });

  it('hides app and system notices behind a toggle that says how many', async () => {
    answerWith(wireDetail());
    const { user } = renderPage();
    await loaded();
    const toggle = screen.getByRole('checkbox', { name: 'App and system notices (2 hidden)' });
    expect(toggle).not.toBeChecked();
    expect(timeline()).not.toHaveTextContent('has viewed the load track');
    expect(timeline()).not.toHaveTextContent('Sent text message');
    await user.click(toggle);
    expect(screen.getByRole('checkbox', { name: 'App and system notices (2 shown)' })).toBeChecked();
    expect(timeline()).toHaveTextContent('Driver has viewed the load track');
    expect(timeline()).toHaveTextContent('Sent text message to driver');
  });

  it('hides the notices the proxy’s config names, and only those', async () => {
    answerWith(wireDetail());
    const { user } = renderPage({ config: { ...CONFIG, noiseRules: [{ contains: 'in   TRANSIT' }] } });
    await loaded();
    const toggle = screen.getByRole('checkbox', { name: 'App and system notices (1 hidden)' });
    expect(timeline()).not.toHaveTextContent('In transit');
    // The built-in list is not in force here: its notices are ordinary events.
    expect(timeline()).toHaveTextContent('Driver has viewed the load track');
    await user.click(toggle);
    expect(timeline()).toHaveTextContent('In transit');
  });

  it('filters the timeline by kind and by text', async () => {
    answerWith(wireDetail());
    const { user } = renderPage();
    await loaded();
    const kinds = () =>
      rows().map((r) => r.textContent?.match(/^\W*(Status|Comment|Document|Excursion|Ping)/)?.[1]);
    expect(new Set(kinds())).toEqual(new Set(['Status', 'Comment', 'Document', 'Excursion']));
    await user.click(screen.getByRole('checkbox', { name: 'Pings (2)' }));
    expect(kinds()).toContain('Ping');
    await user.click(screen.getByRole('checkbox', { name: 'Pings (2)' }));
    expect(kinds()).not.toContain('Ping');
    await user.click(screen.getByRole('checkbox', { name: 'Status events (4)' }));
    expect(kinds()).not.toContain('Status');
    await user.type(screen.getByRole('searchbox', { name: 'Search the timeline' }), 'pallets');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0]).toHaveTextContent('Seal intact, pallets look good');
    expect(screen.getByText(/^\d+ of \d+ items shown/)).toHaveTextContent(
      '1 of 11 items shown · 2 pings not shown',
    );
  });

  it('shows the conversation with driver and broker told apart in words; a comment with a position pans the map', async () => {
    answerWith(wireDetail());
    const { user, onPanTo } = renderPage();
    await loaded();
    const conversation = within(section(/^Comments/)).getByRole('list', { name: 'Conversation' });
    const [driver, broker] = within(conversation).getAllByRole('listitem');
    expect(driver).toHaveTextContent('Driver · Elena Smith');
    expect(driver).toHaveTextContent('Seal intact, pallets look good');
    expect(broker).toHaveTextContent('Broker');
    expect(broker).toHaveTextContent('Please send the POD');
    expect(within(broker!).queryByRole('button', { name: 'Show on map' })).not.toBeInTheDocument();
    await user.click(within(driver!).getByRole('button', { name: 'Show on map' }));
    expect(onPanTo).toHaveBeenCalledWith({ lat: 41.1, lon: -96, accuracy: 15 });
    // The timeline says who wrote it too.
    expect(timeline()).toHaveTextContent('Driver (D): Seal intact');
    expect(timeline()).toHaveTextContent('Broker (B): Please send the POD');
  });

  it('lists pings newest first with accuracy and place; a click or Enter pans the map, arrows move', async () => {
    answerWith(wireDetail());
    const { user, onPanTo } = renderPage();
    await loaded();
    const list = within(section(/^Pings \(/)).getByRole('region', { name: 'Pings, newest first, 2 in all' });
    const buttons = within(list).getAllByRole('button');
    expect(buttons[0]).toHaveTextContent('Nov 22, 07:26 CST');
    expect(buttons[0]).toHaveTextContent('unknown');
    expect(buttons[1]).toHaveTextContent('±8 m');
    expect(buttons[1]).toHaveTextContent('at 41.2000, -95.9000');
    await user.click(buttons[1]!);
    expect(onPanTo).toHaveBeenLastCalledWith({ lat: 41.2, lon: -95.9, accuracy: 8 });
    await user.keyboard('{ArrowUp}');
    expect(buttons[0]).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onPanTo).toHaveBeenLastCalledWith({ lat: 41.2565, lon: -95.9345, accuracy: null });
  });

  it('renders HTML in a comment as text and never loads or links a hostile document address', async () => {
    const hostile = '<img src=x onerror="alert(1)"><b>Running late</b>';
    answerWith(
      wireDetail({
        comments: [{ comment: hostile, commentBy: 'D', timestampUTC: '11/22/2026 12:00:00 UTC' }],
        documents: [
          { type: 'PICTURE', timestamp: '11/22/2026 04:30 CST', url: 'javascript:alert(1)', location: {} },
          {
            type: 'PHOTO',
            timestamp: '11/22/2026 04:31 CST',
            url: ' data:text/html,<script>alert(1)</script>',
            location: {},
          },
          { type: 'BOL', timestamp: '11/22/2026 04:32 CST', url: '//evil.example/x.jpg', location: {} },
        ],
      }),
    );
    const { user } = renderPage();
    await loaded();
    const conversation = within(section(/^Comments/)).getByRole('list', { name: 'Conversation' });
    expect(conversation).toHaveTextContent(hostile);
    expect(conversation.querySelector('b, img')).toBeNull();

    const docs = section(/^Documents/);
    expect(within(docs).getAllByText('Address not a web address: not opened')).toHaveLength(3);
    expect(within(docs).queryByRole('img')).not.toBeInTheDocument();
    expect(within(docs).queryByRole('link')).not.toBeInTheDocument();
    const hostileAttr =
      '[src*="javascript" i], [href*="javascript" i], [src^="data" i], [href^="data" i], [src*="evil"]';
    expect(document.body.querySelector(hostileAttr)).toBeNull();

    // The viewer shows the address as inert text.
    await user.click(within(docs).getAllByRole('button', { name: /^Open PICTURE/ })[0]!);
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('javascript:alert(1)');
    expect(within(dialog).queryByRole('link')).not.toBeInTheDocument();
    expect(document.body.querySelector(hostileAttr)).toBeNull();
  });

  it('shows documents newest first as thumbnails and cards, and opens the viewer from the grid and the timeline', async () => {
    answerWith(wireDetail());
    const { user } = renderPage();
    await loaded();
    const docs = section(/^Documents \(2\)/);
    const cards = within(docs).getAllByRole('listitem');
    expect(cards[0]).toHaveTextContent('POD');
    expect(cards[0]).toHaveTextContent('stop 2');
    expect(cards[0]).toHaveTextContent('uploader unknown');
    expect(cards[1]).toHaveTextContent('BOL');
    expect(cards[1]).toHaveTextContent('stop 1 (S1)');
    expect(cards[1]).toHaveTextContent('Nov 22, 04:30 CST');
    expect(cards[1]).toHaveTextContent('by Elena Smith · Omaha, NE, US');
    const thumb = cards[1]!.querySelector('img');
    expect(thumb).toHaveAttribute('src', 'https://docs.example.com/bol.jpg');
    expect(thumb).toHaveAttribute('loading', 'lazy');
    expect(thumb).toHaveAttribute('referrerpolicy', 'no-referrer');
    expect(cards[0]!.querySelector('img')).toBeNull();

    const open = within(cards[1]!).getByRole('button', { name: 'Open BOL, stop 1 (S1) (picture)' });
    await user.click(open);
    expect(screen.getByRole('dialog', { name: /BOL/ })).toHaveTextContent('(2 of 2)');
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('dialog', { name: /POD/ })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(open).toHaveFocus();

    await user.click(within(timeline()).getByRole('button', { name: 'Open POD, stop 2' }));
    expect(screen.getByRole('dialog', { name: /POD/ })).toHaveTextContent('(1 of 2)');
  });

  it('charts supply, return and set with the excursion shaded, and has a table view', async () => {
    answerWith(wireDetail());
    const { user } = renderPage();
    await loaded();
    const temps = section(/^Temperatures/);
    expect(within(temps).getByRole('img')).toHaveAccessibleName(/3 readings .* 1 excursion shaded/);
    expect(temps).toHaveTextContent('3 readings, in °F · 1 excursion (supply or return beyond set ±5 °F)');
    const series = chart.series[chart.series.length - 1]!;
    expect(series.unit).toBe('Fahrenheit');
    expect(series.data.slice(1)).toEqual([
      [34.1, 33.1, 33],
      [35, 42.4, 36],
      [34, 34, 34],
    ]);
    const at = (local: string) => Date.parse(local) / 1000;
    expect(series.bands).toEqual([{ from: at('2026-11-22T13:15:00Z'), to: at('2026-11-22T13:15:00Z') }]);
    expect(timeline()).toHaveTextContent('Temperature excursion: return 42.4 °F, 8.4 °F above set 34 °F');

    await user.click(within(temps).getByRole('button', { name: 'Table' }));
    expect(within(temps).getByRole('button', { name: 'Table' })).toHaveAttribute('aria-pressed', 'true');
    const table = within(temps).getByRole('table');
    const body = within(table).getAllByRole('row').slice(1);
    expect(body.map((r) => r.textContent)).toEqual([
      expect.stringMatching(/07:30 CST.*33 °F36 °F34 °Fno$/),
      expect.stringMatching(/07:15 CST.*33.1 °F42.4 °F34 °Fyes$/),
      expect.stringMatching(/07:00 CST.*34.1 °F35 °F34 °Fno$/),
    ]);
  });

  it('shows the track at once and the readings when their own answer comes', async () => {
    answerWith(wireDetail());
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    fetchMock.mockImplementation(async (path, init) => {
      if (String(path).startsWith('/api/documents/reviews'))
        return new Response(JSON.stringify({ reviews: [], cursor: '0', full: true }));
      const body = JSON.parse(String(init?.body)) as { include?: Record<string, boolean> };
      if (body.include?.temperatures === true) await held;
      return proxyAnswer(body);
    });
    renderPage();
    await trackLoaded();
    expect(rows().length).toBeGreaterThan(0);
    const temps = section(/^Temperatures/);
    expect(within(temps).getByRole('status')).toHaveTextContent('Loading the temperature readings…');
    expect(timeline()).not.toHaveTextContent('Temperature excursion');
    // The latest reading comes with the track: the header has it already.
    expect(summary()).toHaveTextContent('Latest temperature');
    const bodies = fetchMock.mock.calls
      .filter(([path]) => String(path).startsWith('/api/pull/'))
      .map(([, init]) => JSON.parse(String(init?.body)) as unknown);
    expect(bodies).toEqual([
      { ids: ['700100'], include: { temperatures: false } },
      {
        ids: ['700100'],
        include: {
          locations: false,
          events: false,
          documents: false,
          comments: false,
          temperatures: true,
          extras: false,
        },
      },
    ]);

    release();
    expect(await within(temps).findByRole('img')).toHaveAccessibleName(/3 readings .* 1 excursion shaded/);
    expect(timeline()).toHaveTextContent('Temperature excursion: return 42.4 °F, 8.4 °F above set 34 °F');
    // The excursion takes its place in time among the track's items, and nothing is doubled. It
    // completes the load rather than being news: nothing is marked "New".
    expect(timeline().querySelector('[data-new]')).toBeNull();
    const keys = rows().map((r) => r.getAttribute('data-key'));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps the panel when the readings cannot be loaded, and says so in their section', async () => {
    answerWith(wireDetail());
    fetchMock.mockImplementation((_path, init) => {
      const body = JSON.parse(String(init?.body)) as { include?: Record<string, boolean> };
      return Promise.resolve(
        body.include?.temperatures === true
          ? jsonResponse(400, { error: { code: 'bad_request', message: 'no' } })
          : proxyAnswer(body),
      );
    });
    renderPage();
    await loaded();
    expect(await within(section(/^Temperatures/)).findByRole('alert')).toHaveTextContent(
      'The temperature readings could not be loaded. Haulview asks again with the next refresh.',
    );
    expect(rows().length).toBeGreaterThan(0);
    expect(summary()).toHaveTextContent('Latest temperature');
  });

  it('says in words that a load looked up by load number has no temperatures', async () => {
    const { loadTrackExternalId: _x, temperatures: _t, latestTemperature: _l, ...rest } = wireDetail();
    answerWith({ ...rest, loadNumber: 'LN-42' });
    renderPage({ by: 'load-number', id: 'LN-42' });
    await loaded();
    expect(screen.getByRole('heading', { name: 'Load LN-42', level: 2 })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/api/pull/by-load-number', expect.anything());
    // Only by external id does the service send temperatures: nothing else is asked for.
    expect(fetchMock.mock.calls.filter(([path]) => String(path).startsWith('/api/pull/'))).toHaveLength(1);
    const temps = section(/^Temperatures/);
    expect(temps).toHaveTextContent(
      'No temperatures here: the tracking service sends reefer readings only when a load is looked up by its external id (this one’s is 9100), not by its load number.',
    );
    expect(within(temps).queryByRole('img')).not.toBeInTheDocument();
    expect(chart.series).toHaveLength(0);
    expect(summary()).not.toHaveTextContent('Latest temperature');
    expect(summary()).toHaveTextContent('Load numberLN-42');
  });

  it('marks an event that arrives with a refetch as new, once', async () => {
    answerWith(wireDetail());
    const { user } = renderPage();
    await loaded();
    expect(timeline().querySelector('[data-new]')).toBeNull();

    const next = wireDetail();
    (next.events as Wire[]).push(wireEvent(6, 'Arrived at delivery', 'ADL', '11/22/2026 08:00:00 CST'));
    answerWith(next);
    await user.click(screen.getByRole('button', { name: 'Refresh now' }));
    await within(timeline()).findByText('Arrived at delivery');

    const arrived = rows().filter((r) => r.textContent?.includes('Arrived at delivery'));
    expect(arrived).toHaveLength(1);
    expect(arrived[0]).toHaveAttribute('data-new', 'true');
    expect(arrived[0]).toHaveTextContent('New');
    expect(rows()[0]).toBe(arrived[0]);
    // Nothing else is new, and nothing is doubled.
    expect(timeline().querySelectorAll('[data-new]')).toHaveLength(1);
    const keys = rows().map((r) => r.getAttribute('data-key'));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('says so when the service does not know the load', async () => {
    served = { details: [], missing: ['999'] };
    renderPage({ id: '999' });
    expect(await screen.findByText(/does not know a load with external id/)).toHaveTextContent(
      'The tracking service does not know a load with external id 999.',
    );
  });

  it('waits for a load the proxy has not pulled yet (pending), and shows it whole once it comes', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse(200, { ...pullAnswer([]), cursor: 's.4', pending: ['700100'] }),
    );
    const { client } = renderPage();
    expect(await screen.findByText(/Waiting for the first answer/)).toHaveTextContent(
      'Waiting for the first answer from the tracking service about the load with external id 700100',
    );
    expect(screen.queryByText(/does not know/)).toBeNull();

    // The puller's first pull came in: the next pull asks for the whole load, not after the cursor.
    answerWith(wireDetail());
    await client.refetchQueries();
    await trackLoaded();
    expect(screen.queryByText(/Waiting for the first answer/)).toBeNull();
    const pulls = fetchMock.mock.calls.filter(([path]) => path === '/api/pull/by-external-id');
    const bodies = pulls.map(([, init]) => JSON.parse(String(init?.body)) as { since?: string });
    expect(bodies.length).toBeGreaterThan(1);
    for (const body of bodies) expect(body.since).toBeUndefined();
  });

  it('shows what went wrong when the load cannot be fetched', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(400, {
        error: { code: 'bad_request', message: 'ids may hold printable characters only' },
      }),
    );
    renderPage({ id: 'x' });
    expect(await screen.findByRole('alert')).toHaveTextContent('ids may hold printable characters only');
    expect(screen.getByText(/could not be loaded/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
