/**
 * Finds, in a pull answer's bytes (UTF-8 JSON), where each load detail's text lies, without
 * decoding or parsing it: a caller that recognises a detail it read before (by its print) skips
 * it, and only the details that changed are decoded and parsed. JSON's structure is ASCII, so the
 * bytes are scanned as they are. Undefined for any shape it is not sure of (no `details` array, a
 * key written with escapes, text cut off): the caller then reads the answer whole.
 */
export interface PullSplit {
  /** Where the `details` array's text begins and ends. */
  start: number;
  end: number;
  /** Each detail's text, in order. */
  details: { start: number; end: number }[];
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

function space(b: Uint8Array, i: number): number {
  while (i < b.length && (b[i] === 0x20 || b[i] === 0x0a || b[i] === 0x0d || b[i] === 0x09)) i++;
  return i;
}

/** Past the closing quote of the string opening at `i`; -1 when cut off. */
function stringEnd(b: Uint8Array, i: number): number {
  for (i++; i < b.length; i++) {
    const c = b[i];
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i + 1;
  }
  return -1;
}

/** Past the value beginning at `i`; -1 when cut off. */
function valueEnd(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c === QUOTE) return stringEnd(b, i);
  if (c === LBRACE || c === LBRACKET) {
    let depth = 0;
    for (; i < b.length; i++) {
      const d = b[i];
      if (d === QUOTE) {
        const end = stringEnd(b, i);
        if (end < 0) return -1;
        i = end - 1;
      } else if (d === LBRACE || d === LBRACKET) depth++;
      else if ((d === RBRACE || d === RBRACKET) && --depth === 0) return i + 1;
    }
    return -1;
  }
  const from = i;
  while (i < b.length && b[i]! > 0x20 && b[i] !== COMMA && b[i] !== RBRACE && b[i] !== RBRACKET) i++;
  return i > from ? i : -1;
}

/** Whether bytes `start` to `end` hold an escape. */
function escaped(b: Uint8Array, start: number, end: number): boolean {
  for (let k = start; k < end; k++) if (b[k] === BACKSLASH) return true;
  return false;
}

/** Whether bytes `start` to `end` are `text` (ASCII). */
export function bytesAre(b: Uint8Array, start: number, end: number, text: string): boolean {
  if (end - start !== text.length) return false;
  for (let k = 0; k < text.length; k++) if (b[start + k] !== text.charCodeAt(k)) return false;
  return true;
}

/**
 * Calls `each(keyStart, keyEnd, valueStart, valueEnd)` for each member of the object opening at
 * `i` (the key without its quotes); past the object, or -1 when it is not a plain object (a key
 * with escapes, cut off).
 */
function objectMembers(
  b: Uint8Array,
  i: number,
  each: (keyStart: number, keyEnd: number, valueStart: number, valueEnd: number) => void,
): number {
  if (b[i] !== LBRACE) return -1;
  i = space(b, i + 1);
  if (b[i] === RBRACE) return i + 1;
  for (;;) {
    if (b[i] !== QUOTE) return -1;
    const keyEnd = stringEnd(b, i);
    if (keyEnd < 0 || escaped(b, i + 1, keyEnd - 1)) return -1;
    const colon = space(b, keyEnd);
    if (b[colon] !== COLON) return -1;
    const value = space(b, colon + 1);
    const end = valueEnd(b, value);
    if (end < 0) return -1;
    each(i + 1, keyEnd - 1, value, end);
    i = space(b, end);
    if (b[i] === COMMA) i = space(b, i + 1);
    else if (b[i] === RBRACE) return i + 1;
    else return -1;
  }
}

/**
 * Where the value of `key` begins in the object whose text begins at `i` (its last one, as
 * JSON.parse keeps); -1 when it has none, -2 when the object is not plain (then read it whole).
 */
export function memberAt(b: Uint8Array, i: number, key: string): number {
  if (b[i] !== LBRACE) return -2;
  let at = -1;
  i = space(b, i + 1);
  if (b[i] === RBRACE) return at;
  for (;;) {
    if (b[i] !== QUOTE) return -2;
    const keyEnd = stringEnd(b, i);
    if (keyEnd < 0 || escaped(b, i + 1, keyEnd - 1)) return -2;
    const colon = space(b, keyEnd);
    if (b[colon] !== COLON) return -2;
    const value = space(b, colon + 1);
    const end = valueEnd(b, value);
    if (end < 0) return -2;
    if (bytesAre(b, i + 1, keyEnd - 1, key)) at = value;
    i = space(b, end);
    if (b[i] === COMMA) i = space(b, i + 1);
    else if (b[i] === RBRACE) return at;
    else return -2;
  }
}

/** Past the JSON value whose text begins at `i`; -1 when cut off. */
export function valueEndAt(b: Uint8Array, i: number): number {
  return valueEnd(b, i);
}

/** Where a pull answer's details lie; undefined when not sure (read the answer whole). */
export function splitPullAnswer(b: Uint8Array): PullSplit | undefined {
  let found: PullSplit | undefined;
  let sure = true;
  const start = space(b, 0);
  const end = objectMembers(b, start, (keyStart, keyEnd, value, valueEnd_) => {
    if (!bytesAre(b, keyStart, keyEnd, 'details')) return;
    // Twice: JSON.parse would keep the last one; not worth telling apart.
    const details = !found && b[value] === LBRACKET ? elements(b, value, valueEnd_) : undefined;
    if (details) found = { start: value, end: valueEnd_, details };
    else sure = false;
  });
  if (end < 0 || space(b, end) !== b.length || !sure) return undefined;
  return found;
}

/** The elements of the array from `start` to `end`; undefined when not plainly an array. */
function elements(b: Uint8Array, start: number, end: number): { start: number; end: number }[] | undefined {
  const out: { start: number; end: number }[] = [];
  let i = space(b, start + 1);
  if (i === end - 1 && b[i] === RBRACKET) return out;
  for (;;) {
    const e = valueEnd(b, i);
    if (e < 0 || e > end) return undefined;
    out.push({ start: i, end: e });
    i = space(b, e);
    if (b[i] === COMMA) i = space(b, i + 1);
    else return b[i] === RBRACKET && i === end - 1 ? out : undefined;
  }
}
