import { describe, expect, it } from 'vitest';
import type { ParseIssue } from '@/contract/parse-issue';
import { itemOf, skippedSummary, skippedTally, skippedText } from './skipped-text';

const note = (path: string, kind: ParseIssue['kind'], o: Partial<ParseIssue> = {}): ParseIssue => ({
  path,
  kind,
  message: 'as the parser said it',
  skipped: true,
  ...o,
});

describe('what was skipped, in words', () => {
  it('names the item by what a user calls it, counted from 1, and what was wrong', () => {
    expect(skippedText(note('locations[2].lat', 'bad_coordinate'))).toBe(
      'Ping 3 skipped: its lat is not a coordinate',
    );
    expect(skippedText(note('documents[0].url', 'null_where_required'))).toBe(
      'Document 1 skipped: its url is empty (null)',
    );
    expect(skippedText(note('events[4]', 'bad_time'))).toBe(
      'Status event 5 skipped: it has no time Haulview can read',
    );
    expect(skippedText(note('latestLocation.city', 'wrong_type', { keptItem: true }))).toBe(
      'Latest location kept without its city, which is of the wrong type',
    );
    expect(
      skippedText(note('details[3].comments[1].location.lat', 'bad_coordinate', { keptItem: true })),
    ).toBe('Comment 2 kept without its location.lat, which is not a coordinate');
  });

  it('counts items skipped once however many of their fields were wrong, and fields dropped apart', () => {
    const issues = [
      note('documents[0].type', 'wrong_type'),
      note('documents[0].url', 'missing'),
      note('locations[1].accuracy', 'wrong_type', { keptItem: true }),
      note('locations[1].timestamp', 'wrong_type', { keptItem: true }),
      note('stops', 'unknown_field', { skipped: false }),
      note('events[2]', 'bad_time'),
    ];
    const tally = skippedTally(issues);
    expect([tally.items, tally.fields, tally.notes.length]).toEqual([2, 2, 5]);
    expect(skippedSummary(tally.items, tally.fields)).toBe(
      '2 items skipped and 2 fields dropped because they could not be read',
    );
    expect(skippedSummary(1, 0)).toBe('1 item skipped because they could not be read');
    expect(skippedSummary(0, 1)).toBe('1 field dropped because they could not be read; their items are kept');
    expect(itemOf('details[0].locations[7].lon')).toBe('locations[7]');
    expect(itemOf('(load)')).toBe('(load)');
  });
});
