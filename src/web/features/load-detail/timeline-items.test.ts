import { describe, expect, it } from 'vitest';
import { parseLoadDetail } from '@/contract/parse-pull';
import type { ParseIssue } from '@/contract/parse-issue';
import type { Load } from '@/domain/model';
import { normalizeLoad } from '@/domain/normalize';
import { NOISE_RULES } from '@/domain/noise-rules';
import {
  ALL_KINDS,
  countByKind,
  documentsNewestFirst,
  excursionTimeline,
  filterTimeline,
  mergeNewestFirst,
  trackTimeline,
  type TimelineKind,
} from './timeline-items';
import { wireDetail, wireEvent, type Wire } from '@/testing/wire-fixtures';

function load(detail: Wire): Load {
  const issues: ParseIssue[] = [];
  const parsed = parseLoadDetail(detail, 'details[0]', issues);
  const out = parsed && normalizeLoad(parsed, 'external-id', 'details[0]', issues);
  if (!out) throw new Error('fixture not readable');
  return out;
}

function timeline(detail: Wire) {
  const l = load(detail);
  // As the panel builds it: the track's items, with the readings' excursions merged in.
  return mergeNewestFirst(
    trackTimeline(l, documentsNewestFirst(l.documents), NOISE_RULES),
    excursionTimeline(l.readings, 5),
  );
}

describe('the timeline', () => {
  it('puts everything in one list, newest first by instant, with keys unique across kinds', () => {
    const items = timeline(wireDetail());
    expect(items.map((i) => `${i.kind} ${i.time.local ?? ''}`)).toEqual([
      'ping 11/22/2026 07:26 CST',
      'ping 11/22/2026 07:20 CST',
      'status 11/22/2026 07:15:47 CST',
      'excursion 11/22/2026 07:15 CST',
      'document 11/22/2026 07:00 CST',
      'comment 11/22/2026 06:10:00 CST',
      'comment 11/22/2026 06:00:00 CST',
      'document 11/22/2026 04:30 CST',
      'status 11/22/2026 04:10:00 CST',
      'status 11/22/2026 04:00:00 CST',
      'status 11/22/2026 03:50:00 CST',
    ]);
    const instants = items.map((i) => i.instant ?? -Infinity);
    expect(instants).toEqual([...instants].sort((a, b) => b - a));
    expect(new Set(items.map((i) => i.key)).size).toBe(items.length);
    expect(countByKind(items)).toEqual({
      status: 4,
      comment: 2,
      document: 2,
      excursion: 1,
      ping: 2,
      noise: 2,
    });
  });

  it('orders by the moment, not by the wall time of each zone', () => {
    const items = timeline(
      wireDetail({
        events: [
          wireEvent(1, 'Arrived at pickup', 'APU', '11/22/2026 10:00:00 EST'), // 15:00Z
          wireEvent(2, 'Loaded', 'LDD', '11/22/2026 09:30:00 CST'), // 15:30Z
          wireEvent(3, 'In transit', 'ITR', '11/22/2026 08:45:00 PST'), // 16:45Z
        ],
      }),
    ).filter((i) => i.kind === 'status');
    expect(items.map((i) => (i.kind === 'status' ? i.event.name : ''))).toEqual([
      'In transit',
      'Loaded',
      'Arrived at pickup',
    ]);
  });

  it('lists documents without a readable time last', () => {
    const items = timeline(
      wireDetail({
        documents: [
          { type: 'POD', timestamp: 'garbage', url: 'https://d.example/pod.pdf' },
          { type: 'BOL', timestamp: '11/22/2026 04:30 CST', url: 'https://d.example/bol.pdf' },
        ],
      }),
    );
    const last = items[items.length - 1]!;
    expect(last.kind === 'document' && last.document.type).toBe('POD');
    expect(last.instant).toBeNull();
  });
});

describe('filterTimeline', () => {
  const items = timeline(wireDetail());
  const kinds = (...k: TimelineKind[]) => new Set(k);

  it('hides app notices unless asked, and filters by kind', () => {
    expect(filterTimeline(items, { kinds: ALL_KINDS, text: '', showNoise: true })).toHaveLength(11);
    expect(filterTimeline(items, { kinds: ALL_KINDS, text: '', showNoise: false })).toHaveLength(9);
    const statuses = filterTimeline(items, { kinds: kinds('status'), text: '', showNoise: false });
    expect(statuses.map((i) => i.kind === 'status' && i.event.name)).toEqual(['In transit', 'Dispatched']);
  });

  it('searches case-insensitively for every word, across the fields of each kind', () => {
    const find = (text: string) =>
      filterTimeline(items, { kinds: ALL_KINDS, text, showNoise: true }).map((i) => i.key.split(':')[0]);
    expect(find('DSP')).toEqual(['status']);
    expect(find('elena bol')).toEqual(['document']);
    expect(find('broker pod')).toEqual(['comment']);
    expect(find('excursion return')).toEqual(['excursion']);
    expect(find('±8 m')).toEqual(['ping']);
    expect(find('lincoln')).toEqual(['comment']);
    expect(find('nothing like this')).toEqual([]);
  });
});
