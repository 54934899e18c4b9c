import { describe, expect, it } from 'vitest';
import type { Document, LoadBy } from '@/domain/model';
import { emptyLoad, testDocument, testEvent } from '@/testing/loads';
import {
  DEFAULT_FILTERS,
  collectDocuments,
  filterDocuments,
  filterOptions,
  groupByLoad,
  inboxLoad,
  type InboxDocument,
} from './inbox-model';

const doc = testDocument;

const load = (id: string, documents: Document[], by: LoadBy = 'external-id') =>
  emptyLoad(id, by, { documents });

const day = (iso: string) => new Date(`${iso}T12:00:00`).getTime();

describe('collectDocuments', () => {
  it('puts the newest first across loads and documents without a time last, each URL once', () => {
    const docs = collectDocuments([
      load('1', [doc('a', 10), doc('b', null), doc('c', 30)]),
      load('2', [doc('d', 20), doc('a', 40)]),
      load('LN9', [doc('e', 25), doc('c', 30)], 'load-number'),
    ]);
    expect(docs.map((d) => [d.url, d.load.label])).toEqual([
      ['c', '1'],
      ['e', 'LN9'],
      ['d', '2'],
      ['a', '1'],
      ['b', '1'],
    ]);
  });

  it('orders ties by load, then address, so the queue does not jump', () => {
    const docs = collectDocuments([load('10', [doc('z', 5), doc('y', 5)]), load('9', [doc('x', 5)])]);
    expect(docs.map((d) => d.url)).toEqual(['x', 'y', 'z']);
  });
});

describe('inboxLoad', () => {
  it('labels a load by the id it is watched by and links to it on the map', () => {
    expect(inboxLoad(emptyLoad('700100'))).toMatchObject({
      key: 'external-id:700100',
      label: '700100',
      mapHref: '/?load=e:700100',
    });
    expect(inboxLoad(emptyLoad('LN 1/2&x', 'load-number'))).toMatchObject({
      label: 'LN 1/2&x',
      mapHref: '/?load=n:LN%201%2F2%26x',
    });
  });
});

describe('filterDocuments', () => {
  const items: InboxDocument[] = collectDocuments([
    load('1', [
      doc('bol', day('2026-11-18'), { stopOrderNumber: 1, stopExternalId: 'S1' }),
      doc('pod', day('2026-11-22'), { type: 'POD', stopOrderNumber: 2 }),
    ]),
    load('2', [doc('pic', day('2026-11-26'), { type: undefined }), doc('late', null)]),
  ]).map((d) => ({ ...d, review: undefined, reviewed: d.url === 'pod' }));
  const urls = (f: Partial<typeof DEFAULT_FILTERS>) =>
    filterDocuments(items, { ...DEFAULT_FILTERS, ...f }).map((d) => d.url);

  it('shows what is not reviewed by default, and reviewed or all on request', () => {
    expect(urls({})).toEqual(['pic', 'bol', 'late']);
    expect(urls({ review: 'reviewed' })).toEqual(['pod']);
    expect(urls({ review: 'all' })).toEqual(['pic', 'pod', 'bol', 'late']);
  });

  it('filters by type (no type too), load and stop', () => {
    expect(urls({ review: 'all', type: 'POD' })).toEqual(['pod']);
    expect(urls({ review: 'all', type: '' })).toEqual(['pic']);
    expect(urls({ review: 'all', load: 'external-id:2' })).toEqual(['pic', 'late']);
    expect(urls({ review: 'all', stop: 'stop 1 (S1)' })).toEqual(['bol']);
    expect(urls({ review: 'all', stop: 'stop 2' })).toEqual(['pod']);
    expect(urls({ review: 'all', stop: '' })).toEqual(['pic', 'late']);
  });

  it('filters by a date range in the viewer’s days, both ends included, leaving out documents without a time', () => {
    expect(urls({ review: 'all', from: '2026-11-22', to: '2026-11-22' })).toEqual(['pod']);
    expect(urls({ review: 'all', from: '2026-11-20' })).toEqual(['pic', 'pod']);
    expect(urls({ review: 'all', to: '2026-11-21' })).toEqual(['bol']);
    expect(urls({ review: 'all', from: 'garbage' })).toEqual(['pic', 'pod', 'bol', 'late']);
  });

  it('offers the types, loads and stops there are, stops of the chosen load only', () => {
    const o = filterOptions(items, undefined);
    expect(o.types).toEqual([
      { value: '', label: '(no type)', count: 1 },
      { value: 'BOL', label: 'BOL', count: 2 },
      { value: 'POD', label: 'POD', count: 1 },
    ]);
    expect(o.loads.map((l) => [l.label, l.count])).toEqual([
      ['Load 1', 2],
      ['Load 2', 2],
    ]);
    expect(filterOptions(items, 'external-id:1').stops.map((s) => s.label)).toEqual([
      'Stop 1 (S1)',
      'Stop 2',
    ]);
  });
});

describe('the stop a document names', () => {
  // As the service sends a trip's stops (extras), a careless sender's order number as text included.
  const stops = [
    { stopExternalId: 'S9', orderNumber: '2', stopType: 'DELIVERY', city: 'Denver', state: 'CO' },
    { stopExternalId: 'S8', orderNumber: 1, stopType: 'PICKUP', city: 'Omaha', state: 'NE', country: 'US' },
  ];
  const items = (loadStops: unknown) =>
    collectDocuments([
      emptyLoad('1', 'external-id', {
        extras: { stops: loadStops },
        documents: [
          doc('bol', 30, { stopOrderNumber: 1, stopExternalId: 'S8' }),
          doc('pod', 20, { type: 'POD', stopOrderNumber: 2 }),
          doc('seal', 15, { type: 'PICTURE', stopExternalId: 'S9' }),
          doc('odd', 10, { type: 'LUMPER', stopOrderNumber: 7 }),
          doc('none', 5),
        ],
      }),
      load('2', [doc('other', 1, { stopOrderNumber: 1 })]),
    ]).map((d) => ({ ...d, review: undefined, reviewed: false }));

  it('is Pickup or Delivery with its place where the load’s stops say so, else as the document gives it', () => {
    expect(items(stops).map((d) => [d.url, d.stop.label, d.stop.place])).toEqual([
      ['bol', 'Pickup', 'Omaha, NE'],
      ['pod', 'Delivery', 'Denver, CO'],
      // Named by the stop's id only: found by it.
      ['seal', 'Delivery', 'Denver, CO'],
      ['odd', 'Stop 7', undefined],
      ['none', undefined, undefined],
      ['other', 'Stop 1', undefined],
    ]);
    const pickupOnly = filterDocuments(items(stops), { ...DEFAULT_FILTERS, stop: 'pickup' });
    expect(pickupOnly.map((d) => d.url)).toEqual(['bol']);
  });

  it('offers Pickup and Delivery first, with the place once a load is chosen', () => {
    const all = filterOptions(items(stops), undefined).stops;
    expect(all.map((o) => [o.value, o.label, o.count])).toEqual([
      ['pickup', 'Pickup', 1],
      ['delivery', 'Delivery', 2],
      ['', '(no stop)', 1],
      ['stop 1', 'Stop 1', 1],
      ['stop 7', 'Stop 7', 1],
    ]);
    expect(filterOptions(items(stops), 'external-id:1').stops.map((o) => o.label)).toEqual([
      'Pickup · Omaha, NE',
      'Delivery · Denver, CO',
      '(no stop)',
      'Stop 7',
    ]);
  });

  it('names an earlier trip’s documents by what they give, not by the current trip’s stops', () => {
    // The load's ids were reused: dispatched again at 25, after its delivery at 22.
    const events = [
      testEvent(0, 'Dispatched', 'DSP'),
      testEvent(22, 'Delivered', 'DLV'),
      testEvent(25, 'Dispatched', 'DSP'),
    ];
    const reused = collectDocuments([
      emptyLoad('1', 'external-id', {
        extras: { stops },
        events,
        documents: [
          doc('next-bol', 30, { stopOrderNumber: 1 }),
          doc('pod', 20, { type: 'POD', stopOrderNumber: 2 }),
        ],
      }),
    ]);
    expect(reused.map((d) => [d.url, d.stop.label, d.stop.place])).toEqual([
      ['next-bol', 'Pickup', 'Omaha, NE'],
      ['pod', 'Stop 2', undefined],
    ]);
  });

  it('falls back to the stop as the document gives it when the load’s stops are not a list', () => {
    for (const junk of ['S1,S2', { 0: stops[0] }, null, [null, 'x', 42]])
      expect(items(junk).map((d) => d.stop.label)).toEqual([
        'Stop 1 (S8)',
        'Stop 2',
        'Stop S9',
        'Stop 7',
        undefined,
        'Stop 1',
      ]);
  });
});

describe('groupByLoad', () => {
  it('puts the load with the newest document first, keeping each load’s order', () => {
    const items = collectDocuments([
      load('1', [doc('a', 10), doc('b', 30)]),
      load('2', [doc('c', 20), doc('d', 40)]),
    ]).map((d) => ({ ...d, review: undefined, reviewed: false }));
    expect(groupByLoad(items).map((g) => [g.load.label, g.documents.map((d) => d.url)])).toEqual([
      ['2', ['d', 'c']],
      ['1', ['b', 'a']],
    ]);
  });
});
