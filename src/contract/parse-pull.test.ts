import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import quirks from '@/testing/fixtures/by-external-id-quirks.json';
import { detailId, parsePullAnswer } from './parse-pull';

function parsed(value: unknown) {
  const result = parsePullAnswer(value);
  if ('error' in result) throw new Error(result.error);
  return result;
}

describe('parsePullAnswer', () => {
  it('keeps every valid load and item of an answer with quirks, and says what it skipped', () => {
    const { data, issues } = parsed(quirks);
    // One good load, one with a bad list; the non-object and the id-less detail are skipped.
    expect(data.details.map((d) => detailId(d, 'external-id'))).toEqual(['700100', '700101']);
    const [load] = data.details;
    expect(load?.loadTrackExternalId).toBe('700100');
    expect(load?.latestLocation?.city).toBeUndefined();
    expect(load?.latestLocation?.state).toBe('NE');
    expect(load?.latestStatus?.code).toBeUndefined();
    // The contract keeps "abc" (the domain range-checks it); a null lat costs that ping only.
    expect(load?.locations).toHaveLength(3);
    expect(load?.events?.map((e) => e.id)).toEqual(['1', '2', '3']);
    expect(load?.events?.[0]?.timestampUTC).toBe('11/22/2026 10:00:00 UTC');
    expect(load?.comments?.[1]?.commentBy).toBeUndefined();
    expect(load?.documents).toHaveLength(1);
    expect(load?.documents?.[0]?.stopExternalId).toBe('991');
    expect(load?.temperatures?.map((t) => t.location?.longitude)).toEqual(['-95.9', '-95.8']);
    expect((load as Record<string, unknown>).stops).toEqual([
      { stopExternalId: 'S1', stopOrderNumber: 1, address: { city: 'Omaha' } },
    ]);
    // Undocumented fields inside an item are kept too.
    expect((load?.locations?.[2] as Record<string, unknown>).speedKph).toBe(88);

    const kinds = issues.map((i) => `${i.path} ${i.kind}`);
    expect(kinds).toContain('details[0].locations[2].lat null_where_required');
    expect(kinds).toContain('details[0].documents[1].url null_where_required');
    expect(kinds).toContain('details[0].stops unknown_field');
    expect(kinds).toContain('details[1] wrong_type');
    expect(kinds).toContain('details[2] missing_id');
    expect(kinds).toContain('details[3].locations wrong_type');
    expect(kinds).toContain('details[3].latestLocation.lon missing');
    expect(data.detailIssues[1]?.map((i) => i.path)).toEqual([
      'details[3].locations',
      'details[3].latestLocation.lon',
    ]);
  });

  describe('items wrapped one level deeper than documented', () => {
    const event = { id: 5, name: 'Arrived', code: 'AR', timestampUTC: '11/22/2026 10:00:00 UTC' };
    const ping = {
      lat: '41.2',
      lon: '-95.9',
      deviceTimeGmt: '2026-11-22 10:00:00',
      accuracy: 12,
      timestamp: '',
    };
    const comment = { comment: 'At the dock', commentBy: 'D', timestampUTC: '11/22/2026 10:05:00 UTC' };
    const document = { type: 'POD', timestamp: '11/22/2026 10:10 CST', url: 'https://docs.example.com/1' };
    const reading = {
      deviceId: 'R1',
      timestamp: '11/22/2026 10:00 CST',
      temperature: { zone1: { supply: 3 } },
    };
    const status = { name: 'Arrived', code: 'AR', timestampUTC: '11/22/2026 10:00:00 UTC' };
    const place = { lat: '41.2', lon: '-95.9', accuracy: 12, city: 'Omaha', state: 'NE', country: 'US' };
    /** A load of these fields, parsed: the load, and its notes as `path kind [skipped]`. */
    const parsedLoad = (fields: Record<string, unknown>) => {
      const { data, issues } = parsed({ status: true, details: [{ loadTrackExternalId: 7, ...fields }] });
      const notes = issues.map((i) => `${i.path} ${i.kind}${i.skipped ? ' skipped' : ''}`);
      return { load: data.details[0], issues, notes };
    };

    it('reads each list’s wrapped item from inside, beside a plain one, with a note each', () => {
      const { load, issues, notes } = parsedLoad({
        locations: [ping, { location: ping }],
        events: [{ event: event }, { ...event, id: 6 }],
        comments: [{ data: comment }],
        documents: [{ document }],
        temperatures: [{ reading }],
      });
      expect(load?.locations).toEqual([ping, ping].map((p) => expect.objectContaining(p)));
      expect(load?.events?.map((e) => [e.id, e.code, e.timestampUTC])).toEqual([
        ['5', 'AR', '11/22/2026 10:00:00 UTC'],
        ['6', 'AR', '11/22/2026 10:00:00 UTC'],
      ]);
      expect(load?.comments?.[0]).toMatchObject({ comment: 'At the dock', commentBy: 'D' });
      expect(load?.documents?.[0]).toMatchObject({ type: 'POD', url: 'https://docs.example.com/1' });
      expect(load?.temperatures?.[0]).toMatchObject({
        deviceId: 'R1',
        temperature: { zone1: { supply: 3 } },
      });
      expect(notes).toEqual([
        'details[0].locations[1] wrapped_item',
        'details[0].events[0] wrapped_item',
        'details[0].comments[0] wrapped_item',
        'details[0].documents[0] wrapped_item',
        'details[0].temperatures[0] wrapped_item',
      ]);
      expect(issues[1]?.message).toBe(
        'item wrapped in "event", one level deeper than documented: read from inside',
      );
    });

    it('reads latestLocation, latestStatus and latestTemperature from inside too', () => {
      const { load, notes } = parsedLoad({
        latestLocation: { location: place },
        latestStatus: { status },
        latestTemperature: { data: reading },
      });
      expect(load).toMatchObject({
        latestLocation: { lat: '41.2', city: 'Omaha' },
        latestStatus: { code: 'AR' },
        latestTemperature: { deviceId: 'R1' },
      });
      expect(notes).toEqual([
        'details[0].latestLocation wrapped_item',
        'details[0].latestStatus wrapped_item',
        'details[0].latestTemperature wrapped_item',
      ]);
    });

    it('reads the inside as leniently as a plain item: odd and undocumented fields, a scalar beside it', () => {
      const { load, notes } = parsedLoad({
        events: [{ kind: 'status', event: { ...event, id: '5', driver: 'not an object', geofence: 'G1' } }],
        comments: [{ data: { ...comment, commentBy: 'X', location: null } }],
        locations: [{ ping: { ...ping, lat: 41.2, accuracy: 'n/a' } }],
      });
      expect(load?.events?.[0]).toMatchObject({ id: '5', code: 'AR', geofence: 'G1' });
      expect(load?.events?.[0]?.driver).toBeUndefined();
      expect(load?.events?.[0]).not.toHaveProperty('kind');
      expect(load?.comments?.[0]).toMatchObject({ comment: 'At the dock' });
      expect(load?.comments?.[0]?.commentBy).toBeUndefined();
      expect(load?.locations?.[0]).toMatchObject({ lat: '41.2' });
      expect(load?.locations?.[0]?.accuracy).toBeUndefined();
      // Each odd field inside is dropped with a note of its own, as in a plain item.
      expect(notes).toEqual([
        'details[0].events[0] wrapped_item',
        'details[0].events[0].event.driver wrong_type skipped',
        'details[0].comments[0] wrapped_item',
        'details[0].comments[0].data.commentBy invalid_value skipped',
        'details[0].locations[0] wrapped_item',
        'details[0].locations[0].ping.accuracy invalid_value skipped',
      ]);
    });

    it('does not guess: two objects, a documented field at the top, or two levels deep stay as today', () => {
      const { load, notes } = parsedLoad({
        events: [{ a: event, b: event }, { id: 9, event }, { outer: { event } }],
        locations: [
          { a: ping, b: ping },
          { lat: '41.2', ping },
        ],
      });
      // Events have no required field: each is kept as it came, undated (the domain skips it, as before).
      expect(load?.events?.map((e) => [e.id, e.code])).toEqual([
        [undefined, undefined],
        ['9', undefined],
        [undefined, undefined],
      ]);
      expect(load?.locations).toEqual([]);
      expect(notes).toEqual([
        'details[0].locations[0].lat missing skipped',
        'details[0].locations[0].lon missing skipped',
        'details[0].locations[1].lon missing skipped',
      ]);
    });

    it('skips a wrapped item that is garbage inside too, and counts it as before', () => {
      const { load, notes } = parsedLoad({
        locations: [{ ping: { lon: '-95.9', accuracy: 3 } }],
        documents: [{ document: { type: 'POD', url: null } }],
      });
      expect(load).toMatchObject({ locations: [], documents: [] });
      expect(notes).toEqual([
        'details[0].locations[0].lat missing skipped',
        'details[0].locations[0].lon missing skipped',
        'details[0].documents[0].url missing skipped',
      ]);
    });
  });

  describe('one odd field costs that field, not its item', () => {
    it('keeps a location, a status, pings, an event and a document without the fields it cannot read', () => {
      const { data, issues } = parsed({
        status: true,
        timeStamp: null,
        details: [
          {
            loadTrackExternalId: 1007,
            latestLocation: {
              lat: '41.26',
              lon: '-95.86',
              city: { name: 'Council Bluffs', fips: 19155 },
              state: 'IA',
            },
            latestStatus: { name: 'In transit', code: 3 },
            locations: [
              {
                lat: '41.2',
                lon: '-95.9',
                accuracy: { value: 12, unit: 'm' },
                timestamp: '11/28/2026 10:00:00',
              },
              { lat: '41.3', lon: '-95.8', timestamp: 1764300000 },
              { lat: { deg: 41 }, lon: '-95.7', timestamp: '11/28/2026 10:10:00' },
            ],
            events: [{ id: 1, name: { en: 'Loaded' }, code: 214, timestamp: '11/28/2026 10:05:00' }],
            documents: [
              { type: 7, url: 'https://docs.example/1.jpg' },
              { type: 'POD', url: { href: 'https://docs.example/2.jpg' } },
            ],
          },
        ],
      });
      const [load] = data.details;
      expect(load?.latestLocation).toMatchObject({ lat: '41.26', lon: '-95.86', state: 'IA' });
      expect(load?.latestLocation?.city).toBeUndefined();
      expect(load?.latestStatus?.name).toBe('In transit');
      // A code or a type sent as a number names the same thing: read as its text.
      expect(load?.latestStatus?.code).toBe('3');
      // A ping whose lat cannot be read places nothing: that one is skipped.
      expect(load?.locations?.map((p) => p.lat)).toEqual(['41.2', '41.3']);
      expect(load?.locations?.[0]?.accuracy).toBeUndefined();
      expect(load?.events?.map((e) => [e.id, e.code, e.timestamp])).toEqual([
        ['1', '214', '11/28/2026 10:05:00'],
      ]);
      expect(load?.documents?.map((d) => [d.type, d.url])).toEqual([['7', 'https://docs.example/1.jpg']]);
      expect(issues.filter((i) => i.keptItem).map((i) => i.path)).toEqual([
        'details[0].latestLocation.city',
        'details[0].locations[0].accuracy',
        'details[0].locations[1].timestamp',
        'details[0].events[0].name',
      ]);
      for (const note of issues.filter((i) => i.keptItem)) {
        expect(note.skipped).toBe(true);
        expect(note.message).toMatch(/the field was dropped, its item kept$/);
      }
      expect(issues.filter((i) => i.skipped && !i.keptItem).map((i) => i.path)).toEqual([
        'details[0].locations[2].lat',
        'details[0].documents[1].url',
      ]);
    });

    it('drops an odd field at its own depth: a reading keeps the rest of its temperature', () => {
      const zone = (supply: unknown) => ({
        zone1: { supply, return: -17.5, set: -18 },
        UnitOfMeasurement: 'F',
      });
      const { data, issues } = parsed({
        status: true,
        details: [
          {
            loadTrackExternalId: '3003',
            latestTemperature: {
              deviceId: 'R1',
              timestamp: '11/28/2026 10:00 UTC',
              temperature: zone({ value: -40 }),
            },
            temperatures: [
              {
                deviceId: 'R1',
                timestamp: '11/28/2026 09:00 UTC',
                temperature: { ...zone(-18.1), UnitOfMeasurement: { name: 'F' } },
              },
            ],
          },
        ],
      });
      const [load] = data.details;
      expect(load?.latestTemperature?.temperature).toEqual({
        zone1: { supply: undefined, return: -17.5, set: -18 },
        UnitOfMeasurement: 'F',
      });
      expect(load?.temperatures?.[0]?.temperature).toEqual({
        zone1: { supply: -18.1, return: -17.5, set: -18 },
        UnitOfMeasurement: undefined,
      });
      expect(issues.filter((i) => i.keptItem).map((i) => i.path)).toEqual([
        'details[0].latestTemperature.temperature.zone1.supply',
        'details[0].temperatures[0].temperature.UnitOfMeasurement',
      ]);
    });

    it('says what it drops from a place, a driver, a sender and a number, never dropping them silently', () => {
      const { data, issues } = parsed({
        status: true,
        details: [
          {
            loadTrackExternalId: '3004',
            comments: [
              {
                comment: 'At the gate',
                commentBy: 'Broker',
                location: { lat: '41.25', lon: '-95.93', city: { name: 'Omaha' } },
                driver: 'Ann',
              },
            ],
            documents: [{ url: 'https://docs.example/1.jpg', stopOrderNumber: 'second' }],
          },
        ],
      });
      const [load] = data.details;
      expect(load?.comments?.[0]).toMatchObject({
        comment: 'At the gate',
        location: { lat: '41.25', lon: '-95.93' },
      });
      expect(load?.documents?.[0]?.url).toBe('https://docs.example/1.jpg');
      expect(issues.filter((i) => i.keptItem).map((i) => i.path)).toEqual([
        'details[0].comments[0].commentBy',
        'details[0].comments[0].location.city',
        'details[0].comments[0].driver',
        'details[0].documents[0].stopOrderNumber',
      ]);
    });

    it('reads an item wrapped under its own field name, and a load wrapped one level deeper', () => {
      const { data, issues } = parsed({
        status: true,
        details: [
          {
            loadDetail: {
              loadTrackExternalId: '1008',
              latestLocation: { lat: '41', lon: '-95' },
              comments: [{ comment: { comment: 'At the gate', commentBy: 'D' } }],
            },
          },
        ],
      });
      expect(data.details.map((d) => detailId(d, 'external-id'))).toEqual(['1008']);
      expect(data.details[0]?.latestLocation?.lat).toBe('41');
      expect(data.details[0]?.comments).toEqual([
        expect.objectContaining({ comment: 'At the gate', commentBy: 'D' }),
      ]);
      expect(issues.filter((i) => i.kind === 'wrapped_item').map((i) => [i.path, i.skipped])).toEqual([
        ['details[0]', false],
        ['details[0].loadDetail.comments[0]', false],
      ]);
      // A driver is an object of its own, never a wrapper: its name is not the status's.
      const status = parsed({
        status: true,
        details: [{ loadNumber: 'L1', latestStatus: { driver: { name: 'Ana' } } }],
      });
      expect(status.data.details[0]?.latestStatus).toEqual(
        expect.objectContaining({ driver: { name: 'Ana' } }),
      );
      expect(status.data.details[0]?.latestStatus?.name).toBeUndefined();
    });
  });

  it('reads the loads of an envelope with odd fields, and notes each', () => {
    const load = { loadTrackExternalId: '1011' };
    const answers: [unknown, string][] = [
      [{ status: true, timeStamp: 1764300000, details: [load] }, 'timeStamp'],
      [{ status: 'true', timeStamp: '11/28/2026 10:00:00 UTC', details: [load] }, 'status'],
      [{ status: true, details: { items: [load] } }, 'details'],
      [{ data: { status: true, timeStamp: '11/28/2026 10:00:00 UTC', details: [load] } }, ''],
      [{ details: [load] }, 'status'],
    ];
    for (const [answer, noted] of answers) {
      const { data, issues } = parsed(answer);
      expect(
        data.details.map((d) => d.loadTrackExternalId),
        JSON.stringify(answer),
      ).toEqual(['1011']);
      expect(data.status).toBe(true);
      expect(issues.map((i) => i.path)).toContain(noted);
    }
    expect(parsed({ status: 'FALSE', details: [] }).data.status).toBe(false);
  });

  it('reports an answer that is not a pull envelope, without throwing', () => {
    const bad = [
      null,
      42,
      'x',
      [],
      { status: 'yes' },
      { status: true, details: 'x' },
      { status: true, details: { a: [], b: [] } },
    ];
    for (const answer of bad) {
      const result = parsePullAnswer(answer);
      expect('error' in result, JSON.stringify(answer)).toBe(true);
    }
  });

  it('never throws, whatever JSON it is given', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        parsePullAnswer(value);
        parsePullAnswer({ status: true, details: [value] });
        parsePullAnswer({
          status: true,
          details: [{ loadTrackExternalId: 1, locations: [value], latestLocation: value }],
        });
      }),
      { numRuns: 500 },
    );
  });

  it('never drops a load with an id because of what its other fields hold', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.integer({ min: 0 }), (fields, id) => {
        const { data } = parsed({ status: true, details: [{ ...fields, loadTrackExternalId: id }] });
        expect(data.details.map((d) => d.loadTrackExternalId)).toEqual([String(id)]);
      }),
      { numRuns: 300 },
    );
  });
});
