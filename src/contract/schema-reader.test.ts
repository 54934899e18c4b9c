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
});
