import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoadView, PULL_ANSWER_VERSION } from '@/contract/load-view';
import { readerOf, UNSURE } from '@/contract/schema-reader';
import { servedLoads } from '@/testing/served-loads';
import { BOARD_INCLUDE } from './load-queries';
import { WrittenJson } from './api-client';
import { pullWritten, readPullAnswer } from './pull-answer';

const readLoad = readerOf(LoadView);

/** As the board asks for them. */
const board = servedLoads(BOARD_INCLUDE);
const whole = servedLoads(undefined);

/** The same as zod's parse: equal values, the same keys in the same order. */
function expectSameAsZod(read: unknown, value: unknown) {
  const parsed = LoadView.safeParse(value);
  expect(parsed.success).toBe(true);
  expect(isDeepStrictEqual(read, parsed.data)).toBe(true);
  expect(JSON.stringify(read)).toBe(JSON.stringify(parsed.data));
}

/** Every place in a JSON value: the path of keys to it. */
function pathsOf(value: unknown, path: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(path);
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...path, i], out));
  else if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) pathsOf(v, [...path, k], out);
  return out;
}

const ODD_VALUES: unknown[] = [
  null,
  undefined,
  0,
  -1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  'late',
  'pickup',
  true,
  [],
  {},
  { lat: 1, lon: 2, accuracy: null },
];

type Mutation =
  | { kind: 'delete'; at: number }
  | { kind: 'set'; at: number; value: number }
  | { kind: 'add-key'; at: number; key: string }
  | { kind: 'wrap'; at: number };

/** A copy of `value` with one change at the `at`-th place (of all places, in order). */
function mutated(value: unknown, m: Mutation): unknown {
  const copy = structuredClone(value);
  const paths = pathsOf(copy);
  const path = paths[m.at % paths.length] as (string | number)[];
  if (path.length === 0) return m.kind === 'wrap' ? [copy] : copy;
  const parent = path
    .slice(0, -1)
    .reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], copy) as Record<string | number, unknown>;
  const key = path.at(-1) as string | number;
  if (m.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  } else if (m.kind === 'set') parent[key] = ODD_VALUES[m.value % ODD_VALUES.length];
  else if (m.kind === 'wrap') parent[key] = [parent[key]];
  else {
    const target = parent[key];
    if (typeof target === 'object' && target !== null && !Array.isArray(target))
      (target as Record<string, unknown>)[m.key] = 1;
    else parent[key] = { [m.key]: target };
  }
  return copy;
}

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.nat() }),
  fc.record({
    kind: fc.constant('add-key' as const),
    at: fc.nat(),
    key: fc.constantFrom('extra', 'lat', 'name', 'x'),
  }),
  fc.record({ kind: fc.constant('wrap' as const), at: fc.nat() }),
);

describe('readerOf(LoadView): the board’s fast read of a load', () => {
  it('reads every load the proxy serves, a board’s and a whole one’s, as zod parses it', () => {
    expect(board.length).toBeGreaterThan(30);
    for (const view of [...board, ...whole]) {
      const read = readLoad(view);
      expect(read).not.toBe(UNSURE);
      expectSameAsZod(read, view);
    }
    // The samples hold what the fast read must know: stops with appointments, dark reasons, readings.
    const wholeText = JSON.stringify(whole);
    for (const field of ['"appointment"', '"dark"', '"readings"', '"etaInputs"', '"documents"'])
      expect(wholeText).toContain(field);
  });

  it('keeps what the proxy serves as it is: a board’s outlooks and places are not copied', () => {
    // The proxy writes its views' keys in the schema's order, so the page reads them without a copy
    // (the board's lists left out are filled in: only the load itself is a new object).
    let outlooks = 0;
    for (const view of board as Record<string, unknown>[]) {
      const read = readLoad(view) as Record<string, unknown>;
      for (const key of ['outlook', 'latestLocation', 'latestStatus', 'latestTemperature'])
        if (key in view) expect(read[key], key).toBe(view[key]);
      if (view.outlook) outlooks++;
    }
    expect(outlooks).toBeGreaterThan(30);
    for (const view of whole as Record<string, unknown>[]) {
      const read = readLoad(view) as Record<string, unknown>;
      for (const key of ['pings', 'events', 'documents', 'comments'])
        if (key in view) expect(read[key], key).toBe(view[key]);
    }
  });

  it('after any one odd change, reads the load as zod does, or leaves it to zod', () => {
    let read = 0;
    let left = 0;
    fc.assert(
      fc.property(fc.nat(), fc.array(mutation, { minLength: 1, maxLength: 3 }), (which, changes) => {
        const samples = which % 2 === 0 ? board : whole;
        let value = samples[which % samples.length];
        for (const m of changes) value = mutated(value, m);
        const fast = readLoad(value);
        if (fast === UNSURE) left++;
        else {
          read++;
          expectSameAsZod(fast, value);
        }
      }),
      { numRuns: 1500, seed: 42 },
    );
    // Both ways were taken: an optional field dropped is still read fast, a wrong type is zod's.
    expect(read).toBeGreaterThan(100);
    expect(left).toBeGreaterThan(100);
  }, 120_000);

  it('leaves to zod what zod refuses, and zod says why', () => {
    const view = board.find((v) => (v as { latestLocation?: unknown }).latestLocation) as Record<
      string,
      unknown
    >;
    const cases: unknown[] = [
      { ...view, surprise: true },
      { ...view, id: 7 },
      { ...view, latestLocation: { ...(view.latestLocation as object), lat: null } },
      { ...view, latestLocation: { ...(view.latestLocation as object), lat: Number.NaN } },
      { ...view, by: 'pallet-id' },
      { ...view, pings: null },
      [view],
      null,
    ];
    for (const value of cases) {
      expect(readLoad(value)).toBe(UNSURE);
      expect(LoadView.safeParse(value).success).toBe(false);
    }
  });

  it('fills a default afresh each time, as zod does', () => {
    const { id, by } = board[0] as { id: string; by: string };
    const a = readLoad({ id, by });
    const b = readLoad({ id, by });
    if (a === UNSURE || b === UNSURE) throw new Error('a load of an id alone is readable');
    expect(a.pings).toEqual([]);
    expect(a.pings).not.toBe(b.pings);
    expectSameAsZod(a, { id, by });
  });
});

describe('readPullAnswer', () => {
  it('reads the good loads fast and says which one it could not read, and why', () => {
    const broken = { ...(board[1] as object), latestLocation: { lat: 'north' } };
    const loads = [board[0], broken, ...board.slice(2)];
    const answer = { version: PULL_ANSWER_VERSION, cursor: 'c', loads, missing: ['700999'] };
    const read = readPullAnswer(answer, 0);
    expect(read.loads.map((l) => l.id)).toEqual(
      loads.filter((l) => l !== broken).map((l) => (l as { id: string }).id),
    );
    expect(read.unreadable.length).toBeGreaterThan(0);
    expect(read.unreadable.every((i) => i.path.startsWith('loads[1].latestLocation') && i.skipped)).toBe(
      true,
    );
    expect(read.missing).toEqual(['700999']);
  });
});

describe('pullWritten with parts: a board’s answer parsed a part at a time', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const envelope = { version: PULL_ANSWER_VERSION, cursor: 'c9', timeStamp: '11/27/2026 21:00:00 UTC' };
  /** As the proxy writes it (`ProxyPullAnswer`): each load on a line of its own. */
  const laidOut = (loads: string[], tail = '"missing":["x"]') =>
    `${JSON.stringify(envelope).slice(0, -1)},"loads":[${loads.map((l, i) => (i > 0 ? '\n,' : '\n') + l).join('')}\n],${tail}}`;
  const texts = board.map((l) => JSON.stringify(l));

  async function pullText(text: string, size: number) {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(text, { status: 200, headers: { 'Content-Type': 'application/json' } })),
    );
    const parsed: number[] = [];
    const parse = JSON.parse;
    vi.spyOn(JSON, 'parse').mockImplementation((t: string, r) => {
      parsed.push(t.length);
      return parse(t, r) as unknown;
    });
    const takes: { loads: number; parsedBefore: number }[] = [];
    const given: unknown[] = [];
    const read = await pullWritten('external-id', new WrittenJson({ ids: [] }, '{"ids":[]}'), undefined, {
      size,
      take(loads) {
        takes.push({ loads: loads.length, parsedBefore: parsed.length });
        given.push(...loads);
      },
    });
    vi.restoreAllMocks();
    // The answer holds every load; the parts gave its first ones, as read.
    expect(given).toEqual(read.loads.slice(0, given.length));
    return { read, takes, parsed, all: read.loads };
  }

  it('gives each part before the next is parsed, and reads what parsing the whole would', async () => {
    const text = laidOut(texts);
    const { read, takes, parsed, all } = await pullText(text, 7);
    const expected = readPullAnswer(JSON.parse(text) as never, 0);
    expect(all).toEqual(expected.loads);
    expect(read.missing).toEqual(['x']);
    expect(read.cursor).toBe('c9');
    // Parts of 7 out of 40: five given; part k was given after the envelope and k parts were parsed.
    expect(takes.map((t) => t.loads)).toEqual([7, 7, 7, 7, 7]);
    expect(takes.map((t) => t.parsedBefore)).toEqual([2, 3, 4, 5, 6]);
    expect(Math.max(...parsed)).toBeLessThan(text.length / 4);
  });

  it('reads an answer of no loads, and one not laid out by lines, as before', async () => {
    const none = await pullText(laidOut([]), 7);
    expect(none.all).toEqual([]);
    expect(none.read.missing).toEqual(['x']);
    const oneLine = JSON.stringify({ ...envelope, loads: board, missing: [] });
    const flat = await pullText(oneLine, 7);
    expect(flat.all).toEqual(readPullAnswer(JSON.parse(oneLine) as never, 0).loads);
  });

  it('falls back to the whole text when a part is not its lines’ loads, and names broken JSON', async () => {
    // Loads with a newline in their own whitespace: still JSON, but not one load a line. With parts
    // of 4 lines, the first sits inside the third part (which parses, to 3 loads), the second
    // across the fourth part's end (which does not).
    const odd = [...texts];
    for (const i of [9, 14]) odd[i] = odd[i]!.replace('{', '{\n');
    const text = laidOut(odd);
    const { all } = await pullText(text, 4);
    expect(all).toEqual(readPullAnswer(JSON.parse(text) as never, 0).loads);
    expect(all).toHaveLength(board.length);

    const broken = [...texts];
    broken[30] = broken[30]!.slice(0, -5);
    await expect(pullText(laidOut(broken), 4)).rejects.toMatchObject({ code: 'bad_json' });
  });
});
