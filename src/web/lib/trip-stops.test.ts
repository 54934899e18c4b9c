import { describe, expect, it } from 'vitest';
import { fieldLabel, stopKindText, tripStops } from './trip-stops';

const stopsOf = (stops: unknown) => tripStops({ extras: { stops } });

describe('tripStops', () => {
  it('reads the service’s and the simulator’s names alike, in trip order', () => {
    const stops = stopsOf([
      { orderNumber: 2, stopType: 'DELIVERY', locationName: 'Fresh Foods DC', city: 'Denver', state: 'CO' },
      { stopOrderNumber: 1, stopType: 'Pickup', city: 'Omaha', state: 'NE', country: 'US' },
    ])!;
    expect(stops.map((s) => [s.order, s.kind, s.name, s.place])).toEqual([
      [1, 'pickup', undefined, { city: 'Omaha', state: 'NE', country: 'US' }],
      [2, 'delivery', 'Fresh Foods DC', { city: 'Denver', state: 'CO' }],
    ]);
    expect(stops.map(stopKindText)).toEqual(['Pickup', 'Delivery']);
  });

  it('reads an appointment as a time only from a wall time and the stop’s offset from GMT', () => {
    const [due, unzoned, rolled, far, words] = stopsOf([
      { datetime: '11/23/2026 08:00', stopGMTDiff: '-7' },
      { datetime: '11/23/2026 08:00' },
      { datetime: '02/30/2026 08:00', stopGMTDiff: -6 },
      { datetime: '11/23/2026 08:00', stopGMTDiff: '99' },
      { appointment: 'before noon', stopGMTDiff: '-6' },
    ])!;
    expect(due!.appointment).toMatchObject({
      instant: Date.parse('2026-11-23T15:00:00Z'),
      time: { zone: 'GMT-7', offset: -420, zoneKnown: true },
    });
    // What cannot be read is shown as sent; the offset that was not used stays among the details.
    // A wall time without its zone is told apart from a text that is no time at all.
    expect(unzoned!.appointment).toEqual({ text: '11/23/2026 08:00', wallTime: true });
    expect(rolled!.appointment).toEqual({ text: '02/30/2026 08:00', wallTime: false });
    expect(rolled!.details).toEqual([['Stop GMT diff', '-6']]);
    expect(far!.appointment).toEqual({ text: '11/23/2026 08:00', wallTime: true });
    expect(words!.appointment).toEqual({ text: 'before noon', wallTime: false });
    expect(due!.details).toEqual([]);
  });

  it('keeps every other field for details, fields it does not know among them, but never the service’s id', () => {
    const [stop] = stopsOf([
      {
        id: 99120731,
        stopOrderNumber: 1,
        stopExternalId: 'S1',
        city: 'Omaha',
        zipcode: '68102',
        eta: { at: '2026-11-23T14:40:00Z', late: true, id: 5 },
        address: { city: 'Ignored: the stop names its own city', line1: '1 Main St' },
        tags: ['a'],
      },
    ])!;
    expect(stop!.place).toEqual({ city: 'Omaha' });
    expect(stop!.details).toEqual([
      ['Stop external id', 'S1'],
      ['Zipcode', '68102'],
      ['Eta at', '2026-11-23T14:40:00Z'],
      ['Eta late', 'yes'],
      ['Address city', 'Ignored: the stop names its own city'],
      ['Address line1', '1 Main St'],
    ]);
  });

  it('never fails on odd shapes', () => {
    expect(stopsOf(undefined)).toBeNull();
    expect(stopsOf({ stopOrderNumber: 1 })).toBeNull();
    expect(stopsOf('stops')).toBeNull();
    expect(stopsOf([])).toEqual([]);
    // As JSON.parse makes it: "__proto__" an own field, not the prototype.
    const odd: unknown = JSON.parse(
      `[null, 7, [1, 2], {"__proto__": {"city": "Proto"}}, {"x": "${'y'.repeat(500)}", "stopOrderNumber": "1e9"}]`,
    );
    const stops = stopsOf(odd)!;
    expect(stops).toHaveLength(2);
    expect(stops[0]!.details).toEqual([['Proto city', 'Proto']]);
    expect(stops[0]!.place).toEqual({});
    expect(stops[1]!.details[0]![1]).toHaveLength(201);
    expect(stops[1]!.order).toBeUndefined();
    expect(stops.map(stopKindText)).toEqual(['Stop 1', 'Stop 2']);
    expect(({} as Record<string, unknown>).city).toBeUndefined();
  });
});

describe('fieldLabel', () => {
  it('turns field names into words', () => {
    expect(fieldLabel('stopOrderNumber')).toBe('Stop order number');
    expect(fieldLabel('address.city')).toBe('Address city');
    expect(fieldLabel('stop_type')).toBe('Stop type');
    expect(fieldLabel('stopGMTDiff')).toBe('Stop GMT diff');
    expect(fieldLabel('ETA')).toBe('ETA');
  });
});
