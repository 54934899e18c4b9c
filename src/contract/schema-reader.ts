import type * as z from 'zod/mini';

/** What a schema reader answers when it cannot vouch for a value: the schema itself must read it. */
export const UNSURE: unique symbol = Symbol('unsure');

type Read = (value: unknown) => unknown;

/**
 * A fast reader of the values a zod schema accepts, made from the schema itself (one schema per
 * shape): for a value the schema accepts, it returns what the schema's parse would (the same keys in
 * the same order, defaults filled in, unknown keys of a plain object dropped); for anything else, or
 * any part of a schema it does not know (checks, refinements, transforms, unions), `UNSURE`, and the
 * caller parses with the schema, which says what is wrong. Why: the page's zod parse of a board's
 * 10,000 loads was most of the time from its answer to its map (docs/performance-log.md); zod's own
 * compiled parsers need `eval`, which the page's Content-Security-Policy forbids.
 */
export function readerOf<S extends z.core.$ZodType>(
  schema: S,
): (value: unknown) => z.output<S> | typeof UNSURE {
  const read = compile(schema);
  return read as (value: unknown) => z.output<S> | typeof UNSURE;
}

interface Def {
  type: string;
  checks?: unknown[];
  innerType?: z.core.$ZodType;
  element?: z.core.$ZodType;
  shape?: Record<string, z.core.$ZodType>;
  catchall?: z.core.$ZodType;
  entries?: Record<string, unknown>;
  fn?: (value: unknown) => unknown;
  readonly defaultValue?: unknown;
}

const defOf = (schema: z.core.$ZodType) => schema._zod.def as unknown as Def;
const never: Read = () => UNSURE;

function compile(schema: z.core.$ZodType): Read {
  const def = defOf(schema);
  // A custom schema is a check of its own; any other with checks (lengths, ranges, refinements) is left to zod.
  if (def.type !== 'custom' && def.checks && def.checks.length > 0) return never;
  switch (def.type) {
    case 'string':
      return (v) => (typeof v === 'string' ? v : UNSURE);
    case 'number':
      return (v) => (typeof v === 'number' && Number.isFinite(v) ? v : UNSURE);
    case 'boolean':
      return (v) => (typeof v === 'boolean' ? v : UNSURE);
    case 'enum': {
      const values = new Set(Object.values(def.entries ?? {}));
      return (v) => (values.has(v) ? v : UNSURE);
    }
    case 'nullable': {
      const inner = compile(def.innerType as z.core.$ZodType);
      return (v) => (v === null ? null : inner(v));
    }
    case 'optional':
    case 'default': {
      // Inside an object an absent key is handled there; a value that is undefined is left to zod.
      const inner = compile(def.innerType as z.core.$ZodType);
      return (v) => (v === undefined ? UNSURE : inner(v));
    }
    case 'array': {
      const element = compile(def.element as z.core.$ZodType);
      return (v) => {
        if (!Array.isArray(v)) return UNSURE;
        // Copied only from the first element read to another value: a valid array is its own read.
        let out: unknown[] | undefined;
        for (let i = 0; i < v.length; i++) {
          const value: unknown = v[i];
          const read = element(value);
          if (read === UNSURE) return UNSURE;
          if (out) out[i] = read;
          else if (read !== value) {
            out = v.slice(0, i);
            out[i] = read;
          }
        }
        return out ?? v;
      };
    }
    case 'custom': {
      const fn = def.fn;
      if (!fn || (def.checks && def.checks.some((c) => c !== schema))) return never;
      return (v) => {
        const ok = fn(v);
        return ok instanceof Promise || !ok ? UNSURE : v;
      };
    }
    case 'object':
      return compileObject(def);
    default:
      return never;
  }
}

/** How an object's key reads when it is absent. */
type Absent = 'omit' | 'default' | 'required';

function compileObject(def: Def): Read {
  const shape = def.shape ?? {};
  const catchall = def.catchall === undefined ? undefined : defOf(def.catchall).type;
  // A strict object refuses unknown keys, a plain one drops them; any other catchall is zod's.
  if (catchall !== undefined && catchall !== 'never') return never;
  const strict = catchall === 'never';
  const keys = Object.keys(shape);
  const fields = keys.map((key) => {
    const field = shape[key] as z.core.$ZodType;
    const type = defOf(field).type;
    const absent: Absent = type === 'optional' ? 'omit' : type === 'default' ? 'default' : 'required';
    return { key, read: compile(field), absent, def: defOf(field) };
  });
  const known = new Set(keys);
  const hasUnknown = (input: Record<string, unknown>) => {
    for (const key in input) if (!known.has(key)) return true;
    return false;
  };
  /** The fields before `end` that the input has, in the schema's order (each read to itself). */
  const copyOf = (input: Record<string, unknown>, end: number) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < end; i++) {
      const key = (fields[i] as (typeof fields)[number]).key;
      if (key in input) out[key] = input[key];
    }
    return out;
  };
  return (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return UNSURE;
    const input = v as Record<string, unknown>;
    // A valid answer's objects are their own reads: a new object is made only from the first field
    // that reads otherwise (a default filled in, a value read to another), not for each of 20,000 pings.
    let out: Record<string, unknown> | undefined;
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i] as (typeof fields)[number];
      if (field.key in input) {
        const value = input[field.key];
        const read = field.read(value);
        if (read === UNSURE) return UNSURE;
        if (out) out[field.key] = read;
        else if (read !== value) {
          out = copyOf(input, i);
          out[field.key] = read;
        }
      } else if (field.absent === 'default') {
        out ??= copyOf(input, i);
        out[field.key] = field.def.defaultValue;
      } else if (field.absent === 'required') return UNSURE;
    }
    if (out) return strict && hasUnknown(input) ? UNSURE : out;
    // Read as it is, the input is the read when its keys are the schema's, in the schema's order.
    let next = 0;
    for (const key in input) {
      while (next < fields.length && (fields[next] as (typeof fields)[number]).key !== key) next++;
      if (next === fields.length) return strict && hasUnknown(input) ? UNSURE : copyOf(input, fields.length);
      next++;
    }
    return input;
  };
}
