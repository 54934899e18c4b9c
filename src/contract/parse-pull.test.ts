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

  it('reports an answer that is not a pull envelope, without throwing', () => {
    for (const bad of [null, 42, 'x', [], { details: [] }, { status: 'yes' }]) {
      const result = parsePullAnswer(bad);
      expect('error' in result, JSON.stringify(bad)).toBe(true);
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
