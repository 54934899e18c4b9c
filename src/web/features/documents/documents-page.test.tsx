import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { viewerInZone } from '@/testing/viewer-zone';
import { createQueryClient } from '../../data/query-client';
import { watchList } from '../../lib/watch-list';
import { DocumentsNavBadge } from './documents-nav-badge';
import { DocumentsPage } from './documents-page';
import { CONFIG, fakeProxy, wireDocument, wireStop } from './inbox-fixtures';
import { REVIEWED_STORAGE_KEY } from './browser-reviews';
import { useDocumentsInbox } from './use-documents-inbox';

const URL_POD = 'https://docs.example.com/700100/pod.pdf';
const URL_SEAL = 'https://docs.example.com/700200/seal.jpg';
const URL_BOL = 'https://docs.example.com/700100/bol.jpg';
const URL_LN1 = 'https://docs.example.com/ln1/bol.png';
const URL_LUMPER = 'https://docs.example.com/700200/lumper.pdf';

let proxy: ReturnType<typeof fakeProxy>;

// The viewer sits in Denver, in a zone none of the drivers below is in. Set before the first time
// is written (the viewer's format is made once).
viewerInZone('America/Denver');

// jsdom has no layout: give the virtualized list's scroll element a size so its rows render.
Object.defineProperty(Element.prototype, 'clientHeight', { configurable: true, get: () => 600 });
Object.defineProperty(Element.prototype, 'clientWidth', { configurable: true, get: () => 800 });
// ...and its rows a height when measured: with none, every row would fit in the view.
Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
  configurable: true,
  get(this: HTMLElement) {
    return this.matches('li[data-index]') ? 50 : 0;
  },
});

/** Two loads by external id and one by load number, five documents; one without a time, one in an unknown zone. */
function standardFleet() {
  proxy.set('external-id', '700100', [
    wireDocument(URL_BOL, 'BOL', '11/22/2026 04:30 CST'),
    wireDocument(URL_POD, 'POD', '11/22/2026 09:00 CST', { stopOrderNumber: 2, stopExternalId: 'S2' }),
  ]);
  proxy.set('external-id', '700200', [
    wireDocument(URL_SEAL, 'PICTURE', '11/22/2026 08:00 EST', { driver: { name: 'Marcus Lee' } }),
    wireDocument(URL_LUMPER, 'LUMPER', null, { stopOrderNumber: 3, stopExternalId: 'S3' }),
  ]);
  proxy.set('load-number', 'LN1', [
    wireDocument(URL_LN1, 'BOL', '11/22/2026 06:15 XYZ', {
      stopOrderNumber: null,
      stopExternalId: null,
      driver: null,
    }),
  ]);
}

function watch(text: string) {
  window.localStorage.setItem('haulview.watch', text);
  watchList.reset();
}

beforeEach(() => {
  window.localStorage.clear();
  window.history.replaceState(null, '', '/documents');
  watch('e:700100,700200;n:LN1');
  proxy = fakeProxy();
  vi.stubGlobal('fetch', proxy.fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** The page as the app shows it: under the app's h1, inside its main landmark. */
function renderPage() {
  const user = userEvent.setup();
  const client = createQueryClient();
  const utils = render(
    <QueryClientProvider client={client}>
      <main>
        <h1>Haulview</h1>
        <DocumentsPage config={CONFIG} />
      </main>
    </QueryClientProvider>,
  );
  return { user, client, ...utils };
}

const list = () => screen.getByRole('list', { name: /^Documents,/ });
const articles = () => within(list()).getAllByRole('article');
const names = () =>
  articles().map(
    (a) =>
      a
        .getAttribute('aria-label')
        ?.replace(/^\d+ of \d+: /, '')
        .split(',')[0],
  );
const loaded = () => screen.findByRole('list', { name: /^Documents,/ });

describe('DocumentsPage', () => {
  it('lists every document of the watched loads, newest first, no time last, with load, stop, time, uploader and map link', async () => {
    standardFleet();
    renderPage();
    await loaded();
    expect(screen.getByRole('heading', { level: 2, name: 'Documents' })).toBeInTheDocument();
    // How old the list is, in the words the map and the load's page use.
    expect(await screen.findByText('Updated just now · refreshes every 3600 s')).toBeInTheDocument();
    expect(list()).toHaveAccessibleName('Documents, not reviewed, newest first: 5 documents');
    expect(names()).toEqual([
      'POD of load 700100',
      'PICTURE of load 700200',
      'BOL of load 700100',
      'BOL of load LN1',
      'LUMPER of load 700200',
    ]);
    // Documents were asked for (not even the readings list), with the undocumented fields that carry
    // the load's stops and the statuses that say which trip a document is of, by each kind of id.
    expect(proxy.calls).toEqual(
      expect.arrayContaining([
        {
          by: 'external-id',
          ids: ['700100', '700200'],
          include: {
            locations: false,
            events: true,
            documents: true,
            comments: false,
            temperatures: false,
            extras: true,
          },
        },
        { by: 'load-number', ids: ['LN1'], include: expect.objectContaining({ documents: true }) },
      ]),
    );

    const [pod, seal, , ln1, lumper] = articles();
    expect(pod).toHaveTextContent('POD');
    expect(pod).toHaveTextContent('Load 700100');
    expect(pod).toHaveTextContent('Stop 2 (S2)');
    expect(pod).toHaveTextContent('by Elena Smith');
    expect(pod).toHaveTextContent('Not reviewed');
    const podTime = within(pod!).getByText('Nov 22, 09:00 CST');
    expect(podTime).toHaveAttribute('datetime', '2026-11-22T15:00:00.000Z');
    expect(podTime.parentElement).toHaveAttribute(
      'title',
      expect.stringContaining('Your zone: Nov 22, 08:00 MST'),
    );
    expect(within(pod!).getByRole('link', { name: 'Show on map: load 700100' })).toHaveAttribute(
      'href',
      '/?load=e:700100',
    );
    expect(seal).toHaveTextContent('by Marcus Lee');
    // A picture gets a thumbnail that loads lazily, without a referrer; a PDF a card.
    const thumb = seal!.querySelector('img');
    expect(thumb).toHaveAttribute('src', URL_SEAL);
    expect(thumb).toHaveAttribute('loading', 'lazy');
    expect(thumb).toHaveAttribute('referrerpolicy', 'no-referrer');
    expect(pod!.querySelector('img')).toBeNull();
    for (const link of within(pod!).getAllByRole('link', { name: /Open original|Download/ })) {
      expect(link).toHaveAttribute('href', URL_POD);
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
    // An unknown zone is said in words; so are a missing stop, uploader and time.
    expect(ln1).toHaveTextContent('Nov 22, 06:15 XYZ(zone unknown)');
    expect(ln1).toHaveTextContent('no stop given');
    expect(ln1).toHaveTextContent('uploader unknown');
    expect(within(ln1!).getByRole('link', { name: 'Show on map: load LN1' })).toHaveAttribute(
      'href',
      '/?load=n:LN1',
    );
    expect(lumper).toHaveTextContent('time unknown');
    expect(screen.getByText(/not reviewed of 5 documents from 3 loads/)).toBeInTheDocument();
  });

  it('shows each time with its age, so newest first reads in order, and in the viewer’s zone on request', async () => {
    standardFleet();
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.parse('2026-11-22T16:00:00Z'));
      const { user } = renderPage();
      await loaded();
      const times = () =>
        articles().map((a) => {
          const time = a.querySelector('time[datetime]');
          return time ? time.parentElement?.textContent : undefined;
        });
      // In the drivers' zones, the wall times of several zones alone would read out of order
      // (09:00 CST, 08:00 EST): their ages say the order.
      expect(times()).toEqual([
        '1 h ago · Nov 22, 09:00 CST',
        '3 h ago · Nov 22, 08:00 EST',
        '5 h 30 min ago · Nov 22, 04:30 CST',
        expect.stringMatching(/^9 h 45 min ago · Nov 22, 06:15 XYZ\(zone unknown\)/),
        undefined,
      ]);
      await user.click(screen.getByRole('button', { name: 'Driver’s zone', pressed: true }));
      await user.click(screen.getByRole('button', { name: 'My zone (MST)' }));
      expect(screen.getByRole('button', { name: 'My zone (MST)' })).toHaveAttribute('aria-pressed', 'true');
      // One zone for all: the wall times now fall in order too. An unknown zone cannot be converted.
      expect(times()).toEqual([
        '1 h ago · Nov 22, 08:00 MST',
        '3 h ago · Nov 22, 06:00 MST',
        '5 h 30 min ago · Nov 22, 03:30 MST',
        expect.stringMatching(/06:15 XYZ\(zone unknown\)/),
        undefined,
      ]);
      expect(articles()[0]).toHaveAccessibleName(
        /^1 of 5: POD of load 700100, Stop 2 \(S2\), Nov 22, 08:00 MST/,
      );
      // A view preference, kept in this browser for every page.
      expect(window.localStorage.getItem('haulview.timeZone')).toBe('mine');
    } finally {
      vi.useRealTimers();
    }
  });

  it('filters by type, load, stop, date range and review state, and groups by load', async () => {
    standardFleet();
    proxy.set('external-id', '700300', [
      wireDocument('https://docs.example.com/700300/old.pdf', 'POD', '11/18/2026 12:00 UTC'),
      wireDocument('https://docs.example.com/700300/new.pdf', 'POD', '11/26/2026 12:00 UTC'),
    ]);
    watch('e:700100,700200,700300;n:LN1');
    proxy.decide(URL_SEAL, 'approved', 'Bo', 'e:700200');
    const { user } = renderPage();
    await loaded();
    expect(names()).toHaveLength(6);
    expect(names()).not.toContain('PICTURE of load 700200');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'POD (3)');
    expect(names()).toEqual(['POD of load 700300', 'POD of load 700100', 'POD of load 700300']);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Load' }), 'Load 700100 (2)');
    expect(names()).toEqual(['POD of load 700100']);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'All types');
    expect(names()).toEqual(['POD of load 700100', 'BOL of load 700100']);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Stop' }), 'Stop 1 (S1) (1)');
    expect(names()).toEqual(['BOL of load 700100']);
    expect(list()).toHaveAccessibleName('Documents, not reviewed, filtered, newest first: 1 document');

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await user.type(screen.getByLabelText('From'), '2026-11-20');
    await user.type(screen.getByLabelText('To'), '2026-11-24');
    // The lumper receipt has no time: a date range leaves it out, and says so.
    expect(names()).toEqual(['POD of load 700100', 'BOL of load 700100', 'BOL of load LN1']);
    expect(screen.getByText(/documents without a readable time are hidden/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await user.click(screen.getByRole('radio', { name: /^Reviewed/ }));
    expect(names()).toEqual(['PICTURE of load 700200']);
    expect(articles()[0]).toHaveTextContent('✓ Approved');
    await user.click(screen.getByRole('radio', { name: /^All/ }));
    expect(names()).toHaveLength(7);

    await user.click(screen.getByRole('checkbox', { name: 'Group by load' }));
    const grouped = screen.getByRole('list', { name: /by load: 7 documents of 4 loads$/ });
    expect(
      within(grouped)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual([
      'Load 700300 (2 documents)',
      'Load 700100 (2 documents)',
      'Load 700200 (2 documents)',
      'Load LN1 (1 document)',
    ]);
    const first = within(grouped).getByRole('list', { name: 'Load 700300 (2 documents)' });
    expect(
      within(first)
        .getAllByRole('article')
        .map((a) => a.getAttribute('aria-label')),
    ).toEqual([
      // The current document says its place in the whole queue; focus rests on no other row.
      expect.stringMatching(/^1 of 7: POD of load 700300, Stop 1 \(S1\), Nov 26, 12:00 UTC/),
      expect.stringMatching(/^POD of load 700300, Stop 1 \(S1\), Nov 18, 12:00 UTC/),
    ]);
  });

  it('keeps the filters and grouping in the URL, so a reload opens the same queue; junk there reads as none', async () => {
    standardFleet();
    proxy.decide(URL_SEAL, 'approved', 'Bo', 'e:700200');
    const first = renderPage();
    await loaded();
    await first.user.click(screen.getByRole('radio', { name: /^All/ }));
    await first.user.selectOptions(screen.getByRole('combobox', { name: 'Load' }), 'Load 700100 (2)');
    await first.user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'BOL (2)');
    await first.user.type(screen.getByLabelText('From'), '2026-11-20');
    await first.user.click(screen.getByRole('checkbox', { name: 'Group by load' }));
    const query = new URLSearchParams(window.location.search);
    expect(Object.fromEntries(query)).toEqual({
      w: 'e:700100,700200;n:LN1',
      show: 'all',
      load: 'external-id:700100',
      type: 'BOL',
      from: '2026-11-20',
      group: 'load',
    });
    first.unmount();

    // A reload: a new page and a new cache, the same address.
    renderPage();
    await screen.findByRole('list', { name: /^Documents, all, filtered, by load: 1 document of 1 load$/ });
    expect(names()).toEqual(['BOL of load 700100']);
    expect(screen.getByRole('radio', { name: /^All/ })).toBeChecked();
    expect(screen.getByRole('combobox', { name: 'Load' })).toHaveDisplayValue('Load 700100 (2)');
    expect(screen.getByRole('combobox', { name: 'Type' })).toHaveDisplayValue('BOL (2)');
    expect(screen.getByLabelText('From')).toHaveValue('2026-11-20');
    expect(screen.getByRole('checkbox', { name: 'Group by load' })).toBeChecked();

    // Clearing them clears the address too (the watch list it carries stays).
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(window.location.search).not.toMatch(/show=|load=|type=|from=/);
    cleanup();

    // A hand-edited address: a value no filter can have reads as the default, and the page works.
    window.history.replaceState(null, '', '/documents?show=bogus&from=yesterday&to=2026-13-99x&group=x');
    renderPage();
    await loaded();
    expect(list()).toHaveAccessibleName('Documents, not reviewed, newest first: 4 documents');
    expect(screen.getByRole('radio', { name: /^Not reviewed/ })).toBeChecked();
    expect(screen.getByLabelText('From')).toHaveValue('');
  });

  it('offers Pickup and Delivery as stops, with their places for a chosen load, and names each row’s stop place', async () => {
    proxy.set('external-id', '700100', [
      wireDocument(URL_BOL, 'BOL', '11/22/2026 04:30 CST'),
      wireDocument(URL_POD, 'POD', '11/22/2026 09:00 CST', { stopOrderNumber: 2, stopExternalId: 'S2' }),
    ]);
    proxy.stops.set('700100', [
      wireStop(1, 'PICKUP', 'Omaha', 'NE'),
      wireStop(2, 'DELIVERY', 'Denver', 'CO'),
    ]);
    proxy.set('external-id', '700200', [
      wireDocument(URL_SEAL, 'PICTURE', '11/22/2026 08:00 EST', { stopOrderNumber: 2, stopExternalId: 'S2' }),
    ]);
    // Stops that are not a list: the stop as the document gives it.
    proxy.stops.set('700200', 'S1;S2');
    watch('e:700100,700200');
    const { user } = renderPage();
    await loaded();
    const stop = () => screen.getByRole('combobox', { name: 'Stop' });
    const optionTexts = () =>
      within(stop())
        .getAllByRole('option')
        .map((o) => o.textContent);
    expect(optionTexts()).toEqual(['All stops', 'Pickup (1)', 'Delivery (1)', 'Stop 2 (S2) (1)']);
    const [pod, seal, bol] = articles();
    expect(pod).toHaveTextContent('Delivery · Denver, CO');
    expect(pod).toHaveAccessibleName(/^1 of 3: POD of load 700100, Delivery · Denver, CO,/);
    expect(bol).toHaveTextContent('Pickup · Omaha, NE');
    expect(seal).toHaveTextContent('Stop 2 (S2)');

    await user.selectOptions(stop(), 'Delivery (1)');
    expect(names()).toEqual(['POD of load 700100']);
    expect(window.location.search).toContain('stop=delivery');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Load' }), 'Load 700100 (2)');
    expect(optionTexts()).toEqual(['All stops', 'Pickup · Omaha, NE (1)', 'Delivery · Denver, CO (1)']);
    await user.selectOptions(stop(), 'Pickup · Omaha, NE (1)');
    expect(names()).toEqual(['BOL of load 700100']);
  });

  it('reviews three documents by keyboard, announces each, and undoes the last', async () => {
    standardFleet();
    const { user } = renderPage();
    await loaded();
    await user.click(articles()[0]!);
    expect(articles()[0]).toHaveFocus();

    await user.keyboard('j');
    expect(articles()[1]).toHaveFocus();
    expect(articles()[1]).toHaveAccessibleName(/^2 of 5: PICTURE of load 700200, Stop 1 \(S1\)/);
    // The row left behind no longer says a place, which a later approval would make wrong.
    expect(articles()[0]).toHaveAccessibleName(/^POD of load 700100/);
    await user.keyboard('{ArrowDown}{ArrowUp}k');
    expect(articles()[0]).toHaveFocus();
    expect(articles()[0]).toHaveAccessibleName(/^1 of 5: POD of load 700100/);

    // r is no key: read as "reject" it would have approved the paper.
    await user.keyboard('r');
    expect(articles()).toHaveLength(5);
    await user.keyboard('a');
    expect(screen.getByRole('status')).toHaveTextContent(
      'Approved: POD of load 700100. 4 not reviewed left.',
    );
    expect(articles()).toHaveLength(4);
    expect(articles()[0]).toHaveFocus();
    expect(articles()[0]).toHaveAccessibleName(/^1 of 4: PICTURE of load 700200/);
    await user.keyboard('aa');
    expect(names()).toEqual(['BOL of load LN1', 'LUMPER of load 700200']);
    expect(articles()[0]).toHaveFocus();
    expect(screen.getByRole('status')).toHaveTextContent(
      'Approved: BOL of load 700100. 2 not reviewed left.',
    );
    await waitFor(() => expect(proxy.decisionOf(URL_POD)).toBe('approved'));
    await waitFor(() => expect(proxy.decisionOf(URL_SEAL)).toBe('approved'));
    await waitFor(() => expect(proxy.decisionOf(URL_BOL)).toBe('approved'));

    await user.keyboard('u');
    expect(screen.getByRole('status')).toHaveTextContent('Undone: BOL of load 700100 is not reviewed again.');
    expect(names()).toEqual(['BOL of load 700100', 'BOL of load LN1', 'LUMPER of load 700200']);
    expect(articles()[0]).toHaveFocus();
    await waitFor(() => expect(proxy.decisionOf(URL_BOL)).toBe('pending'));
    // Only the current document is in the Tab order.
    expect(articles().map((a) => a.tabIndex)).toEqual([0, -1, -1]);
  });

  it('renders only the rows near the view of a long queue, each telling its place, and keys reach every one', async () => {
    const many = 400;
    proxy.set(
      'external-id',
      '700100',
      Array.from({ length: many }, (_, i) => {
        const at = `${String(10 + Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`;
        return wireDocument(`https://docs.example.com/700100/pod-${i}.jpg`, 'POD', `11/22/2026 ${at} CST`);
      }),
    );
    watch('e:700100');
    const { user } = renderPage();
    await loaded();
    const rows = () => within(list()).getAllByRole('listitem');
    expect(list()).toHaveAccessibleName(/newest first: 400 documents$/);
    expect(rows().length).toBeLessThan(40);
    expect(rows()[0]).toHaveAttribute('aria-setsize', String(many));
    expect(rows()[0]).toHaveAttribute('aria-posinset', '1');
    await user.click(articles()[0]!);

    await user.keyboard('{End}');
    const last = document.activeElement as HTMLElement;
    expect(last).toHaveAccessibleName(/^400 of 400: POD of load 700100/);
    expect(last.dataset.url).toBe('https://docs.example.com/700100/pod-0.jpg');
    expect(last.closest('li')).toHaveAttribute('aria-posinset', '400');
    expect(rows().length).toBeLessThan(80);

    await user.keyboard('k');
    expect(document.activeElement).toHaveAccessibleName(/^399 of 400: /);
    await user.keyboard('a');
    // The approved document leaves the queue; focus goes on to the next one, which is the last.
    expect(document.activeElement).toHaveAccessibleName(/^399 of 399: /);
    await waitFor(() =>
      expect(proxy.decisionOf('https://docs.example.com/700100/pod-1.jpg')).toBe('approved'),
    );
    await user.keyboard('{Home}');
    expect(document.activeElement).toHaveAccessibleName(/^1 of 399: /);
    expect((document.activeElement as HTMLElement).dataset.url).toBe(
      `https://docs.example.com/700100/pod-${many - 1}.jpg`,
    );
  });

  it('marks reviewed and back with buttons; reviews are kept on the server, by document URL', async () => {
    standardFleet();
    const { user, unmount } = renderPage();
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Approve PICTURE of load 700200' }));
    expect(names()).not.toContain('PICTURE of load 700200');
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(names()).toContain('PICTURE of load 700200');
    await user.click(screen.getByRole('button', { name: 'Approve PICTURE of load 700200' }));
    // Kept on the server, under the load it was reviewed in: approved, pending (undo), approved.
    await waitFor(() => expect(proxy.decisions).toHaveLength(3));
    expect(proxy.decisions).toEqual(
      ['approved', 'pending', 'approved'].map((decision) => ({
        load: 'e:700200',
        url: URL_SEAL,
        decision,
      })),
    );
    expect(window.localStorage.getItem(REVIEWED_STORAGE_KEY)).toBeNull();
    unmount();

    // A reload: nothing kept in the page; the same picture, now also sent under another load, stays reviewed.
    proxy.set('load-number', 'LN1', [wireDocument(URL_SEAL, 'PICTURE', '11/22/2026 08:00 EST')]);
    const again = renderPage();
    await loaded();
    expect(names()).toEqual(['POD of load 700100', 'BOL of load 700100', 'LUMPER of load 700200']);
    await again.user.click(screen.getByRole('radio', { name: /^Reviewed/ }));
    expect(names()).toEqual(['PICTURE of load 700200']);
    await again.user.click(
      screen.getByRole('button', { name: 'Undo: PICTURE of load 700200 back to review' }),
    );
    await waitFor(() => expect(proxy.decisionOf(URL_SEAL)).toBe('pending'));
    expect(screen.getByRole('heading', { name: 'Nothing reviewed yet' })).toBeInTheDocument();
    // It names the keys that review: a and x (there is no key "r").
    expect(screen.getByText(/you approve \(a\) or reject \(x, then the reason\)/)).toBeInTheDocument();
    await again.user.click(screen.getByRole('button', { name: 'Show documents to review' }));
    expect(names()).toHaveLength(4);
    await again.user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'POD (1)');
    await again.user.type(screen.getByLabelText('To'), '2026-11-01');
    expect(screen.getByRole('heading', { name: 'No documents match these filters' })).toBeInTheDocument();
    const noMatch = screen.getByRole('heading', { name: 'No documents match these filters' }).parentElement!;
    await again.user.click(within(noMatch).getByRole('button', { name: 'Clear filters' }));
    expect(names()).toHaveLength(4);
  });

  it('puts a document that arrives on refresh at the top, once, not reviewed', async () => {
    standardFleet();
    const { user } = renderPage();
    await loaded();
    await user.click(articles()[0]!);
    await user.keyboard('aaaaa');
    expect(await screen.findByRole('heading', { name: 'All caught up' })).toBeInTheDocument();
    // Focus stays on the page, not lost to the body.
    expect(screen.getByRole('heading', { name: 'All caught up' }).parentElement).toHaveFocus();

    const NEW = 'https://docs.example.com/700100/pod-signed.jpg';
    proxy.set('external-id', '700100', [
      wireDocument(URL_BOL, 'BOL', '11/22/2026 04:30 CST'),
      wireDocument(URL_POD, 'POD', '11/22/2026 09:00 CST', { stopOrderNumber: 2, stopExternalId: 'S2' }),
      wireDocument(NEW, 'POD', '11/22/2026 10:05 CST', { stopOrderNumber: 2, stopExternalId: 'S2' }),
    ]);
    // The same document under a second watched load is still one entry in the queue.
    proxy.set('load-number', 'LN1', [wireDocument(NEW, 'POD', '11/22/2026 10:05 CST')]);
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() =>
      expect(screen.queryByRole('heading', { name: 'All caught up' })).not.toBeInTheDocument(),
    );
    expect(names()).toEqual(['POD of load 700100']);
    expect(articles()[0]).toHaveTextContent('Not reviewed');
    expect(articles()[0]).toHaveTextContent('New');
    expect(articles()[0]).toHaveAccessibleName(/, not reviewed, new$/);
    expect(screen.getByText('1 new document since you opened this page')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: /^All/ }));
    expect(names()[0]).toBe('POD of load 700100');
    expect(articles()[0]).toHaveAttribute('data-url', NEW);
    expect(articles().filter((a) => a.getAttribute('data-url') === NEW)).toHaveLength(1);
    expect(articles()).toHaveLength(6);
  });

  it('opens the current document in the viewer, reviews there with a, steps with j, and gives focus back', async () => {
    standardFleet();
    const { user } = renderPage();
    await loaded();
    await user.click(articles()[1]!);
    await user.keyboard('{Enter}');
    const dialog = screen.getByRole('dialog', { name: /PICTURE/ });
    expect(dialog).toHaveTextContent('(2 of 5)');
    expect(dialog).toHaveTextContent('Load 700200 · stop 1 (S1)');
    expect(within(dialog).getByRole('img')).toHaveAttribute('src', URL_SEAL);
    expect(within(dialog).getByRole('button', { name: 'Rotate' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Zoom in' })).toBeInTheDocument();

    // x then Escape cancels the rejection and keeps the viewer open: a number after it rejects nothing.
    await user.keyboard('x{Escape}');
    expect(screen.getByRole('dialog', { name: /PICTURE/ })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Not rejected.');
    await user.keyboard('3');
    expect(proxy.decisionOf(URL_SEAL)).toBeUndefined();
    await user.keyboard('a');
    await waitFor(() => expect(proxy.decisionOf(URL_SEAL)).toBe('approved'));
    // The reviewed picture left the queue: the viewer shows the next document.
    expect(screen.getByRole('dialog', { name: /BOL/ })).toHaveTextContent('(2 of 4)');
    await user.keyboard('j');
    expect(screen.getByRole('dialog')).toHaveTextContent('Load LN1');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(proxy.decisionOf(URL_LN1)).toBe('approved'));
    expect(screen.getByRole('dialog', { name: /LUMPER/ })).toHaveTextContent('This file is not a picture');

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(articles()[2]).toHaveFocus();
    expect(articles()[2]).toHaveAccessibleName(/^3 of 3: LUMPER of load 700200/);
  });

  it('takes a rejection’s note typed in the viewer as the note: its letters and digits decide nothing', async () => {
    standardFleet();
    const { user } = renderPage();
    await loaded();
    await user.click(articles()[1]!);
    await user.keyboard('{Enter}');
    expect(screen.getByRole('dialog', { name: /PICTURE/ })).toHaveTextContent('(2 of 5)');
    await user.keyboard('xn');
    const note = within(screen.getByRole('dialog')).getByLabelText(/^Note/);
    expect(note).toHaveFocus();
    // "a" approves, "u" undoes, "j" steps, "2" picks a reason, ← steps: none of them here.
    await user.keyboard('a ju 2 pages{ArrowLeft}');
    expect(note).toHaveValue('a ju 2 pages');
    expect(proxy.decisions).toEqual([]);
    expect(screen.getByRole('dialog', { name: /PICTURE/ })).toHaveTextContent('(2 of 5)');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: '4Unsigned' }));
    await waitFor(() =>
      expect(proxy.decisions).toEqual([
        expect.objectContaining({
          url: URL_SEAL,
          decision: 'rejected',
          reason: 'unsigned',
          note: 'a ju 2 pages',
        }),
      ]),
    );
  });

  it.each([
    'javascript:alert(1)',
    ' JaVaScRiPt:alert(document.cookie)',
    'data:text/html,<script>alert(1)</script>',
    '//evil.example/bol.jpg',
  ])('renders the hostile address %j inert: no image, no link, in the list or the viewer', async (url) => {
    proxy.set('external-id', '700100', [wireDocument(url, 'PICTURE', '11/22/2026 04:30 CST')]);
    watch('e:700100');
    const { user, container } = renderPage();
    await loaded();
    const item = articles()[0]!;
    expect(item).toHaveTextContent('Address not a web address: not opened');
    expect(item).toHaveAccessibleName(/address not a web address$/);
    expect(within(item).queryByRole('link', { name: /Open original|Download/ })).not.toBeInTheDocument();
    expect(item.querySelector('img')).toBeNull();

    await user.click(screen.getByRole('button', { name: /^View PICTURE of load 700100/ }));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent(/not a web address/);
    expect(within(dialog).queryByRole('img')).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('link')).not.toBeInTheDocument();
    for (const root of [container, document.body]) {
      for (const el of root.querySelectorAll('[href], [src]')) {
        const value = el.getAttribute('href') ?? el.getAttribute('src') ?? '';
        expect(value).toMatch(/^(\/|https?:\/\/docs\.example\.com\/)/);
      }
      expect(root.querySelector('script')).toBeNull();
    }
  });

  it('says when no load is watched', async () => {
    watch('');
    renderPage();
    expect(screen.getByRole('heading', { name: 'No loads watched' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add loads on the map page' })).toHaveAttribute('href', '/');
    // Nothing pulled, no reviews asked for: only who is logged in.
    expect(proxy.fetchMock.mock.calls.filter(([path]) => path !== '/api/session')).toEqual([]);
  });

  it('on a first visit in demo mode watches the demo fleet, so the inbox is not empty', async () => {
    window.localStorage.clear();
    watchList.reset();
    standardFleet();
    const demo = { externalIds: ['700100', '700200'], loadNumbers: ['LN1'], webhookToken: null };
    const client = createQueryClient();
    render(
      <QueryClientProvider client={client}>
        <DocumentsPage config={{ ...CONFIG, demo }} />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(articles()).toHaveLength(5));
    expect(window.localStorage.getItem('haulview.watch')).toBe('e:700100,700200;n:LN1');
  });

  it('keeps an emptied watch list empty in demo mode: only a first visit gets the demo fleet', async () => {
    watch('');
    const demo = { externalIds: ['700100'], loadNumbers: [], webhookToken: null };
    const client = createQueryClient();
    render(
      <QueryClientProvider client={client}>
        <DocumentsPage config={{ ...CONFIG, demo }} />
      </QueryClientProvider>,
    );
    expect(screen.getByRole('heading', { name: 'No loads watched' })).toBeInTheDocument();
    // Nothing pulled, no reviews asked for: only who is logged in.
    expect(proxy.fetchMock.mock.calls.filter(([path]) => path !== '/api/session')).toEqual([]);
  });

  it('says it is loading, then that the watched loads have no documents yet', async () => {
    proxy.set('external-id', '700100', []);
    proxy.set('external-id', '700200', []);
    proxy.set('load-number', 'LN1', []);
    renderPage();
    expect(screen.getByRole('status')).toHaveTextContent('Loading the documents of 3 watched loads…');
    expect(await screen.findByRole('heading', { name: 'No documents yet' })).toBeInTheDocument();
  });

  it('names watched loads the service does not know', async () => {
    standardFleet();
    watch('e:700100,999;n:LN1');
    renderPage();
    await loaded();
    expect(screen.getByText('1 watched load not found')).toBeInTheDocument();
  });

  it('counts watched loads the proxy has not pulled yet as waiting, not as not found', async () => {
    standardFleet();
    proxy.pending.add('700200');
    watch('e:700100,700200;n:LN1');
    renderPage();
    await loaded();
    expect(screen.getByText('1 watched load waiting for the first answer')).toBeInTheDocument();
    expect(screen.queryByText(/not found/)).toBeNull();
  });

  it('says the documents wait for the first answer when no watched load has been pulled yet', async () => {
    standardFleet();
    proxy.pending.add('700100').add('700200').add('LN1');
    watch('e:700100,700200;n:LN1');
    renderPage();
    expect(await screen.findByRole('heading', { name: 'No documents yet' })).toBeInTheDocument();
    expect(screen.getByText(/Waiting for the first answer about 3 watched loads/)).toBeInTheDocument();
    expect(screen.queryByText(/None of the/)).toBeNull();
  });

  it('shows an error in a banner and offers to try again when nothing could be loaded', async () => {
    standardFleet();
    proxy.broken = true;
    const { user } = renderPage();
    expect(await screen.findByRole('heading', { name: 'Documents could not be loaded' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(/not what was expected/);
    proxy.broken = false;
    await user.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }));
    await loaded();
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(names()).toHaveLength(5);
  });

  it('keeps the last documents on screen when a refresh fails', async () => {
    standardFleet();
    const { user } = renderPage();
    await loaded();
    proxy.broken = true;
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/not what was expected/);
    expect(names()).toHaveLength(5);
  });

  it('has markup axe finds nothing wrong with, in the list, grouped, and with the viewer open', async () => {
    standardFleet();
    const { user } = renderPage();
    await loaded();
    // jsdom lays nothing out: contrast cannot be measured here (the e2e suite does it in Chromium).
    const check = async () => {
      const result = await axe.run(document.body, { rules: { 'color-contrast': { enabled: false } } });
      expect(
        result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
    };
    await check();
    await user.click(screen.getByRole('checkbox', { name: 'Group by load' }));
    await check();
    await user.click(screen.getByRole('button', { name: 'View' }));
    await check();
    // Three full axe runs in jsdom: a budget for a busy machine, not a timing check.
  }, 30_000);
});

describe('DocumentsPage, reviews kept on the server', () => {
  it('offers this browser’s old marks once for import, as approvals noted "imported"', async () => {
    standardFleet();
    window.localStorage.setItem(
      REVIEWED_STORAGE_KEY,
      JSON.stringify([
        [URL_POD, 1],
        [URL_BOL, 2],
        // Decided by a colleague meanwhile: that decision stays.
        [URL_SEAL, 3],
        // Of a load not watched now: a review names its load, so it cannot be imported.
        ['https://docs.example.com/700999/pod.pdf', 4],
      ]),
    );
    proxy.decide(URL_SEAL, 'rejected', 'Bo', 'e:700200');
    const { user, unmount } = renderPage();
    await loaded();
    const offer = screen.getByRole('region', { name: 'Reviews made in this browser' });
    expect(offer).toHaveTextContent(
      '2 other marks are of documents already decided or of loads not watched now',
    );
    await user.click(within(offer).getByRole('button', { name: 'Import 2 reviews made in this browser' }));
    expect(await screen.findByText(/Imported 2 reviews made in this browser/)).toBeInTheDocument();
    expect(proxy.decisions).toEqual([
      { load: 'e:700100', url: URL_POD, decision: 'approved', note: 'imported' },
      { load: 'e:700100', url: URL_BOL, decision: 'approved', note: 'imported' },
    ]);
    expect(proxy.decisionOf(URL_SEAL)).toBe('rejected');
    expect(window.localStorage.getItem(REVIEWED_STORAGE_KEY)).toBeNull();
    expect(names()).toEqual(['BOL of load LN1', 'LUMPER of load 700200']);
    unmount();
    // Offered once: the next visit has nothing to import.
    renderPage();
    await loaded();
    expect(screen.queryByRole('region', { name: 'Reviews made in this browser' })).not.toBeInTheDocument();
  });

  it('discards the old marks when asked, importing nothing', async () => {
    standardFleet();
    window.localStorage.setItem(REVIEWED_STORAGE_KEY, JSON.stringify([[URL_POD, 1]]));
    const { user } = renderPage();
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Discard them' }));
    expect(screen.queryByRole('region', { name: 'Reviews made in this browser' })).not.toBeInTheDocument();
    expect(window.localStorage.getItem(REVIEWED_STORAGE_KEY)).toBeNull();
    expect(proxy.decisions).toEqual([]);
  });

  it('approves with one key and rejects with two (x, then the reason by number), shows the keys, and preloads the next picture', async () => {
    standardFleet();
    const { user } = renderPage();
    await loaded();
    const legend = screen.getByText('Keys in the list:').parentElement!;
    expect(legend).toHaveTextContent('a approve');
    expect(legend).toHaveTextContent('x reject, then 1–7 the reason');
    await user.click(articles()[0]!);
    // The picture after the current document is fetched before it is needed.
    expect(document.head.querySelector(`link[rel="preload"][as="image"][href="${URL_SEAL}"]`)).not.toBeNull();

    await user.keyboard('a');
    expect(screen.getByRole('status')).toHaveTextContent(
      'Approved: POD of load 700100. 4 not reviewed left.',
    );
    expect(articles()[0]).toHaveAccessibleName(/^1 of 4: PICTURE of load 700200/);
    expect(articles()[0]).toHaveFocus();

    // x offers the reasons in words; 3 is "Missing pages".
    await user.keyboard('x');
    const reasons = screen.getByRole('group', { name: 'Reject PICTURE of load 700200: why?' });
    expect(
      within(reasons)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual([
      '1Blurry',
      '2Cropped or incomplete',
      '3Missing pages',
      '4Unsigned',
      '5Wrong load',
      '6Damage or shortage noted',
      '7Other',
      'Cancel',
    ]);
    await user.keyboard('3');
    expect(screen.queryByRole('group', { name: /why\?$/ })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      'Rejected (missing pages): PICTURE of load 700200. 3 not reviewed left.',
    );
    await waitFor(() =>
      expect(proxy.reviews.get(URL_SEAL)).toMatchObject({ decision: 'rejected', reason: 'missing_pages' }),
    );
    expect(articles()[0]).toHaveFocus();
    expect(articles()[0]).toHaveAccessibleName(/^1 of 3: BOL of load 700100/);

    // A number without x first does nothing; x then Escape rejects nothing.
    await user.keyboard('5x{Escape}');
    expect(screen.getByRole('status')).toHaveTextContent('Not rejected.');
    expect(articles()).toHaveLength(3);

    // x, n writes a note; a reason's button sends it with the rejection.
    await user.keyboard('xn');
    expect(screen.getByLabelText(/^Note/)).toHaveFocus();
    await user.keyboard('no signature on page 2');
    await user.click(screen.getByRole('button', { name: '4Unsigned' }));
    await waitFor(() =>
      expect(proxy.decisions.at(-1)).toEqual({
        load: 'e:700100',
        url: URL_BOL,
        decision: 'rejected',
        reason: 'unsigned',
        note: 'no signature on page 2',
      }),
    );
    expect(articles()[0]).toHaveFocus();

    // The decided documents say what, who and when; u puts the last one back to review.
    await user.click(screen.getByRole('radio', { name: /^Reviewed/ }));
    const seal = articles().find((a) => a.getAttribute('data-url') === URL_SEAL)!;
    expect(seal).toHaveTextContent('✗ Rejected: missing pages');
    expect(seal).toHaveTextContent(/by Ana, \w{3} \d+, \d\d:\d\d/);
    expect(proxy.decisions.map((d) => d.decision)).toEqual(['approved', 'rejected', 'rejected']);
  });

  it('tells the earlier decider when a teammate’s later decision replaced theirs, at the next refresh, fetching only what changed', async () => {
    standardFleet();
    proxy.decide(URL_POD, 'approved', 'Ana');
    const { user } = renderPage();
    await loaded();
    await user.click(screen.getByRole('radio', { name: /^All/ }));
    const pod = () => articles().find((a) => a.getAttribute('data-url') === URL_POD)!;
    expect(pod()).toHaveTextContent('✓ Approved');
    expect(pod()).not.toHaveTextContent('replacing');
    await waitFor(() => expect(proxy.sinces).toEqual([null]));

    // Bo, in another browser, rejects it; then Ana's page refreshes.
    proxy.decide(URL_POD, 'rejected', 'Bo', 'e:700100', 'blurry');
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() =>
      expect(pod()).toHaveTextContent(/Bo rejected this \(blurry\) at .+, replacing your approval\./),
    );
    expect(pod()).toHaveTextContent('✗ Rejected: blurry');
    expect(pod()).toHaveAccessibleName(/, Bo rejected this \(blurry\) at .+, replacing your approval$/);
    // The refresh asked only for what changed after the first answer's cursor.
    expect(proxy.sinces).toEqual([null, '1']);
    // Once Ana decides again, the word goes: the latest decision is hers.
    await user.click(screen.getByRole('button', { name: 'Undo: POD of load 700100 back to review' }));
    await waitFor(() => expect(proxy.decisionOf(URL_POD)).toBe('pending'));
    expect(pod()).not.toHaveTextContent('replacing your');
  });

  it('says whose decision a review replaced', async () => {
    standardFleet();
    proxy.decide(URL_POD, 'rejected', 'Bo');
    const { user } = renderPage();
    await loaded();
    expect(names()).not.toContain('POD of load 700100');
    await user.click(screen.getByRole('radio', { name: /^Reviewed/ }));
    await user.click(screen.getByRole('button', { name: 'Undo: POD of load 700100 back to review' }));
    expect(
      await screen.findByText('POD of load 700100: you replaced Bo’s rejection (blurry).'),
    ).toBeInTheDocument();
    expect(proxy.decisionOf(URL_POD)).toBe('pending');
  });

  it('with the store unavailable, says so, still lists the documents, and undoes a mark it could not save', async () => {
    standardFleet();
    proxy.storeDown = true;
    const { user } = renderPage();
    await loaded();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Reviews cannot be read or saved now: Haulview’s store does not answer. The documents are still listed',
    );
    expect(names()).toHaveLength(5);
    await user.click(screen.getByRole('button', { name: 'Approve POD of load 700100' }));
    expect(
      await screen.findByText(/The review of POD of load 700100 was not saved: the store does not answer/),
    ).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Not saved: POD of load 700100 is as it was.');
    await waitFor(() => expect(names()).toHaveLength(5));
    expect(articles()[0]).toHaveTextContent('Not reviewed');

    proxy.storeDown = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByText(/Reviews cannot be read/)).not.toBeInTheDocument());
  });
});

describe('a decision the server refuses for the role', () => {
  it('says to reload, not to try again: a role taken away does not come back by itself', async () => {
    standardFleet();
    proxy.demoted = true;
    const { user } = renderPage();
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Approve POD of load 700100' }));
    const said = await screen.findByText(/The review of POD of load 700100 was not saved/);
    expect(said).toHaveTextContent('Reload the page to see what your role may do.');
    expect(said).not.toHaveTextContent('Try again');
  });
});

describe('useDocumentsInbox and the nav badge', () => {
  it('give the nav the number of documents not reviewed, sharing the page’s queries', async () => {
    standardFleet();
    proxy.decide(URL_POD);
    function Count() {
      const { unreviewed } = useDocumentsInbox(CONFIG);
      return <output aria-label="Count">{unreviewed}</output>;
    }
    const client = createQueryClient();
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={client}>
        <nav aria-label="Main">
          <a href="/documents">
            Documents
            <DocumentsNavBadge config={CONFIG} />
          </a>
        </nav>
        <Count />
        <DocumentsPage config={CONFIG} />
      </QueryClientProvider>,
    );
    await loaded();
    const link = screen.getByRole('link', { name: 'Documents, 4 not reviewed' });
    expect(link).toHaveTextContent('Documents4');
    expect(screen.getByRole('status', { name: 'Count' })).toHaveTextContent('4');
    // One pull per kind of id, though three components ask.
    expect(proxy.calls).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Approve PICTURE of load 700200' }));
    expect(screen.getByRole('status', { name: 'Count' })).toHaveTextContent('3');
    expect(screen.getByRole('link', { name: 'Documents, 3 not reviewed' })).toBeInTheDocument();
    // Colleagues' reviews count at the next refresh.
    for (const url of [URL_BOL, URL_LN1, URL_LUMPER]) proxy.decide(url);
    await client.refetchQueries({ queryKey: ['document-reviews'] });
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Documents' })).toHaveTextContent(/^Documents$/),
    );
  });

  it('counts on every other page from the documents’ URLs, without holding the documents', async () => {
    window.history.replaceState(null, '', '/');
    standardFleet();
    proxy.decide(URL_POD);
    const client = createQueryClient();
    render(
      <QueryClientProvider client={client}>
        <a href="/documents">
          Documents
          <DocumentsNavBadge config={CONFIG} />
        </a>
      </QueryClientProvider>,
    );
    expect(await screen.findByRole('link', { name: 'Documents, 4 not reviewed' })).toBeInTheDocument();
    // Documents were pulled, by each kind of id; the page holds their URLs, and no load, no document.
    expect(proxy.calls.map((c) => [c.by, c.include])).toEqual([
      ['external-id', expect.objectContaining({ documents: true })],
      ['load-number', expect.objectContaining({ documents: true })],
    ]);
    const held = client
      .getQueryCache()
      .getAll()
      .filter((q) => q.queryKey[0] !== 'document-reviews');
    expect(held.map((q) => q.queryKey[1])).toEqual(['document-urls', 'document-urls']);
    expect(held.flatMap((q) => (q.state.data as { urls: string[] }).urls).sort()).toEqual(
      [URL_BOL, URL_POD, URL_SEAL, URL_LUMPER, URL_LN1].sort(),
    );
    // A colleague's review, and a document that arrives, count at the next poll.
    proxy.decide(URL_SEAL);
    await client.refetchQueries({ queryKey: ['document-reviews'] });
    expect(await screen.findByRole('link', { name: 'Documents, 3 not reviewed' })).toBeInTheDocument();
    proxy.set('load-number', 'LN1', [
      wireDocument(URL_LN1, 'BOL', '11/22/2026 06:15 CST'),
      wireDocument('https://docs.example.com/ln1/pod.pdf', 'POD', '11/22/2026 11:15 CST'),
    ]);
    await client.refetchQueries();
    expect(await screen.findByRole('link', { name: 'Documents, 4 not reviewed' })).toBeInTheDocument();
  });

  describe('stop-check flags', () => {
    const check = (url: string, kind: 'POD' | 'BOL', flags: { kind: string; text: string }[]) => ({
      url,
      kind,
      instant: Date.UTC(2026, 10, 22, 15),
      stopOrder: 2,
      flags,
    });
    const paperwork = (loads: { ref: string; checks: ReturnType<typeof check>[] }[]) => ({
      held: 3,
      counts: { 'on-the-road': 0, missing: 0, 'to-review': loads.length, rejected: 0, complete: 0 },
      loads: loads.map((l) => ({
        ...l,
        by: 'external-id',
        id: l.ref.slice(2),
        externalId: l.ref.slice(2),
        state: 'to-review',
      })),
    });

    it('flags a POD taken far from its stop on its row and in the preview, and sorts flagged first', async () => {
      standardFleet();
      proxy.paperwork = paperwork([
        {
          ref: 'e:700100',
          checks: [
            check(URL_BOL, 'BOL', [
              { kind: 'far-from-stop', text: 'taken 38 km from the pickup stop' },
              { kind: 'before-arrival', text: 'uploaded before arrival (2 h before)' },
            ]),
            check(URL_POD, 'POD', []),
          ],
        },
      ]) as typeof proxy.paperwork;
      const { user } = renderPage();
      await loaded();
      const bol = await within(list()).findByRole('article', { name: /BOL of load 700100/ });
      expect(bol).toHaveAccessibleName(
        /flagged: taken 38 km from the pickup stop; uploaded before arrival \(2 h before\)/,
      );
      expect(
        within(bol)
          .getAllByRole('listitem')
          .map((f) => f.textContent),
      ).toEqual(['⚑ taken 38 km from the pickup stop', '⚑ uploaded before arrival (2 h before)']);
      // The POD checked without a flag, and the picture (no POD or BOL), carry no flag on their rows.
      const [pod, seal] = articles();
      expect(within(pod!).queryByRole('list')).toBeNull();
      expect(within(seal!).queryByRole('list')).toBeNull();
      // The current document (the POD) says in the preview that it was checked and nothing is wrong.
      const preview = screen.getByRole('complementary', { name: /^Preview: POD of load 700100/ });
      expect(preview).toHaveTextContent('POD checked against its stop: nothing flagged');

      await user.click(screen.getByRole('checkbox', { name: 'Flagged first' }));
      expect(window.location.search).toContain('sort=flagged');
      // The flagged BOL first; the rest newest first as before.
      expect(names()).toEqual([
        'BOL of load 700100',
        'POD of load 700100',
        'PICTURE of load 700200',
        'BOL of load LN1',
        'LUMPER of load 700200',
      ]);
      await user.click(articles()[0]!);
      const flaggedPreview = screen.getByRole('complementary', { name: /^Preview: BOL of load 700100/ });
      expect(within(flaggedPreview).getByRole('list', { name: 'BOL check flags' })).toHaveTextContent(
        'taken 38 km from the pickup stop',
      );
    });

    it('still lists and reviews the documents when the checks cannot be read, without flags', async () => {
      standardFleet();
      proxy.paperwork = null;
      const { user } = renderPage();
      await loaded();
      await waitFor(() => expect(proxy.paperworkAsks).toBeGreaterThan(0));
      // Only the papers still to work on: a decided clean paper shows no flag in the inbox.
      expect(proxy.paperworkQuery).toBe('?flagged=1');
      expect(names()).toHaveLength(5);
      expect(screen.queryByRole('list', { name: /check flags/ })).toBeNull();
      await user.click(screen.getByRole('checkbox', { name: 'Flagged first' }));
      // Nothing flagged: the order stays newest first.
      expect(names()[0]).toBe('POD of load 700100');
    });

    it('does not ask for the checks, nor offer the sort, for a role that may not bill', async () => {
      standardFleet();
      proxy.user = { name: 'Dee', role: 'dispatcher' };
      const { client } = renderPage();
      await loaded();
      await waitFor(() => expect(client.isFetching()).toBe(0));
      expect(screen.queryByRole('checkbox', { name: 'Flagged first' })).toBeNull();
      expect(proxy.paperworkAsks).toBe(0);
    });
  });
});
