import { describe, expect, it } from 'vitest';
import { appointmentOf, offsetHours } from './appointment';
import { readStops } from './stops';

describe('readStops', () => {
  it('reads the stop fields the service sends, appointment in the stop local time', () => {
    const [stop] = readStops([
      {
        orderNumber: 1,
        stopType: 'PICKUP',
        locationName: 'Acme Foods DC',
        city: 'Dallas',
        state: 'TX',
        zipcode: '75201',
        lat: 32.777,
        lon: -96.797,
        datetime: '11/24/2026 13:00',
        stopGMTDiff: '-6',
      },
    ]);
    expect(stop).toEqual({
      order: 1,
      externalId: undefined,
      type: 'pickup',
      name: 'Acme Foods DC',
      place: { city: 'Dallas', state: 'TX' },
      zipcode: '75201',
      lat: 32.777,
      lon: -96.797,
      // 13:00 at GMT-6 is 19:00 UTC.
      appointment: {
        local: '11/24/2026 13:00',
        offsetHours: -6,
        instant: Date.parse('2026-11-24T19:00:00Z'),
      },
    });
  });

  it('reads numbers sent as text and text sent as numbers; a null field is absent', () => {
    const [stop] = readStops([
      {
        orderNumber: '2',
        stopType: 'delivery',
        locationName: null,
        city: 'Boise',
        state: null,
        zipcode: 83702,
        lat: '43.615',
        lon: '-116.202',
        datetime: '3/8/2026 1:30',
        stopGMTDiff: -7,
      },
    ]);
    expect(stop).toMatchObject({
      order: 2,
      type: 'delivery',
      name: undefined,
      place: { city: 'Boise' },
      zipcode: '83702',
      lat: 43.615,
      lon: -116.202,
      appointment: {
        local: '03/08/2026 01:30',
        offsetHours: -7,
        instant: Date.parse('2026-03-08T08:30:00Z'),
      },
    });
  });

  it('says "no appointment" when the time is missing or not a time, and never guesses one', () => {
    const stops = readStops([
      { orderNumber: 1, datetime: null },
      { orderNumber: 2 },
      { orderNumber: 3, datetime: '02/30/2026 10:00', stopGMTDiff: '-5' },
      { orderNumber: 4, datetime: 'tomorrow morning', stopGMTDiff: '-5' },
      { orderNumber: 5, datetime: 1764000000000, stopGMTDiff: '-5' },
    ]);
    expect(stops.map((s) => s.appointment)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it('keeps an appointment whose offset is missing as written, with no instant', () => {
    const [stop] = readStops([{ orderNumber: 1, datetime: '11/24/2026 13:00', stopGMTDiff: 'CST' }]);
    expect(stop?.appointment).toEqual({ local: '11/24/2026 13:00' });
    expect(readStops([{ datetime: '11/24/2026 13:00' }])[0]?.appointment).toEqual({
      local: '11/24/2026 13:00',
    });
  });

  it('orders stops by order number; a stop without one takes its place in the list', () => {
    const stops = readStops([
      { orderNumber: 3, city: 'C' },
      { city: 'A' },
      'not a stop',
      null,
      { orderNumber: '2', city: 'B' },
    ]);
    expect(stops.map((s) => [s.order, s.place.city])).toEqual([
      [2, 'A'],
      [2, 'B'],
      [3, 'C'],
    ]);
  });

  it('drops a point with a coordinate out of range or missing, and reads anything not a list as no stops', () => {
    const stops = readStops([
      { lat: '91', lon: '10' },
      { lat: '40', lon: null },
      { lat: 0, lon: 0 },
      { lat: 'x', lon: '1' },
    ]);
    expect(stops.map((s) => [s.lat, s.lon])).toEqual(Array(4).fill([undefined, undefined]));
    expect(readStops({ stops: [] })).toEqual([]);
    expect(readStops(undefined)).toEqual([]);
  });
});

describe('stopGMTDiff and datetime', () => {
  it('reads hours from GMT as text in the usual forms, and refuses what no zone is', () => {
    expect(['-6', '-6.0', '+5:30', '5.5', 'GMT-3:30', ' -10 '].map(offsetHours)).toEqual([
      -6, -6, 5.5, 5.5, -3.5, -10,
    ]);
    expect(['', 'CST', '-15', '5:75', undefined].map(offsetHours)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("takes the offset as the one in force at the appointment (daylight saving is the sender's to say)", () => {
    // 8 March 2026, US daylight saving starts: 03:30 CDT is GMT-5.
    expect(appointmentOf('03/08/2026 03:30', '-5')?.instant).toBe(Date.parse('2026-03-08T08:30:00Z'));
    expect(appointmentOf('11/01/2026 01:30', '-6')?.instant).toBe(Date.parse('2026-11-01T07:30:00Z'));
    expect(appointmentOf('11/01/2026 24:00', '-6')).toBeUndefined();
  });
});
