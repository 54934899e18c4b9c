// `npx tsx bench/run.ts team`: the team server's figures (issue 34): login, a review seen by a
// second client, and the store at 10,000 reviews, on PGlite and, given DATABASE_URL, on PostgreSQL.
import { performance } from 'node:perf_hooks';
import { ReviewsAnswer } from '@/contract/review-api';
import { addUser } from '@/server/auth/users';
import type { Store } from '@/server/store/store';
import { cookieOf, TEST_PASSWORD } from '@/testing/login';
import { startStack, type Stack } from '@/testing/stack';
import { chosenParts, type Figure } from './figures';
import { benchStore } from './bench-store';
import { median } from './peer-figures';
import { storeFigures } from './team-figures';

const PARTS = ['login', 'review', 'store'] as const;
const LOGINS = 20;
const ROUND_TRIPS = 20;
const REVIEWS = 10_000;
const PUTS = 200;
const GETS = 5;
const round = (n: number) => Math.round(n * 10) / 10;

async function logIn(stack: Stack, name: string): Promise<{ cookie: string; ms: number }> {
  const t = performance.now();
  const response = await stack.post('/api/session', { username: name, password: TEST_PASSWORD });
  await response.arrayBuffer();
  const ms = performance.now() - t;
  if (response.status !== 204) throw new Error(`login as ${name} answered ${response.status}`);
  return { cookie: cookieOf(response), ms };
}

function client(stack: Stack, cookie: string) {
  const headers = { Cookie: cookie, 'X-Requested-With': 'haulview', 'Content-Type': 'application/json' };
  return {
    put: async (body: unknown) => {
      const response = await fetch(`${stack.proxy.url}/api/documents/reviews`, {
        method: 'PUT',
        headers,
        body: JSON.stringify(body),
      });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`PUT answered ${response.status}: ${text.slice(0, 200)}`);
    },
    get: async (query = '') => {
      const response = await fetch(`${stack.proxy.url}/api/documents/reviews${query}`, { headers });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`GET answered ${response.status}: ${text.slice(0, 200)}`);
      return text;
    },
  };
}

const documentUrl = (i: number) => `https://files.example.com/pod/${700000 + Math.floor(i / 4)}-${i % 4}.jpg`;
const loadOf = (i: number) => `e:${700000 + Math.floor(i / 4)}`;

/** Fills the store to `count` reviews (4 documents a load), as brokers' decisions would leave it. */
async function fill(store: Store, from: number, count: number): Promise<void> {
  for (let start = from; start < count; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, count - start) }, (_, k) => {
      const i = start + k;
      const rejected = i % 7 === 0;
      return {
        url: documentUrl(i),
        load: loadOf(i),
        decision: rejected ? ('rejected' as const) : ('approved' as const),
        reason: rejected ? ('unsigned' as const) : null,
        note: i % 3 === 0 ? 'checked against the rate confirmation' : null,
        decided_by: i % 2 === 0 ? 'Ana' : 'Bo',
      };
    });
    await store.db.insertInto('document_reviews').values(rows).execute();
  }
}

async function benchKind(kind: 'pglite' | 'postgres', parts: readonly string[]): Promise<Figure[]> {
  const figures: Figure[] = [];
  const { store, drop } = await benchStore(kind);
  const stack = await startStack({ store });
  try {
    for (const name of ['Ana', 'Bo'])
      await addUser(store.db, { name, role: 'broker', password: TEST_PASSWORD }, 'cli');
    const ana = client(stack, (await logIn(stack, 'Ana')).cookie);
    const bo = client(stack, (await logIn(stack, 'Bo')).cookie);

    if (parts.includes('login')) {
      const times: number[] = [];
      for (let i = 0; i < LOGINS; i++) times.push((await logIn(stack, i % 2 === 0 ? 'Ana' : 'Bo')).ms);
      figures.push({
        figure: `team: login over HTTP (scrypt), median of ${LOGINS} (${kind})`,
        value: round(median(times)),
        unit: 'ms',
        goal: '-',
        pass: true,
      });
    }

    if (parts.includes('review')) {
      // What a second broker's next refresh costs to see the first one's decision: her PUT, his GET.
      const times: number[] = [];
      for (let i = 0; i < ROUND_TRIPS; i++) {
        const url = `https://files.example.com/pod/seen-${i}.jpg`;
        const t = performance.now();
        await ana.put({ load: 'e:9001', url, decision: 'rejected', reason: 'blurry' });
        const seen = ReviewsAnswer.parse(JSON.parse(await bo.get()));
        times.push(performance.now() - t);
        if (!seen.reviews.some((r) => r.url === url && r.decidedBy === 'Ana'))
          throw new Error(`Bo did not see Ana's review of ${url}`);
      }
      figures.push({
        figure: `team: review PUT by one client, then seen in another's GET, median of ${ROUND_TRIPS} (${kind})`,
        value: round(median(times)),
        unit: 'ms',
        goal: '-',
        pass: true,
      });
    }

    if (parts.includes('store')) {
      const present = Number(
        (
          await store.db
            .selectFrom('document_reviews')
            .select((e) => e.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      // The new documents among the PUTs bring it to REVIEWS for the GETs.
      await fill(store, present, REVIEWS - PUTS / 2);
      const putMs: number[] = [];
      for (let i = 0; i < PUTS; i++) {
        // Half change a decision already made, half decide a new document.
        const body =
          i % 2 === 0
            ? { load: loadOf(present + i * 37), url: documentUrl(present + i * 37), decision: 'pending' }
            : { load: 'e:800000', url: `https://files.example.com/pod/new-${i}.jpg`, decision: 'approved' };
        const t = performance.now();
        await ana.put(body);
        putMs.push(performance.now() - t);
      }
      const getMs: number[] = [];
      let getBytes = 0;
      let count = 0;
      for (let i = 0; i < GETS; i++) {
        const t = performance.now();
        const text = await bo.get();
        getMs.push(performance.now() - t);
        getBytes = Buffer.byteLength(text);
        count = ReviewsAnswer.parse(JSON.parse(text)).reviews.length;
      }
      // A refresh after one decision elsewhere: only what changed since the page's cursor.
      let cursor = ReviewsAnswer.parse(JSON.parse(await bo.get())).cursor;
      const sinceMs: number[] = [];
      let sinceBytes = 0;
      for (let i = 0; i < GETS; i++) {
        await ana.put({
          load: 'e:800001',
          url: `https://files.example.com/pod/since-${i}.jpg`,
          decision: 'approved',
        });
        const t = performance.now();
        const text = await bo.get(`?since=${cursor}`);
        sinceMs.push(performance.now() - t);
        sinceBytes = Buffer.byteLength(text);
        const answer = ReviewsAnswer.parse(JSON.parse(text));
        if (answer.reviews.length !== 1)
          throw new Error(`?since= answered ${answer.reviews.length} reviews, not 1`);
        cursor = answer.cursor;
      }
      figures.push(...storeFigures({ kind, reviews: count, putMs, getMs, getBytes, sinceMs, sinceBytes }));
    }
  } finally {
    await stack.close();
    await drop();
  }
  return figures;
}

/** `BENCH_TEAM_PARTS=login,review,store` picks parts; `DATABASE_URL` adds PostgreSQL (a database made and dropped beside it). */
export async function benchTeam(): Promise<Figure[]> {
  const parts = chosenParts('BENCH_TEAM_PARTS', PARTS);
  const kinds: ('pglite' | 'postgres')[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
  const figures: Figure[] = [];
  for (const kind of kinds) figures.push(...(await benchKind(kind, parts)));
  return figures;
}
