/**
 * A 53-bit fingerprint of a JSON value (what `JSON.parse` gives): equal values, keys in the same
 * order, give equal prints. It lets a caller tell an answer's part it read before from one that
 * changed without reading it again, and it makes no copy nor string: the puller prints every load of
 * every refresh, and a copy per load would be the very garbage it saves.
 */
export function jsonPrint(value: unknown): number {
  const h = { a: SEED_A, b: SEED_B };
  mix(h, value);
  // Two 32-bit lanes, 32 + 21 bits of them: a double holds 53 exactly.
  return printOf(h);
}

const SEED_A = 0x811c9dc5;
const SEED_B = 0x9e3779b9;
/** A tag per kind of value and per structure mark, so that `[1]` and `"1"`, `{}` and `[]` differ. */
const Tag = {
  Null: 1,
  False: 2,
  True: 3,
  Int: 4,
  Double: 5,
  String: 6,
  ArrayStart: 7,
  ArrayEnd: 8,
  ObjectStart: 9,
  ObjectEnd: 10,
  Key: 11,
} as const;

const doubleBits = new Float64Array(1);
const doubleWords = new Uint32Array(doubleBits.buffer);

function step(h: { a: number; b: number }, word: number): void {
  // Each lane folds its high bits down after the multiply, which only carries bits upward: without
  // it a word's top bit (a number's sign) would stay in the lane's top bit, and two sign flips cancel.
  h.a = Math.imul(h.a ^ word, 0x01000193);
  h.a ^= h.a >>> 13;
  h.b = Math.imul(h.b ^ word, 0x5bd1e995);
  h.b ^= h.b >>> 15;
}

/** The 53-bit print of the two lanes, each mixed through (murmur3's finalizer) first. */
function printOf(h: { a: number; b: number }): number {
  return (finish(h.a ^ h.b) >>> 0) * 2 ** 21 + (finish(h.b + 0x7f4a7c15) >>> 11);
}

function finish(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  return x ^ (x >>> 16);
}

function mixString(h: { a: number; b: number }, s: string): void {
  step(h, s.length);
  for (let i = 0; i < s.length; i++) step(h, s.charCodeAt(i));
}

function mix(h: { a: number; b: number }, value: unknown): void {
  if (value === null || value === undefined) step(h, Tag.Null);
  else if (value === false) step(h, Tag.False);
  else if (value === true) step(h, Tag.True);
  else if (typeof value === 'number') {
    if ((value | 0) === value && !Object.is(value, -0)) {
      step(h, Tag.Int);
      step(h, value);
    } else {
      doubleBits[0] = value;
      step(h, Tag.Double);
      step(h, doubleWords[0] as number);
      step(h, doubleWords[1] as number);
    }
  } else if (typeof value === 'string') {
    step(h, Tag.String);
    mixString(h, value);
  } else if (Array.isArray(value)) {
    step(h, Tag.ArrayStart);
    for (let i = 0; i < value.length; i++) mix(h, value[i]);
    step(h, Tag.ArrayEnd);
  } else if (typeof value === 'object') {
    step(h, Tag.ObjectStart);
    const record = value as Record<string, unknown>;
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      step(h, Tag.Key);
      mixString(h, key);
      mix(h, record[key]);
    }
    step(h, Tag.ObjectEnd);
  } else step(h, Tag.Null);
}

/**
 * A 53-bit fingerprint of bytes `start` to `end` (a JSON value's text as it came): the same bytes
 * give the same print. Cheaper than `jsonPrint`, and no text is decoded for it.
 */
export function bytesPrint(bytes: Uint8Array, start: number, end: number): number {
  const h = { a: SEED_A, b: SEED_B };
  step(h, end - start);
  for (let i = start; i < end; i++) step(h, bytes[i] as number);
  return printOf(h);
}
