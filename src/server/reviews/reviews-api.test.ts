import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxyErrorBody } from '@/contract/proxy-api';
import { ReviewChanged, ReviewsAnswer } from '@/contract/review-api';
import { loginAs } from '@/testing/login';
import { startStack, type Stack } from '@/testing/stack';
import { openMigratedTestStore, STORE_KINDS } from '@/testing/test-store';
import type { Store } from '../store/store';

const errorOf = async (response: Response) => ProxyErrorBody.parse(await response.json()).error;

const POD = 'https://files.example.com/pod/9001.jpg';
const BOL = 'http://files.example.com/bol/9001.pdf';

describe.each(STORE_KINDS)('/api/documents/reviews, on %s', (kind) => {
  let store: Store;
  let close: () => Promise<void>;
  let stack: Stack;
  let ana: { name: string; cookie: string };
  let bo: { name: string; cookie: string };
  let ops: { name: string; cookie: string };
  beforeAll(async () => {
    ({ store, close } = await openMigratedTestStore(kind));
    stack = await startStack({ store });
    ana = await loginAs(stack, store.db, 'broker', 'Ana');
    bo = await loginAs(stack, store.db, 'admin', 'Bo');
    ops = await loginAs(stack, store.db, 'dispatcher', 'Ops');
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await close?.();
  });

  const send = (method: 'GET' | 'PUT', path: string, cookie: string, body?: unknown) =>
    fetch(`${stack.proxy.url}${path}`, {
      method,
      headers: { Cookie: cookie, 'X-Requested-With': 'haulview', 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  const decide = async (cookie: string, body: unknown) => {
    const response = await send('PUT', '/api/documents/reviews', cookie, body);
    expect(response.status, await response.clone().text()).toBe(200);
    return ReviewChanged.parse(await response.json());
  };
  const answer = async (cookie: string, query = '') => {
    const response = await send('GET', `/api/documents/reviews${query}`, cookie);
    expect(response.status, await response.clone().text()).toBe(200);
    return ReviewsAnswer.parse(await response.json());
  };
  const list = async (cookie: string, query = '') => (await answer(cookie, query)).reviews;

  it('stores a broker’s decision with who and when, and every role reads it', async () => {
    const { review, replaced } = await decide(ana.cookie, { load: 'e:9001', url: POD, decision: 'approved' });
    expect(review).toMatchObject({
      load: 'e:9001',
      url: POD,
      decision: 'approved',
      reason: null,
      note: null,
      decidedBy: 'Ana',
      version: 1,
    });
    expect(Number.isNaN(Date.parse(review.decidedAt))).toBe(false);
    expect(replaced).toBeNull();
    for (const who of [ana, bo, ops]) expect(await list(who.cookie)).toEqual([review]);
  });

  it('a second decision replaces the first, says whose it replaced, and counts the version', async () => {
    const rejected = await decide(bo.cookie, {
      load: 'e:9001',
      url: POD,
      decision: 'rejected',
      reason: 'unsigned',
      note: 'no signature on page 2',
    });
    expect(rejected.review).toMatchObject({
      decision: 'rejected',
      reason: 'unsigned',
      note: 'no signature on page 2',
      decidedBy: 'Bo',
      version: 2,
    });
    expect(rejected.replaced).toMatchObject({ decision: 'approved', decidedBy: 'Ana', version: 1 });
    // The same user changing their own mind replaced nobody's decision.
    const pending = await decide(bo.cookie, { load: 'e:9001', url: POD, decision: 'pending' });
    expect(pending.review).toMatchObject({ decision: 'pending', reason: null, note: null, version: 3 });
    expect(pending.replaced).toBeNull();
    expect(await list(ana.cookie)).toEqual([pending.review]);
  });

  it('lists one load’s reviews with ?load=', async () => {
    await decide(ana.cookie, { load: 'n:ABC 7', url: BOL, decision: 'approved' });
    expect((await list(ops.cookie, '?load=n%3AABC%207')).map((r) => r.url)).toEqual([BOL]);
    expect((await list(ops.cookie, '?load=e:9001')).map((r) => r.url)).toEqual([POD]);
    expect(await list(ops.cookie, '?load=e:404')).toEqual([]);
    expect((await list(ops.cookie)).map((r) => r.url).sort()).toEqual([BOL, POD].sort());
  });

  it('keeps whose decision a later one replaced, through the same user’s changes of mind', async () => {
    const url = 'https://files.example.com/pod/replaced.jpg';
    const first = await decide(ana.cookie, { load: 'e:9003', url, decision: 'rejected', reason: 'blurry' });
    expect(first.review.replaced).toBeNull();
    const approved = await decide(bo.cookie, { load: 'e:9003', url, decision: 'approved' });
    expect(approved.review.replaced).toEqual({
      decision: 'rejected',
      reason: 'blurry',
      decidedBy: 'Ana',
      decidedAt: first.review.decidedAt,
    });
    // Bo adds a note: Ana's rejection is still the one his decision replaced.
    const again = await decide(bo.cookie, {
      load: 'e:9003',
      url,
      decision: 'approved',
      note: 'signed on p2',
    });
    expect(again.review.replaced).toEqual(approved.review.replaced);
    expect((await list(ana.cookie, '?load=e:9003'))[0]?.replaced?.decidedBy).toBe('Ana');
    // Ana decides again: she replaced Bo's approval.
    const back = await decide(ana.cookie, { load: 'e:9003', url, decision: 'pending' });
    expect(back.review.replaced).toMatchObject({ decision: 'approved', decidedBy: 'Bo' });
    // After Ana's undo, Bo's next approval replaced no decision of hers: nothing to tell her.
    const after = await decide(bo.cookie, { load: 'e:9003', url, decision: 'approved' });
    expect(after.review.replaced).toBeNull();
  });

  it('with ?since=, answers only the reviews changed after the cursor, and the next cursor', async () => {
    const start = await answer(ops.cookie);
    expect(start.full).toBe(true);
    expect(start.reviews.length).toBeGreaterThan(0);
    const unchanged = await answer(ops.cookie, `?since=${start.cursor}`);
    expect(unchanged).toEqual({ reviews: [], cursor: start.cursor, full: false });

    const url = 'https://files.example.com/pod/since.jpg';
    const made = await decide(ana.cookie, { load: 'e:9004', url, decision: 'rejected', reason: 'unsigned' });
    const delta = await answer(ops.cookie, `?since=${start.cursor}`);
    expect(delta.full).toBe(false);
    expect(delta.reviews).toEqual([made.review]);
    expect(BigInt(delta.cursor)).toBeGreaterThan(BigInt(start.cursor));

    // An undo is a change too: it comes as `pending`.
    const undone = await decide(ana.cookie, { load: 'e:9004', url, decision: 'pending' });
    expect((await answer(ops.cookie, `?since=${delta.cursor}`)).reviews).toEqual([undone.review]);
    // With ?load=, one load's changes only.
    await decide(ana.cookie, {
      load: 'e:9005',
      url: 'https://files.example.com/other.jpg',
      decision: 'approved',
    });
    expect((await list(ops.cookie, `?load=e:9004&since=${delta.cursor}`)).map((r) => r.url)).toEqual([url]);
    // Since 0: everything, but not marked whole (the page merges it as it would any change).
    const all = await answer(ops.cookie, '?since=0');
    expect(all.reviews.length).toBe((await list(ops.cookie)).length);
    // A cursor the store never gave (a restored backup): the whole list, marked so.
    const ahead = await answer(ops.cookie, '?since=999999999999');
    expect(ahead.full).toBe(true);
    expect(ahead.reviews.length).toBe(all.reviews.length);
  });

  it('refuses a bad cursor with a 400 naming since', async () => {
    for (const since of ['abc', '-1', '', '1.5', '1e5', '007', '9'.repeat(19), '1&since=2', '0x10']) {
      const response = await send(
        'GET',
        `/api/documents/reviews?since=${encodeURIComponent(since)}`,
        ops.cookie,
      );
      expect(response.status, since).toBe(400);
      const error = await errorOf(response);
      expect(error.code, since).toBe('invalid_request');
      expect(JSON.stringify(error.details), since).toContain('"since"');
    }
    const twice = await send('GET', '/api/documents/reviews?since=1&since=2', ops.cookie);
    expect(twice.status).toBe(400);
    const unknown = await send('GET', '/api/documents/reviews?after=1', ops.cookie);
    expect(unknown.status).toBe(400);
  });

  it('audits each decision with the user, the document and the decision, in order', async () => {
    const rows = await store.db
      .selectFrom('audit_log')
      .select(['actor', 'details'])
      .where('action', '=', 'review')
      .where('subject', '=', POD)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { actor: 'Ana', details: { decision: 'approved', reason: null, load: 'e:9001' } },
      { actor: 'Bo', details: { decision: 'rejected', reason: 'unsigned', load: 'e:9001' } },
      { actor: 'Bo', details: { decision: 'pending', reason: null, load: 'e:9001' } },
    ]);
  });

  it('refuses a dispatcher’s decision with 403 forbidden_role, and records nothing', async () => {
    const response = await send('PUT', '/api/documents/reviews', ops.cookie, {
      load: 'e:9001',
      url: POD,
      decision: 'approved',
    });
    expect(response.status).toBe(403);
    expect((await errorOf(response)).code).toBe('forbidden_role');
    expect((await list(ops.cookie, '?load=e:9001'))[0]?.decidedBy).toBe('Bo');
    expect((await send('GET', '/api/documents/reviews', '')).status).toBe(401);
  });

  it('refuses every malformed body with a 400 naming the field, and stores nothing', async () => {
    const ok = { load: 'e:9001', url: 'https://files.example.com/x.jpg', decision: 'approved' };
    const cases: [unknown, string][] = [
      [{ ...ok, decision: 'rejected' }, 'reason'],
      [{ ...ok, reason: 'blurry' }, 'reason'],
      [{ ...ok, decision: 'pending', reason: 'other' }, 'reason'],
      [{ ...ok, decision: 'rejected', reason: 'ugly' }, 'reason'],
      [{ ...ok, decision: 'maybe' }, 'decision'],
      [{ ...ok, url: 'javascript:alert(1)' }, 'url'],
      [{ ...ok, url: 'file:///etc/passwd' }, 'url'],
      [{ ...ok, url: 'not a url' }, 'url'],
      [{ ...ok, url: `https://x.example/${'a'.repeat(2100)}` }, 'url'],
      [{ ...ok, load: '9001' }, 'load'],
      [{ ...ok, load: 'x:9001' }, 'load'],
      [{ ...ok, load: 'e:' }, 'load'],
      [{ ...ok, load: `e:${'1'.repeat(65)}` }, 'load'],
      [{ ...ok, note: 'n'.repeat(501) }, 'note'],
      [{ ...ok, note: 7 }, 'note'],
      [{ ...ok, decidedBy: 'Ana' }, 'decidedBy'],
      [{ load: 'e:9001', decision: 'approved' }, 'url'],
      [[ok], '(body)'],
    ];
    for (const [body, field] of cases) {
      const response = await send('PUT', '/api/documents/reviews', ana.cookie, body);
      const label = JSON.stringify(body).slice(0, 120);
      expect(response.status, label).toBe(400);
      expect(JSON.stringify((await errorOf(response)).details), label).toContain(`"${field}"`);
    }
    const notJson = await send('PUT', '/api/documents/reviews', ana.cookie, '{"load":');
    expect(notJson.status).toBe(400);
    const badQuery = await send('GET', '/api/documents/reviews?load=9001', ana.cookie);
    expect(badQuery.status).toBe(400);
    expect(JSON.stringify(await errorOf(badQuery))).toContain('load');
    expect((await list(ana.cookie)).map((r) => r.url)).not.toContain(ok.url);
  });

  it('a note that looks like SQL is kept as text', async () => {
    const note = "'); drop table document_reviews; --";
    const { review } = await decide(ana.cookie, {
      load: 'e:9001',
      url: 'https://files.example.com/odd.jpg',
      decision: 'rejected',
      reason: 'other',
      note,
    });
    expect(review.note).toBe(note);
    expect((await list(ana.cookie)).some((r) => r.note === note)).toBe(true);
  });

  it('two decisions on one new document at once: both audited, one row, the later one stored', async () => {
    const url = 'https://files.example.com/race.jpg';
    const answers = await Promise.all([
      decide(ana.cookie, { load: 'e:9002', url, decision: 'approved' }),
      decide(bo.cookie, { load: 'e:9002', url, decision: 'rejected', reason: 'blurry' }),
    ]);
    const versions = answers.map((a) => a.review.version).sort();
    expect(versions).toEqual([1, 2]);
    const later = answers.find((a) => a.review.version === 2)!;
    const earlier = answers.find((a) => a.review.version === 1)!;
    // The later one knows whose decision it replaced.
    expect(later.replaced).toEqual(earlier.review);
    expect(await list(ops.cookie, '?load=e:9002')).toEqual([later.review]);
    const audited = await store.db
      .selectFrom('audit_log')
      .select('actor')
      .where('action', '=', 'review')
      .where('subject', '=', url)
      .orderBy('id')
      .execute();
    expect(audited.map((a) => a.actor)).toEqual([earlier.review.decidedBy, later.review.decidedBy]);
  });

  it('answers 503 store_unavailable when the reviews cannot be read or saved', async () => {
    const before = await list(ana.cookie);
    // The table out of reach while sessions still work: what a broken store looks like to this route.
    await sql`alter table document_reviews rename to document_reviews_away`.execute(store.db);
    try {
      const read = await send('GET', '/api/documents/reviews', ana.cookie);
      const write = await send('PUT', '/api/documents/reviews', ana.cookie, {
        load: 'e:9001',
        url: POD,
        decision: 'approved',
      });
      for (const response of [read, write]) {
        expect(response.status).toBe(503);
        const error = await errorOf(response);
        expect(error.code).toBe('store_unavailable');
        expect(error.message).toContain('document reviews');
      }
    } finally {
      await sql`alter table document_reviews_away rename to document_reviews`.execute(store.db);
    }
    expect(await list(ana.cookie)).toEqual(before);
  });
});
