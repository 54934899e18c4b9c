/**
 * The order of `JSON.stringify(a)` and `JSON.stringify(b)` as strings, found by walking both values
 * side by side and stopping at the first difference, instead of writing both out. Merging compares
 * two versions of an item this way (see `pick` in merge.ts), and in a big answer it does so tens of
 * thousands of times, mostly on versions that differ in one number or not at all.
 *
 * Only plain data is walked (plain objects, arrays, strings, numbers, booleans, null); for anything
 * else (a `toJSON`, a class instance, a bigint, a cycle, a value with no JSON text) the answer is
 * `undefined` and the caller compares the strings themselves. One object met twice (shared by two
 * items) is taken as one text without reading it again. `json-order.test.ts` checks
 * the walk against the strings on arbitrary values.
 */

/** "Cannot tell cheaply." */
const UNKNOWN = 2;
/**
 * A value whose text is a proper prefix of the other's (only numbers: "12" and "12.5") cannot be
 * ordered alone: what follows it in its container decides. Such a result is returned as
 * `PREFIX + next` (a's text is the prefix; `next` is the character code that follows it in b's
 * text) or `-(PREFIX + next)` (b's text is the prefix; `next` follows it in a's text).
 */
const PREFIX = 1000;
const MAX_DEPTH = 64;

const COMMA = 44;
const CLOSE_BRACE = 125;
const CLOSE_BRACKET = 93;

/** -1, 0 or 1 as `JSON.stringify(a)` sorts before, equal to or after `JSON.stringify(b)`; undefined when unknown. */
export function compareJson(a: unknown, b: unknown): -1 | 0 | 1 | undefined {
  // `undefined`, a function or a symbol has no JSON text at all.
  if (isNothing(a) || isNothing(b) || prototypeHasKeys()) return undefined;
  const order = compareValues(a, b, 0);
  // A whole text that is a prefix of the other ("1" and "12") sorts first.
  if (order >= PREFIX) return -1;
  if (order <= -PREFIX) return 1;
  return order === -1 || order === 0 || order === 1 ? order : undefined;
}

/** A plain object or an array, serialized as such (no `toJSON`). */
function isContainer(v: unknown): v is object {
  if (typeof v !== 'object' || v === null) return false;
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(v)) return true;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Omitted as an object member (written `null` as an array element). */
function isNothing(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

/** The JSON text of a value that is not a container, or undefined when it has none here. */
function leafText(v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object':
      return v === null ? 'null' : undefined;
    default:
      return undefined;
  }
}

function compareTexts(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca !== cb) return ca < cb ? -1 : 1;
  }
  return a.length < b.length ? PREFIX + b.charCodeAt(n) : -(PREFIX + a.charCodeAt(n));
}

/** Resolves a prefix result by what follows each value in its container (`afterA`, `afterB`). */
function resolve(order: number, afterA: number, afterB: number): number {
  if (order >= PREFIX) {
    const next = order - PREFIX;
    return afterA === next ? UNKNOWN : afterA < next ? -1 : 1;
  }
  if (order <= -PREFIX) {
    const next = -order - PREFIX;
    return afterB === next ? UNKNOWN : next < afterB ? -1 : 1;
  }
  return order;
}

/** Compares two values that stand where a value is written (a member's value or an element). */
function compareValues(a: unknown, b: unknown, depth: number): number {
  // One value twice (a string, a number, or one plain object that two items share) is one text.
  if (a === b && (typeof a !== 'object' || isContainer(a))) return typeof a === 'bigint' ? UNKNOWN : 0;
  const ca = typeof a === 'object' && a !== null;
  const cb = typeof b === 'object' && b !== null;
  if (ca || cb) {
    if (depth >= MAX_DEPTH) return UNKNOWN;
    if (ca && !isContainer(a)) return UNKNOWN;
    if (cb && !isContainer(b)) return UNKNOWN;
    if (ca && cb) {
      const arrayA = Array.isArray(a);
      const arrayB = Array.isArray(b);
      if (arrayA && arrayB) return compareArrays(a, b, depth + 1);
      if (!arrayA && !arrayB) return compareObjects(a as object, b as object, depth + 1);
      // "[" sorts before "{".
      return arrayA ? -1 : 1;
    }
    // A container against a leaf: the first characters differ ("{" or "[" against a leaf's).
    const text = leafText(ca ? b : a);
    if (text === undefined) return UNKNOWN;
    const first = ca ? (Array.isArray(a) ? 91 : 123) : text.charCodeAt(0);
    const other = ca ? text.charCodeAt(0) : Array.isArray(b) ? 91 : 123;
    return first < other ? -1 : 1;
  }
  const ta = leafText(a);
  const tb = leafText(b);
  if (ta === undefined || tb === undefined) return UNKNOWN;
  return compareTexts(ta, tb);
}

function compareArrays(a: unknown[], b: unknown[], depth: number): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const va = isNothing(a[i]) ? null : a[i];
    const vb = isNothing(b[i]) ? null : b[i];
    let order = compareValues(va, vb, depth);
    if (order === 0) continue;
    if (order >= PREFIX || order <= -PREFIX) {
      order = resolve(
        order,
        i + 1 < a.length ? COMMA : CLOSE_BRACKET,
        i + 1 < b.length ? COMMA : CLOSE_BRACKET,
      );
    }
    return order;
  }
  if (a.length === b.length) return 0;
  // One ended ("]") where the other goes on: after an element with ",", in an empty array with its
  // first element, which would need a look at that element.
  if (n === 0) return UNKNOWN;
  return a.length < b.length ? 1 : -1;
}

/**
 * The own enumerable keys of a plain object, in `Object.keys` order, written into a reused array
 * (one pair per depth of the walk) instead of a new one: a merge compares tens of thousands of
 * items. `for...in` also lists inherited enumerable keys, which a plain object has none of unless
 * `Object.prototype` was given some; `compareJson` gives up then. Returns how many there are.
 */
function ownKeys(o: object, into: string[]): number {
  let n = 0;
  for (const key in o) into[n++] = key;
  return n;
}

/** Whether `Object.prototype` has enumerable keys, which `for...in` would list for every object. */
function prototypeHasKeys(): boolean {
  for (const _ in Object.prototype) return true;
  return false;
}
const keysA: string[][] = [];
const keysB: string[][] = [];

/** The index of the next member at or after `i` that JSON text writes (value not omitted). */
function nextMember(o: Record<string, unknown>, keys: string[], count: number, i: number): number {
  while (i < count && isNothing(o[keys[i] as string])) i++;
  return i;
}

function compareObjects(a: object, b: object, depth: number): number {
  const oa = a as Record<string, unknown>;
  const ob = b as Record<string, unknown>;
  const ka = (keysA[depth] ??= []);
  const kb = (keysB[depth] ??= []);
  const na = ownKeys(oa, ka);
  const nb = ownKeys(ob, kb);
  let i = 0;
  let j = 0;
  for (;;) {
    // The next members written, each value read once.
    let va: unknown;
    let vb: unknown;
    while (i < na && isNothing((va = oa[ka[i] as string]))) i++;
    while (j < nb && isNothing((vb = ob[kb[j] as string]))) j++;
    const endA = i >= na;
    const endB = j >= nb;
    // "}" sorts after both "," and '"', whatever comes next in the other.
    if (endA || endB) return endA && endB ? 0 : endA ? 1 : -1;
    const keyA = ka[i] as string;
    const keyB = kb[j] as string;
    if (keyA !== keyB) {
      // Quoted keys are never a prefix of one another, so the texts of the keys decide.
      const order = compareTexts(JSON.stringify(keyA), JSON.stringify(keyB));
      return order === -1 || order === 1 ? order : UNKNOWN;
    }
    const order = compareValues(va, vb, depth);
    i++;
    j++;
    if (order === 0) continue;
    if (order >= PREFIX || order <= -PREFIX) {
      const afterA = nextMember(oa, ka, na, i) < na ? COMMA : CLOSE_BRACE;
      const afterB = nextMember(ob, kb, nb, j) < nb ? COMMA : CLOSE_BRACE;
      return resolve(order, afterA, afterB);
    }
    return order;
  }
}
