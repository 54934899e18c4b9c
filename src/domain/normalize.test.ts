import { LoadView } from '@/contract/load-view';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePullAnswer } from '@/contract/parse-pull';
import type { ParseIssue } from '@/contract/parse-issue';
import quirks from '@/testing/fixtures/by-external-id-quirks.json';
import { applyDelta } from './merge';
import { COMMENT_MAX_CHARACTERS, keys, normalizeLoad, toAccuracy, toCoordinate } from './normalize';
import { readStops } from './stops';

function firstLoad() {
  const result = parsePullAnswer(quirks);
  if ('error' in result) throw new Error(result.error);
  const issues: ParseIssue[] = [...(result.data.detailIssues[0] ?? [])];
  const load = normalizeLoad(result.data.details[0]!, 'external-id', 'details[0]', issues);
  if (!load) throw new Error('no load');
  return load;
}

describe('toCoordinate', () => {
  it('accepts decimal degrees within range and refuses everything else', () => {
    expect(toCoordinate('41.2565', 90)).toBe(41.2565);
    expect(toCoordinate(' -95.9 ', 180)).toBe(-95.9);
    expect(toCoordinate('-180', 180)).toBe(-180);
    for (const bad of ['NaN', '1e309', '91', '', '12,5', 'abc', 'Infinity', '0x10', undefined]) {
      expect(toCoordinate(bad, 90), String(bad)).toBeUndefined();
    }
    expect(toCoordinate('181', 180)).toBeUndefined();
  });

  it('reads a negative zero as the one zero', () => {
    expect(Object.is(toCoordinate('-0.0000', 180), 0)).toBe(true);
    expect(Object.is(toCoordinate('-0', 90), 0)).toBe(true);
  });
});

describe('toAccuracy', () => {
  it('is meters when it is a finite non-negative number, else unknown (no circle)', () => {
    expect(toAccuracy(12.5)).toBe(12.5);
    expect(toAccuracy(0)).toBe(0);
    expect(toAccuracy(-1)).toBeNull();
    expect(toAccuracy(Number.NaN)).toBeNull();
    expect(toAccuracy(undefined)).toBeNull();
  });
});

describe('normalizeLoad', () => {
  it('makes loads of exactly the shape the proxy serves: the strict LoadView schema reads them back', () => {
    const result = parsePullAnswer(quirks);
    if ('error' in result) throw new Error(result.error);
    const loads = result.data.details.map((d, i) => normalizeLoad(d, 'external-id', `details[${i}]`)!);
    const items = loads.flatMap((l) => [
      l.latestLocation,
      l.latestStatus,
      ...l.pings,
      ...l.events,
      ...l.documents,
    ]);
    expect(items.length).toBeGreaterThan(3);
    for (const load of loads) {
      const sent = JSON.parse(JSON.stringify(load)) as unknown;
      // Strict: a field the schema does not name (a wire item kept by mistake, say) fails here.
      expect(LoadView.parse(sent)).toEqual(sent);
    }
  });

  it('turns the latest location into numbers with accuracy and an instant', () => {
    const load = firstLoad();
    expect(load).toMatchObject({ by: 'external-id', id: '700100', externalId: '700100' });
    expect(load.latestLocation).toMatchObject({
      lat: 41.2565,
      lon: -95.9345,
      accuracy: 12.5,
      instant: Date.parse('2026-11-22T13:26:01Z'),
      place: { city: undefined, state: 'NE', country: 'US' },
      driver: { name: 'Elena Smith', phone: undefined },
    });
    expect(load.latestLocation?.time.local).toBe('11/22/2026 07:26:01 CST');
  });

  it('drops only the ping with a bad coordinate, and keeps one with unknown accuracy without a circle', () => {
    const load = firstLoad();
    expect(load.pings.map((p) => p.lat)).toEqual([41.2, 41.2565]);
    expect(load.pings[1]?.accuracy).toBeNull();
    expect(load.issues.map((i) => `${i.path} ${i.kind}`)).toContain(
      'details[0].locations[1].lat bad_coordinate',
    );
  });

  it('reads stops wrapped in an object or one level deeper, and says what it dropped from them', () => {
    const pickup = {
      orderNumber: 1,
      stopType: 'PICKUP',
      city: { name: 'Omaha' },
      state: 'NE',
      lat: '41.25',
      lon: '-95.93',
    };
    const delivery = {
      orderNumber: '2',
      stopType: 'DELIVERY',
      city: 'Des Moines',
      state: 'IA',
      datetime: '11/29/2026 13:00',
      stopGMTDiff: '-6',
    };
    const issues: ParseIssue[] = [];
    const load = normalizeLoad(
      { loadTrackExternalId: '3002', stops: { items: [pickup, { stop: delivery }, 'no stop'] } } as never,
      'external-id',
      'details[0]',
      issues,
    );
    const stops = readStops(load?.extras.stops);
    expect(stops.map((s) => [s.order, s.type, s.place.city, s.place.state])).toEqual([
      [1, 'pickup', undefined, 'NE'],
      [2, 'delivery', 'Des Moines', 'IA'],
    ]);
    expect(stops[1]?.appointment).toBeDefined();
    expect(
      issues.map((i) => `${i.path} ${i.kind}${i.keptItem ? ' kept' : i.skipped ? ' skipped' : ''}`),
    ).toEqual([
      'details[0].stops wrapped_item',
      'details[0].stops[0].city wrong_type kept',
      'details[0].stops[1] wrapped_item',
      'details[0].stops[2] wrong_type skipped',
    ]);
    // Stops that need nothing are kept as sent, the very list.
    const plain = [pickup];
    expect(
      normalizeLoad({ loadTrackExternalId: '3', stops: plain } as never, 'external-id', 'd')?.extras.stops,
    ).toBe(plain);
  });

  it('skips an event without a time, keeps its siblings in time order, and shows no code for null', () => {
    const load = firstLoad();
    expect(load.events.map((e) => e.name)).toEqual(['Dispatched', 'In transit']);
    expect(load.events[1]?.code).toBeUndefined();
    expect(load.issues.map((i) => `${i.path} ${i.kind}`)).toContain('details[0].events[2] bad_time');
  });

  it('reads comments, documents and readings with their places', () => {
    const load = firstLoad();
    expect(load.comments.map((c) => [c.by, c.text])).toEqual([
      ['driver', '<b>Running late</b>'],
      [undefined, 'Send POD'],
    ]);
    expect(load.comments[0]?.position).toEqual({ lat: 41.1, lon: -96, accuracy: 15 });
    expect(load.documents).toHaveLength(1);
    expect(load.documents[0]).toMatchObject({
      url: 'https://docs.example.com/bol.jpg',
      type: 'BOL',
      stopOrderNumber: 1,
    });
    expect(load.readings.map((r) => [r.supply, r.return, r.set, r.unit])).toEqual([
      [33.1, 36.4, 34, 'Fahrenheit'],
      [33, 36, 34, 'Fahrenheit'],
    ]);
    expect(load.readings[0]?.position).toEqual({ lat: 41.2, lon: -95.9, accuracy: null });
  });

  it('keeps undocumented fields such as stops as extras', () => {
    expect(firstLoad().extras.stops).toEqual([
      { stopExternalId: 'S1', stopOrderNumber: 1, address: { city: 'Omaha' } },
    ]);
  });
});

describe('toCoordinate, against the regular expression it replaces', () => {
  const reference = (raw: string, limit: number) => {
    const text = raw.trim();
    if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(text)) return undefined;
    const n = Number(text);
    // A negative zero is read as the one zero (see "reads a negative zero as the one zero").
    if (n === 0) return 0;
    return Number.isFinite(n) && Math.abs(n) <= limit ? n : undefined;
  };
  const digits = fc.string({ unit: fc.constantFrom('0', '1', '5', '9'), maxLength: 18 });
  const coordinateText = fc.oneof(
    fc
      .tuple(fc.constantFrom('', '-', '+', ' ', '-0'), digits, fc.constantFrom('', '.', '.', ','), digits)
      .map(([sign, int, dot, frac]) => `${sign}${int}${dot}${frac}`),
    fc.double().map(String),
    fc.double({ min: -200, max: 200 }).map((n) => n.toFixed(6)),
    fc.string({ maxLength: 8 }),
  );

  it('gives the same number, to the last bit, for any text', () => {
    fc.assert(
      fc.property(coordinateText, fc.constantFrom(90 as const, 180 as const), (text, limit) => {
        expect(toCoordinate(text, limit)).toBe(reference(text, limit));
      }),
      { numRuns: 5000 },
    );
  });

  it('makes ping keys with the text String() writes for each coordinate and instant', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -90, max: 90 }).map((n) => n.toFixed(6)),
        fc.oneof(coordinateText, fc.double({ min: -180, max: 180 }).map(String)),
        fc.oneof(fc.integer({ min: 1.7e12, max: 1.9e12 }), fc.integer({ min: -1e13, max: 1e13 })),
        (lat, lon, instant) => {
          const gmt = new Date(instant);
          if (Number.isNaN(gmt.getTime()) || gmt.getUTCFullYear() < 1000 || gmt.getUTCFullYear() > 9999)
            return;
          const deviceTimeGmt = gmt.toISOString().slice(0, 19).replace('T', ' ');
          const result = parsePullAnswer({
            status: true,
            details: [{ loadTrackExternalId: 1, locations: [{ lat, lon, deviceTimeGmt, timestamp: null }] }],
          });
          if ('error' in result) throw new Error(result.error);
          const load = normalizeLoad(result.data.details[0]!, 'external-id', 'details[0]');
          const [p] = load?.pings ?? [];
          if (!p) return;
          const second = Math.floor(instant / 1000) * 1000;
          expect(p.key).toBe(`${second}|${Number(lat.trim())}|${Number(lon.trim())}`);
          expect(p.key).toBe(keys.ping(p.instant, p));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('writes every key as the templates `${instant}|…` would', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer(),
          fc.double(),
          fc.integer({ min: 1.7e12, max: 1.9e12 }),
          fc.constantFrom(2 ** 53, 1e21),
        ),
        fc.string({ maxLength: 4 }),
        (instant, text) => {
          expect(keys.ping(instant, { lat: 1.5, lon: -2, accuracy: null })).toBe(`${instant}|1.5|-2`);
          expect(keys.reading(text, instant, 33.5, undefined, 34)).toBe(`${text}|${instant}|33.5||34`);
          expect(keys.comment(instant, undefined, text)).toBe(`${instant}||${text}`);
          expect(keys.event(undefined, instant, text, undefined)).toBe(`${instant}|${text}|`);
        },
      ),
    );
  });
});

describe('reading the same answer twice', () => {
  const text = fc.oneof(fc.string({ maxLength: 4 }), fc.constant(null));
  const local = fc
    .tuple(
      fc.integer({ min: 0, max: 23 }),
      fc.integer({ min: 0, max: 59 }),
      fc.constantFrom('CST', 'EDT', 'XYZ'),
    )
    .map(([h, m, z]) => `11/22/2026 ${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')} ${z}`);
  const coordinate = fc.oneof(
    fc.double({ min: -90, max: 90 }).map((n) => n.toFixed(4)),
    fc.constant('abc'),
  );
  const driver = fc.record({ name: text, phoneNumber: text }, { requiredKeys: [] });
  const detail = fc.record(
    {
      loadTrackExternalId: fc.integer({ min: 1, max: 3 }),
      latestLocation: fc.record({ lat: coordinate, lon: coordinate, timestampSec: local, city: text }),
      latestStatus: fc.record({ name: text, timestamp: local }),
      locations: fc.array(fc.record({ lat: coordinate, lon: coordinate, timestamp: local, driver }), {
        maxLength: 6,
      }),
      events: fc.array(fc.record({ id: fc.integer({ min: 1, max: 4 }), timestampSec: local, name: text }), {
        maxLength: 4,
      }),
      comments: fc.array(
        fc.record({ comment: text, commentBy: fc.constantFrom('D', 'B'), timestamp: local }),
        {
          maxLength: 3,
        },
      ),
      documents: fc.array(fc.record({ url: fc.constantFrom('u1', 'u2'), type: text, timestamp: local }), {
        maxLength: 3,
      }),
      temperatures: fc.array(
        fc.record({
          deviceId: fc.constantFrom('d1', 'd2'),
          timestamp: local,
          temperature: fc.record({ zone1: fc.record({ supply: fc.integer({ min: -20, max: 5 }) }) }),
        }),
        { maxLength: 6 },
      ),
      stops: fc.jsonValue({ maxDepth: 2 }),
    },
    { requiredKeys: ['loadTrackExternalId'] },
  );

  function loadsOf(json: string) {
    const result = parsePullAnswer(JSON.parse(json));
    if ('error' in result) throw new Error(result.error);
    return result.data.details.map((d, i) =>
      normalizeLoad(d, 'external-id', `details[${i}]`, [...(result.data.detailIssues[i] ?? [])]),
    );
  }

  it('parse, normalize, merge: the second reading changes nothing, and each load keeps its identity', () => {
    fc.assert(
      fc.property(fc.array(detail, { minLength: 1, maxLength: 3 }), (details) => {
        const json = JSON.stringify({ status: true, details });
        const first = loadsOf(json);
        const second = loadsOf(json);
        first.forEach((a, i) => {
          const b = second[i];
          if (!a || !b) return;
          expect(applyDelta(a, b)).toBe(a);
          expect(applyDelta(b, a)).toBe(b);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('two versions of a ping that differ only by a field sent as null: the same one is kept in either order', () => {
    // Found by the property below (seed -2088813472): both read to the same JSON text.
    const ping = { lat: '-0.0000', lon: '-0.0000', timestamp: '11/22/2026 21:24 XYZ' };
    const [a] = loadsOf(
      JSON.stringify({
        status: true,
        details: [{ loadTrackExternalId: 1, locations: [{ ...ping, driver: { name: null } }] }],
      }),
    );
    const [b] = loadsOf(
      JSON.stringify({
        status: true,
        details: [{ loadTrackExternalId: 1, locations: [{ ...ping, driver: {} }] }],
      }),
    );
    if (!a || !b) throw new Error('both loads should read');
    expect(applyDelta(a, b).pings).toStrictEqual(applyDelta(b, a).pings);
  });

  it('a position at "0.0000" and at "-0.0000" is one position, whichever answer comes first', () => {
    const at = (lon: string) =>
      loadsOf(
        JSON.stringify({
          status: true,
          details: [
            {
              loadTrackExternalId: 1,
              latestLocation: { lat: '0.0000', lon, timestampSec: '11/22/2026 22:00 XYZ', city: null },
            },
          ],
        }),
      )[0]!;
    const [a, b] = [at('0.0000'), at('-0.0000')];
    expect(applyDelta(a, b).latestLocation).toStrictEqual(applyDelta(b, a).latestLocation);
  });

  it('two answers that disagree about a load: the merge keeps the same versions, in either order', () => {
    fc.assert(
      fc.property(detail, detail, (one, two) => {
        // The same load told twice, with different content (the upstream changed its mind).
        const [a] = loadsOf(JSON.stringify({ status: true, details: [one] }));
        const [b] = loadsOf(
          JSON.stringify({
            status: true,
            details: [{ ...two, loadTrackExternalId: one.loadTrackExternalId }],
          }),
        );
        if (!a || !b) return;
        const ab = applyDelta(a, b);
        const ba = applyDelta(b, a);
        expect(ab.latestStatus).toStrictEqual(ba.latestStatus);
        expect(ab.latestLocation).toStrictEqual(ba.latestLocation);
        for (const list of ['pings', 'events', 'comments', 'documents', 'readings'] as const) {
          expect(ab[list]).toStrictEqual(ba[list]);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('normalizeLoad on anything the parser lets through', () => {
  const field = fc.constantFrom(
    'timestampSec',
    'timestamp',
    'timestampUTC',
    'timstampUTC',
    'deviceTimeGmt',
    'lat',
    'lon',
    'latitude',
    'longitutde',
    'accuracy',
    'driver',
    'driverPhoneNumber',
    'location',
    'temperature',
    'url',
    'id',
    'comment',
    'commentBy',
    'deviceId',
  );
  const time = fc.constantFrom('11/22/2026 07:26 CST', '11/22/2026 07:26:01 XYZ', '2026-11-22 13:26:01');
  const item = fc.dictionary(field, fc.oneof(time, fc.jsonValue({ maxDepth: 2 })));
  const items = fc.array(item, { maxLength: 4 });

  it('never throws, whatever the items hold (a reading with `timestampSec: false`, say)', () => {
    fc.assert(
      fc.property(
        fc.record({
          locations: items,
          events: items,
          comments: items,
          documents: items,
          temperatures: items,
          latestLocation: item,
          latestStatus: item,
          latestTemperature: item,
        }),
        (lists) => {
          const result = parsePullAnswer({ status: true, details: [{ ...lists, loadTrackExternalId: 1 }] });
          if ('error' in result) throw new Error(result.error);
          const load = normalizeLoad(result.data.details[0]!, 'external-id', 'details[0]');
          expect(load?.id).toBe('1');
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('reading identity', () => {
  it('keeps readings of one device in the same minute that differ in value (the time is written to the minute)', () => {
    const at = '11/22/2026 07:15 CST';
    const item = (supply: number) => ({
      deviceId: 'RF-1',
      timestamp: at,
      temperature: { zone1: { supply, return: 36, set: 34 }, UnitOfMeasurement: 'F' },
    });
    const parsed = parsePullAnswer({
      status: true,
      details: [{ loadTrackExternalId: 1, temperatures: [item(33), item(33.4), item(33)] }],
    });
    if ('error' in parsed) throw new Error(parsed.error);
    const load = normalizeLoad(parsed.data.details[0]!, 'external-id', 'details[0]');
    // Both values kept, the repeated one once; equal instants are ordered by key.
    expect(load?.readings.map((r) => r.supply).sort()).toEqual([33, 33.4]);
  });
});

describe('a load’s latest location', () => {
  const fix = (time: string, lat: string) => ({ lat, lon: '-95.9', accuracy: 10, timestampUTC: time });
  const normalized = (detail: Record<string, unknown>) => {
    const result = parsePullAnswer({ status: true, details: [{ loadTrackExternalId: 1, ...detail }] });
    if ('error' in result) throw new Error(result.error);
    const issues: ParseIssue[] = [...(result.data.detailIssues[0] ?? [])];
    return { load: normalizeLoad(result.data.details[0]!, 'external-id', 'details[0]', issues)!, issues };
  };
  const pings = [fix('11/22/2026 13:00:00 UTC', '41.1'), fix('11/22/2026 13:20:00 UTC', '41.3')];

  it('is the newest ping when its own is unreadable, the skipped one still noted', () => {
    const { load, issues } = normalized({ latestLocation: 'Joliet, IL', locations: pings });
    expect(load.latestLocation).toMatchObject({
      lat: 41.3,
      lon: -95.9,
      accuracy: 10,
      instant: Date.UTC(2026, 10, 22, 13, 20),
      place: {},
    });
    expect(load.latestLocation?.key).toBe(load.pings[1]?.key);
    expect(LoadView.safeParse(load).success).toBe(true);
    expect(issues.map((i) => i.path)).toContain('details[0].latestLocation');
  });

  it('is the newest ping when the service sends none, and none when there is no ping either', () => {
    expect(normalized({ locations: [...pings].reverse() }).load.latestLocation?.lat).toBe(41.3);
    expect(normalized({ latestLocation: null }).load.latestLocation).toBeUndefined();
  });

  it('is the service’s own when it is readable, even older than the pings', () => {
    const { load } = normalized({
      latestLocation: { ...fix('11/22/2026 12:00:00 UTC', '40.0'), city: 'Omaha' },
      locations: pings,
    });
    expect(load.latestLocation).toMatchObject({ lat: 40, place: { city: 'Omaha' } });
  });
});

describe('a comment’s text', () => {
  it('is shortened past its bound, with a note, and the comment kept', () => {
    const at = '11/22/2026 13:00:00 UTC';
    const result = parsePullAnswer({
      status: true,
      details: [
        {
          loadTrackExternalId: 1,
          comments: [
            { comment: 'A'.repeat(2_000_000), commentBy: 'D', timestampUTC: at },
            { comment: 'on time', commentBy: 'B', timestampUTC: at },
          ],
        },
      ],
    });
    if ('error' in result) throw new Error(result.error);
    const issues: ParseIssue[] = [];
    const load = normalizeLoad(result.data.details[0]!, 'external-id', 'details[0]', issues)!;
    const long = load.comments.find((c) => c.by === 'driver');
    expect(long?.text).toBe(`${'A'.repeat(COMMENT_MAX_CHARACTERS)}…`);
    expect(long?.key.length).toBeLessThan(COMMENT_MAX_CHARACTERS + 100);
    expect(load.comments.find((c) => c.by === 'broker')?.text).toBe('on time');
    expect(issues).toEqual([
      {
        path: 'details[0].comments[0].comment',
        kind: 'invalid_value',
        message: `a comment of 2000000 characters is shortened to its first ${COMMENT_MAX_CHARACTERS}`,
        skipped: false,
      },
    ]);
  });
});

describe('a list wrapped one level deeper', () => {
  it('is read from inside with a note, its items kept', () => {
    const event = (minute: number) => ({
      statusCode: '100',
      statusName: 'In transit',
      timestampUTC: `11/22/2026 13:${minute}:00 UTC`,
    });
    const result = parsePullAnswer({
      status: true,
      details: [{ loadTrackExternalId: 1, events: { items: [event(10), event(20), event(30)] } }],
    });
    if ('error' in result) throw new Error(result.error);
    const issues: ParseIssue[] = [...(result.data.detailIssues[0] ?? [])];
    const load = normalizeLoad(result.data.details[0]!, 'external-id', 'details[0]', issues)!;
    expect(load.events).toHaveLength(3);
    expect(issues).toEqual([
      expect.objectContaining({ path: 'details[0].events', kind: 'wrapped_item', skipped: false }),
    ]);
  });
});

describe('a stop’s appointment and point', () => {
  it('sent in a form that is no appointment time or coordinate are noted, the stop kept', () => {
    const stops = [
      { stopType: 'PICKUP', datetime: '11/29/2026 08:00', stopGMTDiff: '-6' },
      { stopType: 'DELIVERY', datetime: '2026-11-29T08:00:00Z' },
      { stopType: 'DELIVERY', datetime: 1796000000000 },
      { stopType: 'DELIVERY', datetime: '13/45/2026 99:99' },
      { stopType: 'DELIVERY', datetime: '' },
      { stopType: 'DELIVERY', datetime: ' 11/29/2026 09:00 ', lat: '38,627', lon: -90.19 },
    ];
    const result = parsePullAnswer({ status: true, details: [{ loadTrackExternalId: 1, stops }] });
    if ('error' in result) throw new Error(result.error);
    const issues: ParseIssue[] = [];
    const load = normalizeLoad(result.data.details[0]!, 'external-id', 'details[0]', issues)!;
    expect((load.extras.stops as unknown[]).length).toBe(6);
    expect(issues.map((i) => [i.path, i.kind, i.keptItem])).toEqual([
      ['details[0].stops[1].datetime', 'invalid_value', true],
      ['details[0].stops[2].datetime', 'invalid_value', true],
      ['details[0].stops[3].datetime', 'invalid_value', true],
      // A coordinate with a decimal comma is no point; the appointment's spaces are no fault.
      ['details[0].stops[5].lat', 'bad_coordinate', true],
    ]);
    expect(issues[0]?.message).toBe(
      '"2026-11-29T08:00:00Z" is not an appointment time (MM/DD/YYYY HH:mm): the stop has no appointment',
    );
  });
});

describe('an item’s UTC time in a form not read', () => {
  it('is noted at its field, the item kept with the time its other fields give', () => {
    const result = parsePullAnswer({
      status: true,
      details: [
        {
          loadTrackExternalId: 1,
          events: [
            {
              code: '1',
              timestampUTC: '29.11.2026 02:00:00 UTC',
              timestampSec: '11/28/2026 20:00 CST',
            },
            { code: '2', timestampUTC: '11/28/2026 20:30:00 UTC' },
            { code: '3', deviceTimeGmt: '29/11/2026', timestamp: '11/28/2026 20:45 CST' },
          ],
        },
      ],
    });
    if ('error' in result) throw new Error(result.error);
    const issues: ParseIssue[] = [];
    const load = normalizeLoad(result.data.details[0]!, 'external-id', 'details[0]', issues)!;
    // In time order: the second first.
    expect(load.events.map((e) => [e.code, e.instant])).toEqual([
      ['2', Date.UTC(2026, 10, 28, 20, 30)],
      ['1', Date.UTC(2026, 10, 29, 2, 0)],
      ['3', Date.UTC(2026, 10, 29, 2, 45)],
    ]);
    expect(issues.map((i) => [i.path, i.kind, i.keptItem])).toEqual([
      ['details[0].events[0].timestampUTC', 'bad_time', true],
      ['details[0].events[2].deviceTimeGmt', 'bad_time', true],
    ]);
  });
});
