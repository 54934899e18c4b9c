import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { readerOf, UNSURE } from './schema-reader';

describe('readerOf: what it leaves to zod', () => {
  it('a schema with checks, and a plain object’s unknown keys dropped as zod drops them', () => {
    const named = readerOf(z.object({ name: z.string().check(z.minLength(1)), n: z.optional(z.number()) }));
    expect(named({ name: 'a' })).toBe(UNSURE);
    const plain = z.object({ n: z.number(), tags: z.array(z.enum(['a', 'b'])) });
    const readPlain = readerOf(plain);
    const value = { extra: 1, tags: ['b'], n: 2 };
    expect(readPlain(value)).toEqual(plain.parse(value));
    expect(JSON.stringify(readPlain(value))).toBe(JSON.stringify(plain.parse(value)));
    expect(readPlain({ n: 2, tags: ['c'] })).toBe(UNSURE);
    // A null where the schema allows one is read, not left to zod (a ping's accuracy is often null).
    const accuracy = readerOf(z.strictObject({ accuracy: z.nullable(z.number()) }));
    expect(accuracy({ accuracy: null })).toEqual({ accuracy: null });
  });

  it('a value it accepts as it is, it returns itself; any other read is a new value, the input untouched', () => {
    const ping = z.object({ at: z.number(), accuracy: z.nullable(z.number()), note: z.optional(z.string()) });
    const track = z.object({ id: z.string(), pings: z.array(ping), kind: z._default(z.string(), 'track') });
    const read = readerOf(track);
    const exact = {
      id: 'a',
      pings: [
        { at: 1, accuracy: null },
        { at: 2, accuracy: 5, note: 'x' },
      ],
      kind: 'k',
    };
    // Nothing to drop, fill in or reorder: no copy (a 20,000-ping track is not copied ping by ping).
    expect(read(exact)).toBe(exact);

    // A default to fill in: a new object, the same pings (each its own read), the input as it was.
    const bare = { id: 'a', pings: exact.pings };
    const filled = read(bare) as typeof exact;
    expect(filled).not.toBe(bare);
    expect(filled.pings).toBe(exact.pings);
    expect(JSON.stringify(filled)).toBe(JSON.stringify(track.parse(bare)));
    expect(bare).toEqual({ id: 'a', pings: exact.pings });

    // An unknown key in one ping: that ping and the array holding it are new; the other ping is itself.
    const odd = { id: 'a', pings: [exact.pings[0], { at: 3, accuracy: 1, extra: true }], kind: 'k' };
    const dropped = read(odd) as typeof exact;
    expect(JSON.stringify(dropped)).toBe(JSON.stringify(track.parse(odd)));
    expect(dropped.pings[0]).toBe(exact.pings[0]);
    expect(odd.pings[1]).toEqual({ at: 3, accuracy: 1, extra: true });

    // Keys in another order: read in the schema's order, as zod does.
    const reordered = { kind: 'k', pings: [], id: 'a' };
    expect(JSON.stringify(read(reordered))).toBe(JSON.stringify(track.parse(reordered)));

    // A strict object still refuses an unknown key, wherever it stands.
    const strict = readerOf(z.strictObject({ a: z.number(), b: z.optional(z.number()) }));
    expect(strict({ a: 1, c: 2 })).toBe(UNSURE);
    expect(strict({ c: 2, a: 1 })).toBe(UNSURE);
    expect(strict({ b: 2, a: 1 })).toEqual({ a: 1, b: 2 });
  });
});
