import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import quirks from '@/testing/fixtures/by-external-id-quirks.json';
import { fastListItems, fastObjects, fastOptionalId } from './fast-items';
import { optionalId } from './fields';
import {
  detailLists,
  detailObjects,
  documentedFields,
  loadDetailFields,
  PullEnvelope,
  type DetailListName,
} from './load-detail';
import { issuesFromZod, joinPath, REPORT_INPUT, type ParseIssue } from './parse-issue';
import { parsePullAnswer, readBySchema, wrappedItem, wrappedItemNote, wrappedList } from './parse-pull';
import { isRecord } from './records';

/**
 * The fast readers must build exactly what the zod schemas build, or step aside: the same values,
 * the same keys in the same order (`undefined`-valued keys included). `shape` spells a value out
 * with its key order, so that `toStrictEqual` compares that too.
 */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (typeof value === 'object' && value !== null) {
    return {
      proto: Object.getPrototypeOf(value) === Object.prototype ? 'object' : 'other',
      entries: Object.keys(value).map((k) => [k, shape((value as Record<string, unknown>)[k])]),
    };
  }
  return value;
}

/** Checks one value; true when the fast reader took it. */
function agrees(schema: z.ZodType, fast: (x: unknown) => unknown, value: unknown): boolean {
  const quick = fast(value);
  if (quick === undefined) return false;
  const slow = schema.safeParse(value, REPORT_INPUT);
  expect(slow.success).toBe(true);
  if (slow.success) expect(shape(quick)).toStrictEqual(shape(slow.data));
  return true;
}

/** Runs `agrees` on arbitrary values, and checks that the fast way was not always declined. */
function assertAgreement(
  schema: z.ZodType,
  fast: (x: unknown) => unknown,
  values: fc.Arbitrary<unknown>,
  numRuns: number,
): void {
  let taken = 0;
  fc.assert(
    fc.property(values, (value) => {
      if (agrees(schema, fast, value)) taken++;
    }),
    { numRuns },
  );
  expect(taken).toBeGreaterThan(numRuns / 10);
}

// Values of each field kind: well-formed ones, the quirks the service is known for, and junk.
const junk = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(undefined, Number.NaN, Infinity, -0, 2 ** 53, 1.5, '', ' ', [], {}),
);
/** Mostly `good` values, sometimes the quirks and junk: the fast way must see both. */
const mostly = (good: fc.Arbitrary<unknown>, ...odd: fc.Arbitrary<unknown>[]) =>
  fc.oneof({ weight: 8, arbitrary: good }, ...odd.map((arbitrary) => ({ weight: 1, arbitrary })), {
    weight: 1,
    arbitrary: junk,
  });
const text = mostly(fc.string({ maxLength: 6 }), fc.constantFrom(null, undefined));
const decimal = fc
  .tuple(fc.integer({ min: -180, max: 180 }), fc.integer({ min: 0, max: 999_999 }))
  .map(([i, f]) => `${i}.${f}`);
const coordinate = mostly(decimal, fc.double(), fc.integer(), text);
const number = mostly(
  fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer()),
  decimal,
  fc.constantFrom('', 'abc', '1e3', ' 7 '),
  text,
);
const id = mostly(
  fc.oneof(fc.string({ maxLength: 4 }), fc.integer()),
  fc.constantFrom(2 ** 53, 1.5, -0),
  text,
);
const localTime = fc.constantFrom('11/22/2026 07:26:01 CST', '11/22/2026 07:26 CST', '2026-11-22 13:26:01');

/** An object of some of `fields` (in any order, some twice), and maybe undeclared ones. */
function objectOf(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  const entries = Object.entries(fields).map(([k, v]) => fc.tuple(fc.constant(k), v));
  const extra = fc.tuple(
    fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('__proto__', 'constructor', '0', 'speedKph')),
    fc.jsonValue({ maxDepth: 1 }),
  );
  const some = fc.array(fc.oneof({ weight: 6, arbitrary: fc.oneof(...entries) }, extra), { maxLength: 12 });
  // All declared fields, in order, as the service sends them: the common case of the fast path.
  const all = fc
    .tuple(...entries)
    .chain((full) => fc.array(extra, { maxLength: 1 }).map((more) => [...full, ...more]));
  // Object.fromEntries defines keys as own data properties, "__proto__" included, as JSON.parse does.
  return fc.oneof(some, all).map((list) => Object.fromEntries(list));
}

const driver = mostly(objectOf({ name: text, phoneNumber: text }));
const place = mostly(
  objectOf({ lat: coordinate, lon: coordinate, accuracy: number, city: text, state: text, country: text }),
);
const times = { timestampSec: mostly(localTime, text), timestamp: mostly(localTime, text) };

const items: Record<DetailListName, fc.Arbitrary<unknown>> = {
  locations: objectOf({
    lat: coordinate,
    lon: coordinate,
    deviceTimeGmt: mostly(localTime, text),
    accuracy: number,
    timestamp: times.timestamp,
    driver,
    driverPhoneNumber: text,
  }),
  events: objectOf({
    id,
    ...times,
    timestampUTC: text,
    timstampUTC: text,
    name: text,
    code: text,
    driver,
  }),
  comments: objectOf({
    comment: text,
    commentBy: mostly(fc.constantFrom('D', 'B'), fc.constantFrom('X', 'd'), text),
    ...times,
    timestampUTC: text,
    location: place,
    driver,
  }),
  documents: objectOf({
    type: text,
    timestamp: times.timestamp,
    url: mostly(fc.webUrl(), text),
    location: place,
    stopExternalId: id,
    stopOrderNumber: number,
    driver,
  }),
  temperatures: objectOf({
    deviceId: id,
    location: mostly(
      objectOf({ latitude: coordinate, longitutde: coordinate, longitude: coordinate, accuracy: number }),
    ),
    timestamp: times.timestamp,
    temperature: mostly(
      objectOf({
        zone1: mostly(objectOf({ supply: number, return: number, set: number })),
        UnitOfMeasurement: text,
      }),
    ),
  }),
};
const latest = {
  latestLocation: objectOf({
    lat: coordinate,
    lon: coordinate,
    accuracy: number,
    ...times,
    timestampUTC: text,
    city: text,
    state: text,
    country: text,
    driver,
  }),
  latestStatus: objectOf({ name: text, code: text, ...times, timestampUTC: text, driver }),
  latestTemperature: items.temperatures,
};

const anyValue = fc.oneof(
  fc.jsonValue(),
  fc.anything({ withNullPrototype: true, withBoxedValues: true, withDate: true, maxDepth: 2 }),
);

describe('fast item readers', () => {
  for (const name of Object.keys(items) as DetailListName[]) {
    it(`read ${name} items exactly as the schema does, or leave them to it`, () => {
      const values = fc.oneof({ weight: 4, arbitrary: items[name] }, anyValue);
      assertAgreement(detailLists[name], fastListItems[name], values, 1500);
    });
  }

  for (const name of Object.keys(latest) as (keyof typeof latest)[]) {
    it(`read ${name} exactly as the schema does, or leave it to it`, () => {
      const values = fc.oneof({ weight: 4, arbitrary: latest[name] }, anyValue);
      assertAgreement(detailObjects[name], fastObjects[name], values, 1000);
    });
  }

  it('read ids exactly as the schema does', () => {
    fc.assert(
      fc.property(fc.oneof(id, anyValue), (value) => {
        const quick = fastOptionalId(value);
        if (quick === undefined) return;
        const slow = optionalId.safeParse(value);
        expect(slow.success).toBe(true);
        expect(quick).toBe(slow.data ?? null);
      }),
    );
  });

  it('leave an item with none of its documented fields to the parser, which may find it wrapped', () => {
    const inner = {
      id: 5,
      name: 'Arrived',
      timestampUTC: '11/22/2026 10:00:00 UTC',
      comment: 'x',
      deviceId: 'R',
    };
    for (const name of ['events', 'comments', 'temperatures'] as const) {
      expect(fastListItems[name]({ data: inner }), name).toBeUndefined();
      expect(fastListItems[name]({}), name).toBeUndefined();
    }
    expect(fastObjects.latestStatus({ status: inner })).toBeUndefined();
    expect(fastObjects.latestTemperature({ reading: inner })).toBeUndefined();
    // One documented field, even null, is enough to be read as it stands.
    expect(fastListItems.events({ code: null, data: inner })).toEqual({
      code: undefined,
      data: inner,
      timestampUTC: undefined,
    });
  });

  it('take the fast way for the items the service sends', () => {
    const [first] = quirks.details as unknown as Record<string, unknown[]>[];
    expect(fastListItems.locations(first?.locations?.[0])).toBeDefined();
    expect(fastListItems.events(first?.events?.[1])).toBeDefined();
  });
});

/**
 * One item through its schema alone; an item wrapped one level deeper is read from inside when
 * its inside passes the schema.
 */
function readWithSchema(
  name: keyof typeof documentedFields,
  schema: z.ZodType,
  item: unknown,
  at: string,
  own: ParseIssue[],
): { data: unknown } | undefined {
  const wrapped = wrappedItem(item, documentedFields[name]);
  if (wrapped) {
    const inside: ParseIssue[] = [];
    const inner: unknown = readBySchema(schema, wrapped.item, joinPath(at, wrapped.key), inside);
    if (inner !== undefined) {
      own.push(wrappedItemNote(at, wrapped.key), ...inside);
      return { data: inner };
    }
  }
  const data: unknown = readBySchema(schema, item, at, own);
  return data === undefined ? undefined : { data };
}

/** The parser as it was before the fast readers: every item through its schema. */
function parseWithSchemasOnly(value: unknown) {
  const envelope = PullEnvelope.safeParse(value, REPORT_INPUT);
  if (!envelope.success) return { error: true };
  const issues: ParseIssue[] = [];
  const details: unknown[] = [];
  const detailIssues: ParseIssue[][] = [];
  (envelope.data.details ?? []).forEach((sent, i) => {
    let path = joinPath('details', i);
    const own: ParseIssue[] = [];
    let raw = sent;
    const wrapped = wrappedItem(sent, loadDetailFields);
    if (wrapped) {
      own.push(wrappedItemNote(path, wrapped.key));
      raw = wrapped.item;
      path = joinPath(path, wrapped.key);
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      own.push({ path, kind: 'wrong_type', message: 'expected a load detail object', skipped: true });
      issues.push(...own);
      return;
    }
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(raw)) {
      const at = joinPath(path, key);
      if (Object.hasOwn(detailLists, key)) {
        if (field === null || field === undefined) continue;
        // A list wrapped one level deeper is read from inside, as the service has sent `details`.
        const wrappedIn = isRecord(field) ? wrappedList(field) : undefined;
        if (wrappedIn) own.push(wrappedItemNote(at, wrappedIn.key));
        const items: unknown = wrappedIn ? wrappedIn.list : field;
        if (!Array.isArray(items)) {
          own.push({ path: at, kind: 'wrong_type', message: 'expected an array', skipped: true });
          continue;
        }
        const list: unknown[] = [];
        items.forEach((item, j) => {
          const name = key as DetailListName;
          const r = readWithSchema(name, detailLists[name], item, joinPath(at, j), own);
          if (r) list.push(r.data);
        });
        out[key] = list;
      } else if (Object.hasOwn(detailObjects, key)) {
        if (field === null || field === undefined) continue;
        const name = key as keyof typeof detailObjects;
        const r = readWithSchema(name, detailObjects[name], field, at, own);
        if (r) out[key] = r.data;
      } else if (['loadTrackExternalId', 'ltExternalId', 'loadNumber'].includes(key)) {
        const r = optionalId.safeParse(field, REPORT_INPUT);
        if (r.success) {
          if (r.data !== undefined) out[key] = r.data;
        } else own.push(...issuesFromZod(r.error, at, true));
      } else {
        Object.defineProperty(out, key, {
          value: field,
          enumerable: true,
          writable: true,
          configurable: true,
        });
        own.push({
          path: at,
          kind: 'unknown_field',
          message: `undocumented field "${key}" kept`,
          skipped: false,
        });
      }
    }
    if (['loadTrackExternalId', 'ltExternalId', 'loadNumber'].every((f) => out[f] === undefined)) {
      own.push({ path, kind: 'missing_id', message: 'load detail without any id skipped', skipped: true });
      issues.push(...own);
      return;
    }
    issues.push(...own);
    details.push(out);
    detailIssues.push(own);
  });
  return {
    data: { status: envelope.data.status, timeStamp: envelope.data.timeStamp, details, detailIssues },
    issues,
  };
}

describe('parsePullAnswer with the fast readers', () => {
  /** Mostly `item` as it is, sometimes wrapped one level deeper, alone or beside other fields. */
  const maybeWrapped = (item: fc.Arbitrary<unknown>) =>
    fc.oneof(
      { weight: 3, arbitrary: item },
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            fc.constantFrom('event', 'data', 'item'),
            item,
            fc.dictionary(fc.string(), junk, { maxKeys: 2 }),
          )
          .map(([key, inner, beside]) => ({ ...beside, [key]: inner })),
      },
    );
  const detail = fc.record(
    {
      loadTrackExternalId: fc.oneof(id, fc.integer({ min: 0 })),
      loadNumber: id,
      locations: fc.oneof(
        fc.array(fc.oneof(maybeWrapped(items.locations), anyValue), { maxLength: 4 }),
        junk,
      ),
      events: fc.array(fc.oneof(maybeWrapped(items.events), anyValue), { maxLength: 3 }),
      comments: fc.array(maybeWrapped(items.comments), { maxLength: 2 }),
      documents: fc.array(maybeWrapped(items.documents), { maxLength: 2 }),
      temperatures: fc.array(maybeWrapped(items.temperatures), { maxLength: 3 }),
      latestLocation: fc.oneof(maybeWrapped(latest.latestLocation), junk),
      latestStatus: maybeWrapped(latest.latestStatus),
      latestTemperature: maybeWrapped(latest.latestTemperature),
      stops: fc.jsonValue({ maxDepth: 1 }),
    },
    { requiredKeys: [] },
  );

  it('gives the same data and the same issues, with their paths and kinds, as the schemas alone', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof({ weight: 5, arbitrary: detail }, anyValue), { maxLength: 4 }),
        (details) => {
          const answer = { status: true, timeStamp: '11/22/2026 13:26:04 UTC', details };
          const fast = parsePullAnswer(answer);
          const slow = parseWithSchemasOnly(answer);
          expect('error' in fast).toBe(false);
          if ('error' in fast || 'error' in slow) return;
          expect(shape(fast.data)).toStrictEqual(shape(slow.data));
          expect(fast.issues).toStrictEqual(slow.issues);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('gives the same for the fixture with the known quirks', () => {
    const fast = parsePullAnswer(quirks);
    const slow = parseWithSchemasOnly(quirks);
    if ('error' in fast || 'error' in slow) throw new Error('not an envelope');
    expect(shape(fast.data)).toStrictEqual(shape(slow.data));
    expect(fast.issues).toStrictEqual(slow.issues);
  });
});
