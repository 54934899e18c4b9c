import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePullAnswer } from '@/contract/parse-pull';
import { LoadView } from '@/contract/load-view';
import { applyDelta } from '@/domain/merge';
import type { Load } from '@/domain/model';
import { createTrackCache } from './track-cache';

/**
 * What the browser does with the proxy's answers (the first full, then each after its cursor),
 * against what a full answer says at the end: the same loads, item for item.
 */

type Step =
  | { kind: 'pings'; load: number; count: number }
  | { kind: 'event'; load: number; id: number; name: string }
  | { kind: 'document'; load: number; url: number; type: string }
  | { kind: 'poll' }
  | { kind: 'fail' };

const LOADS = ['1', '2', '3'];

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('pings' as const), load: fc.nat(2), count: fc.integer({ min: 1, max: 3 }) }),
  // Few ids and names: the upstream sends an event again, sometimes changed.
  fc.record({
    kind: fc.constant('event' as const),
    load: fc.nat(2),
    id: fc.nat(4),
    name: fc.constantFrom('Arrived', 'Loaded', 'In transit'),
  }),
  fc.record({
    kind: fc.constant('document' as const),
    load: fc.nat(2),
    url: fc.nat(3),
    type: fc.constantFrom('POD', 'BOL', 'PICTURE'),
  }),
  fc.constant({ kind: 'poll' as const }),
  fc.constant({ kind: 'fail' as const }),
);

/** A scripted upstream: items per load, and per load what a `yes` pull has not sent yet. */
function upstream() {
  const items = new Map<string, { locations: object[]; events: object[]; documents: object[] }>();
  const sent = new Map<string, { locations: number; events: number; documents: number }>();
  let minute = 0;
  let failNext = false;
  const of = (id: string) => {
    let l = items.get(id);
    if (!l) items.set(id, (l = { locations: [], events: [], documents: [] }));
    return l;
  };
  const at = () => {
    minute++;
    const hh = String(10 + Math.floor(minute / 60)).padStart(2, '0');
    const mm = String(minute % 60).padStart(2, '0');
    return { utc: `11/22/2026 ${hh}:${mm}:00 UTC`, gmt: `2026-11-22 ${hh}:${mm}:00` };
  };
  return {
    apply(s: Step) {
      if (s.kind === 'fail') failNext = true;
      if (s.kind === 'poll' || s.kind === 'fail') return;
      const l = of(LOADS[s.load] as string);
      const t = at();
      if (s.kind === 'pings')
        for (let i = 0; i < s.count; i++) {
          const { gmt } = i === 0 ? t : at();
          l.locations.push({
            lat: '41.1',
            lon: String(-90 - minute / 100),
            deviceTimeGmt: gmt,
            accuracy: 10,
            timestamp: '',
          });
        }
      if (s.kind === 'event') l.events.push({ id: s.id, name: s.name, code: 'X', timestampUTC: t.utc });
      if (s.kind === 'document')
        l.documents.push({ type: s.type, url: `https://docs.example/${s.url}`, timestamp: '', location: {} });
    },
    pull: async (_by: unknown, ids: string[], mode: 'yes' | 'no') => {
      const details = ids.flatMap((id) => {
        const l = items.get(id);
        if (!l) return [];
        const from = mode === 'yes' ? (sent.get(id) ?? { locations: 0, events: 0, documents: 0 }) : undefined;
        sent.set(id, {
          locations: l.locations.length,
          events: l.events.length,
          documents: l.documents.length,
        });
        const last = l.locations.at(-1) as { lat: string; lon: string; deviceTimeGmt: string } | undefined;
        return [
          {
            loadTrackExternalId: Number(id),
            ...(last && {
              latestLocation: {
                ...last,
                accuracy: 10,
                timestampUTC: `11/22/2026 ${last.deviceTimeGmt.slice(11)} UTC`,
                city: 'X',
                state: 'Y',
                country: 'US',
              },
            }),
            locations: l.locations.slice(from?.locations ?? 0),
            events: l.events.slice(from?.events ?? 0),
            documents: l.documents.slice(from?.documents ?? 0),
          },
        ];
      });
      if (failNext) {
        failNext = false;
        throw new Error('connection reset after the cursor moved');
      }
      const parsed = parsePullAnswer({ status: true, timeStamp: '11/22/2026 10:00:00 UTC', details });
      if ('error' in parsed) throw new Error(parsed.error);
      return parsed;
    },
  };
}

/** A served load as the page reads it: written out, and read with the strict schema. */
const asRead = (view: unknown): Load => LoadView.parse(JSON.parse(JSON.stringify(view)));

describe('applyDelta over the proxy’s answers', () => {
  it('a full answer, then the deltas after each cursor, applied in turn, equal the full answer at the end', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), async (steps) => {
        const u = upstream();
        const cache = createTrackCache({
          pull: u.pull,
          chunkSize: 2,
          maxInFlight: 2,
          freshMs: 0,
          resyncMs: Number.POSITIVE_INFINITY,
          maxLoads: 10,
        });
        const page = new Map<string, Load>();
        let cursor: string | undefined;
        const poll = async () => {
          try {
            const answer = await cache.get('external-id', LOADS, undefined, cursor);
            for (const view of answer.loads) {
              const load = asRead(view);
              const before = page.get(load.id);
              page.set(load.id, before ? applyDelta(before, load) : load);
            }
            for (const id of answer.missing) page.delete(id);
            cursor = answer.cursor;
          } catch {
            // A failed poll changes nothing on the page; the next one asks from the same cursor.
          }
        };
        for (const s of steps) {
          u.apply(s);
          if (s.kind === 'poll' || s.kind === 'fail') await poll();
        }
        await poll();
        await poll();
        const full = await cache.get('external-id', LOADS, undefined, undefined);
        const expected = new Map(full.loads.map((v) => [v.id, asRead(v)]));
        expect([...page.keys()].sort()).toEqual([...expected.keys()].sort());
        for (const [id, load] of expected) expect(page.get(id), `load ${id}`).toEqual(load);
      }),
      { numRuns: 300 },
    );
  });
});
