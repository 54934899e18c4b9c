import { describe, expect, it } from 'vitest';
import { fieldLabel, readStops } from './stops';

describe('readStops', () => {
  it('shows whatever string, number and yes/no fields each stop has, known ones first', () => {
    const views = readStops([
      { city: 'Omaha', stopExternalId: 'S1', stopOrderNumber: 1, appointment: true, eta: null },
      { type: 'Delivery', address: { city: 'Denver', geo: { lat: 1 } }, tags: ['a'] },
    ]);
    expect(views).toEqual([
      {
        title: 'Stop 1',
        fields: [
          ['Stop order number', '1'],
          ['Stop external id', 'S1'],
          ['City', 'Omaha'],
          ['Appointment', 'yes'],
        ],
      },
      {
        title: 'Stop 2',
        fields: [
          ['Type', 'Delivery'],
          ['Address city', 'Denver'],
        ],
      },
    ]);
  });

  it('never fails on odd shapes', () => {
    expect(readStops(undefined)).toBeNull();
    expect(readStops({ stopOrderNumber: 1 })).toBeNull();
    expect(readStops('stops')).toBeNull();
    expect(readStops([])).toEqual([]);
    // As JSON.parse makes it: "__proto__" an own field, not the prototype.
    const odd: unknown = JSON.parse(
      `[null, 7, [1, 2], {"__proto__": {"city": "Proto"}}, {"x": "${'y'.repeat(500)}"}]`,
    );
    const views = readStops(odd) ?? [];
    expect(views.map((v) => v.title)).toEqual(['Stop 2', 'Stop 4', 'Stop 5']);
    expect(views[0]!.fields).toEqual([['Value', '7']]);
    expect(views[1]!.fields).toEqual([['Proto city', 'Proto']]);
    expect(views[2]!.fields[0]![1]).toHaveLength(201);
    expect(({} as Record<string, unknown>).city).toBeUndefined();
  });
});

describe('fieldLabel', () => {
  it('turns field names into words', () => {
    expect(fieldLabel('stopOrderNumber')).toBe('Stop order number');
    expect(fieldLabel('address.city')).toBe('Address city');
    expect(fieldLabel('stop_type')).toBe('Stop type');
  });
});
