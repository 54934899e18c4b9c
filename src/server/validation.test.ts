import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startFakeUpstream } from '@/testing/fake-upstream';
import { startStack, type Stack } from '@/testing/stack';

/**
 * Whatever a browser sends that is not a valid pull body gets a 4xx, and never reaches the upstream.
 */
describe('the pull input validator', () => {
  let stack: Stack;
  let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
  beforeAll(async () => {
    upstream = await startFakeUpstream((_req, res) => json(res, 200, { status: true, details: [] }));
    stack = await startStack({ upstream: { baseUrl: upstream.url } });
  });
  afterAll(async () => {
    await stack.close();
    await upstream.close();
  });

  const invalidBody = fc.oneof(
    fc.jsonValue().filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)),
    fc
      .dictionary(fc.string(), fc.jsonValue())
      .filter((o) => !('ids' in o) || Object.keys(o).some((k) => !['ids', 'include', 'since'].includes(k))),
    fc.record({
      ids: fc.oneof(
        fc.constant([]),
        // Too long once trimmed: an id's spaces around it are not part of it.
        fc.array(
          fc.oneof(
            fc.integer(),
            fc.constant(null),
            fc.constant(''),
            fc.string({ minLength: 65 }).filter((s) => s.trim().length > 64),
          ),
          {
            minLength: 1,
            maxLength: 5,
          },
        ),
      ),
    }),
    // More ids than MAX_IDS (500 by default), short enough for the body limit.
    fc.record({
      ids: fc.array(fc.stringMatching(/^[a-z0-9]{1,8}$/), { minLength: 501, maxLength: 600 }),
    }),
    // An id with a control character inside it (trimming cannot take it away).
    fc.record({
      ids: fc
        .tuple(
          fc.stringMatching(/^[a-z0-9]{0,6}$/),
          fc.integer({ min: 0, max: 31 }),
          fc.stringMatching(/^[a-z0-9]{0,6}$/),
        )
        .map(([a, c, b]) => [`x${a}${String.fromCharCode(c)}${b}x`]),
    }),
    // A cursor that is not a string.
    fc.record({
      ids: fc.constant(['1']),
      since: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string()), fc.object()),
    }),
    fc.record({
      ids: fc.constant(['1']),
      include: fc
        .dictionary(fc.string(), fc.oneof(fc.string(), fc.integer()))
        .filter((o) => Object.keys(o).length > 0),
    }),
  );

  it('answers every invalid body with a 4xx and a JSON error, without an upstream call', async () => {
    await fc.assert(
      fc.asyncProperty(invalidBody, async (body) => {
        const response = await stack.post('/api/pull/by-external-id', body);
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        const answer = (await response.json()) as { error?: { code?: string; message?: string } };
        expect(answer.error?.message).toBeTruthy();
      }),
      { numRuns: 150 },
    );
    const raw = ['', '{', 'null', '[1,2]', '"ids"', '{"ids": "1"}'];
    for (const text of raw) expect((await stack.post('/api/pull/by-external-id', text)).status).toBe(400);
    expect(upstream.seen).toHaveLength(0);
  });
});
