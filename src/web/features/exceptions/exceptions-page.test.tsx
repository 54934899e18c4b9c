import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExceptionAck } from '@/contract/exceptions-api';
import type { Load, Outlook, StopOutlook } from '@/domain/model';
import { CLIENT_CONFIG } from '@/testing/client-config';
import { emptyLoad, testLatestLocation, testTime } from '@/testing/loads';
import { createQueryClient } from '../../data/query-client';
import { formatTime, viewerTime } from '../../lib/time-format';
import { ExceptionsList } from './exceptions-page';

// jsdom has no layout: give the page's scroll box a size so the virtualized rows render...
Object.defineProperty(Element.prototype, 'clientHeight', { configurable: true, get: () => 600 });
Object.defineProperty(Element.prototype, 'clientWidth', { configurable: true, get: () => 800 });
// ...and each row a height when measured: with none, every row would fit in the view.
Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
  configurable: true,
  get(this: HTMLElement) {
    return this.matches('li[data-index]') ? 100 : 0;
  },
});

const NOW = Date.parse('2026-11-24T15:00:00Z');
const MIN = 60_000;

const delivery = (fields: Partial<StopOutlook>): StopOutlook => ({
  order: 2,
  type: 'delivery',
  progress: 'upcoming',
  status: 'on-time',
  ...fields,
});
const appointment = (instant: number) => ({ local: '11/24/2026 13:00', offsetHours: -6, instant });

function load(id: string, minutesAgo: number, outlook: Outlook, status = 'In transit'): Load {
  return emptyLoad(id, 'external-id', {
    latestLocation: testLatestLocation(NOW - minutesAgo * MIN, {
      key: id,
      time: testTime(),
      driver: { name: `Driver ${id}`, phone: '+18015550123' },
    }),
    latestStatus: {
      key: 's',
      instant: NOW - 300 * MIN,
      time: testTime(),
      id: undefined,
      name: status,
      code: undefined,
      driver: undefined,
    },
    outlook,
  });
}

const LOADS: Load[] = [
  load('RISK', 1, {
    asOf: NOW - MIN,
    stops: [delivery({ status: 'at-risk', lateMinutes: -25, appointment: appointment(NOW + 60 * MIN) })],
  }),
  load('FRESH', 2, {
    asOf: NOW - 2 * MIN,
    stops: [delivery({ status: 'on-time', lateMinutes: -200, appointment: appointment(NOW + 600 * MIN) })],
  }),
  load('DARK', 200, {
    asOf: NOW - 200 * MIN,
    dark: { reason: 'moving', at: NOW - 200 * MIN, mph: 58 },
    stops: [],
  }),
  load('LATE', 3, {
    asOf: NOW - 3 * MIN,
    stops: [delivery({ status: 'on-time', lateMinutes: -30, appointment: appointment(NOW - 10 * MIN) })],
  }),
  // Delivered: its silent phone and passed appointment are no exception.
  load('DONE', 400, { asOf: 0, dark: { reason: 'stopped' }, stops: [] }, 'Delivered'),
];

let acks: ExceptionAck[];
let puts: unknown[];
let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  puts = [];
  acks = [
    {
      load: 'e:RISK',
      kind: 'at-risk',
      state: 'snoozed',
      until: new Date(NOW + 10 * MIN).toISOString(),
      occurrence: 'stop 2',
      note: 'receiver says fine',
      by: 'Bo',
      at: new Date(NOW - 20 * MIN).toISOString(),
      version: 1,
    },
  ];
  fetchMock = vi.fn<typeof fetch>(async (_url, init) => {
    if (init?.method === 'PUT') {
      const body = JSON.parse(String(init.body)) as {
        load: string;
        kind: ExceptionAck['kind'];
        occurrence?: string;
        note?: string;
      };
      puts.push(body);
      const ack: ExceptionAck = {
        load: body.load,
        kind: body.kind,
        state: 'acknowledged',
        until: null,
        occurrence: body.occurrence ?? null,
        note: body.note ?? null,
        by: 'Ana',
        at: new Date(NOW).toISOString(),
        version: 1,
      };
      acks = [ack, ...acks];
      return json(ack);
    }
    return json({ acks });
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

function show(now = NOW, loads = LOADS) {
  const client = createQueryClient();
  const view = (at: number) => (
    <QueryClientProvider client={client}>
      <div data-exceptions-scroll>
        <ExceptionsList config={CLIENT_CONFIG} loads={loads} now={at} />
      </div>
    </QueryClientProvider>
  );
  const r = render(view(now));
  return { rerender: (at: number) => r.rerender(view(at)) };
}

const openRows = () => within(screen.getByRole('list', { name: 'Needs action' })).queryAllByRole('listitem');
const handledRows = () =>
  within(screen.getByRole('list', { name: 'Handled', hidden: true })).queryAllByRole('listitem', {
    hidden: true,
  });

describe('the exceptions list', () => {
  it('lists the loads that need action, most severe first, with kind, since, evidence and a phone link', async () => {
    show();
    await screen.findByText('Handled (1)');
    expect(openRows().map((r) => r.getAttribute('data-load'))).toEqual([
      'external-id:LATE',
      'external-id:DARK',
    ]);
    const [late, dark] = openRows();
    expect(late).toHaveTextContent('Late');
    expect(late).toHaveTextContent('Delivery: Late: appointment passed');
    expect(late).toHaveTextContent(`since ${formatTime(NOW - 10 * MIN, { kind: 'mine' })} (10 min ago)`);
    expect(dark).toHaveTextContent('Went dark while moving');
    expect(dark).toHaveTextContent('Its last pings moved at 58 mph');
    expect(dark).toHaveTextContent('3 h 20 min ago');
    expect(within(dark!).getByRole('link', { name: '+18015550123' })).toHaveAttribute(
      'href',
      'tel:+18015550123',
    );
    // The snoozed load waits in the handled group, with who, until when and the note.
    expect(handledRows()[0]).toHaveTextContent(
      `Snoozed by Bo at ${viewerTime(NOW - 20 * MIN)}, until ${viewerTime(NOW + 10 * MIN)} · “receiver says fine”`,
    );
    expect(screen.queryByText('DONE')).toBeNull();
    expect(screen.queryByText('FRESH')).toBeNull();
  });

  it('a stop late or at risk by its ETA says the ETA against the appointment, not a moving "since"', async () => {
    // Each ping reckons the ETA afresh (asOf is the ping): what a dispatcher needs is when, not "just now".
    const byEta = (minutesAgo: number) => [
      load('ETA', minutesAgo, {
        asOf: NOW - minutesAgo * MIN,
        stops: [
          delivery({
            status: 'late',
            lateMinutes: 70,
            eta: NOW + 130 * MIN,
            appointment: appointment(NOW + 60 * MIN),
          }),
        ],
      }),
      load('TIGHT', minutesAgo, {
        asOf: NOW - minutesAgo * MIN,
        stops: [delivery({ status: 'at-risk', lateMinutes: -15, appointment: appointment(NOW + 90 * MIN) })],
      }),
    ];
    acks = [];
    const view = show(NOW, byEta(0));
    await screen.findByText('Handled (0)');
    const [late, risk] = openRows();
    expect(late).toHaveAttribute('data-kind', 'late');
    expect(late).toHaveTextContent('ETA Nov 24, 11:10 GMT-6, appointment Nov 24, 10:00 GMT-6');
    expect(risk).toHaveAttribute('data-kind', 'at-risk');
    expect(risk).toHaveTextContent('ETA not known, appointment Nov 24, 10:30 GMT-6');
    expect(screen.queryByText(/just now|since/)).toBeNull();
    // A later page clock reads the same: nothing in the row moves by itself.
    view.rerender(NOW + 5 * MIN);
    expect(openRows()[0]).toHaveTextContent('ETA Nov 24, 11:10 GMT-6, appointment Nov 24, 10:00 GMT-6');
    expect(screen.queryByText(/ago|just now/)).toBeNull();
  });

  it('a stay left open by a phone dark at the stop says what its pings prove', async () => {
    const there = delivery({ progress: 'arrived', arrivedAt: NOW - 240 * MIN, freeMinutes: 120 });
    const quiet = load('DOCK', 50, {
      asOf: NOW - 50 * MIN,
      dark: { reason: 'at-stop', at: NOW - 50 * MIN, stopOrder: 2, meters: 40 },
      stops: [there],
    });
    acks = [];
    show(NOW, [quiet]);
    await screen.findByText('Handled (0)');
    const [row] = openRows();
    expect(row).toHaveAttribute('data-kind', 'detention');
    expect(row).toHaveTextContent(
      `since ${formatTime(NOW - 120 * MIN, { kind: 'mine' })} (2 h ago); at least 3 h 10 min there, phone dark at the stop`,
    );
    expect(row).toHaveTextContent('At delivery · open, detention 2 h');
  });

  it('a snooze ends by itself: past its time the load is back in the list', async () => {
    const { rerender } = show();
    await screen.findByText('Handled (1)');
    rerender(NOW + 11 * MIN);
    expect(screen.getByText('Handled (0)')).toBeInTheDocument();
    expect(openRows().map((r) => r.getAttribute('data-kind'))).toEqual(['late', 'dark-moving', 'at-risk']);
  });

  it('j and a acknowledge the second row with the note typed; the row moves to handled', async () => {
    const user = userEvent.setup();
    show();
    await screen.findByText('Handled (1)');
    await user.type(screen.getByRole('textbox', { name: 'Note on DARK' }), 'driver called back');
    await user.keyboard('{Escape}');
    (document.activeElement as HTMLElement).blur();
    await user.keyboard('j');
    expect(openRows()[1]).toHaveAttribute('aria-current', 'true');
    await user.keyboard('a');
    await screen.findByText('Handled (2)');
    expect(puts).toEqual([
      {
        load: 'e:DARK',
        kind: 'dark-moving',
        action: 'acknowledge',
        occurrence: `ping ${NOW - 200 * MIN}`,
        note: 'driver called back',
      },
    ]);
    expect(openRows().map((r) => r.getAttribute('data-load'))).toEqual(['external-id:LATE']);
    expect(handledRows()[0]).toHaveTextContent(
      `Acknowledged by Ana at ${viewerTime(NOW)} · “driver called back”`,
    );
  });

  it('an acknowledgement ends when the exception is another occurrence', async () => {
    acks = [
      {
        ...acks[0]!,
        load: 'e:DARK',
        kind: 'dark-moving',
        state: 'acknowledged',
        until: null,
        occurrence: 'ping 1',
      },
    ];
    show();
    await screen.findByText('Handled (0)');
    expect(openRows()).toHaveLength(3);
  });

  it('the buttons snooze for 30 min and 2 h; typing in a note is no shortcut', async () => {
    const user = userEvent.setup();
    show();
    await screen.findByText('Handled (1)');
    await user.type(screen.getByRole('textbox', { name: 'Note on LATE' }), 'as');
    expect(puts).toEqual([]);
    await user.click(within(openRows()[0]!).getByRole('button', { name: 'Snooze 2 h' }));
    await vi.waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({
      load: 'e:LATE',
      kind: 'late',
      action: 'snooze',
      minutes: 120,
      note: 'as',
    });
  });

  it('a long list draws the rows on screen, each telling its place; j walks past them with focus kept', async () => {
    const user = userEvent.setup();
    const many = Array.from({ length: 300 }, (_, i) =>
      load(`D${String(i).padStart(3, '0')}`, 200 + i, {
        asOf: NOW - (200 + i) * MIN,
        dark: { reason: 'moving', at: NOW - (200 + i) * MIN, mph: 50 },
        stops: [],
      }),
    );
    acks = [];
    show(NOW, many);
    await screen.findByText('Handled (0)');
    const drawn = openRows();
    expect(drawn.length).toBeGreaterThan(0);
    expect(drawn.length).toBeLessThan(30);
    expect(drawn[0]).toHaveAttribute('aria-setsize', '300');
    expect(drawn[0]).toHaveAttribute('aria-posinset', '1');
    // The longest dark first, as without virtualizing.
    expect(drawn[0]).toHaveAttribute('data-load', 'external-id:D299');
    for (let i = 0; i < 40; i++) await user.keyboard('j');
    const current = document.activeElement as HTMLElement;
    expect(current).toHaveAttribute('aria-current', 'true');
    expect(current).toHaveAttribute('aria-posinset', '41');
    expect(current).toHaveAttribute('data-load', 'external-id:D259');
    await user.keyboard('a');
    await vi.waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({ load: 'e:D259', kind: 'dark-moving', action: 'acknowledge' });
  });
});
