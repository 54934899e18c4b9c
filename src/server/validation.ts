import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { z } from 'zod';
import { FORBIDDEN_PULL_FIELDS } from '@/contract/proxy-api';
import { ProxyError } from './errors';

/**
 * Validates a request part with a zod schema, classic or mini (`contract/proxy-api.ts` is mini); a
 * failure becomes a 400 that names each field.
 * Unknown fields are named too, and fields only the proxy may set get their own code.
 */
export function validate<T extends z.core.$ZodType, Target extends keyof ValidationTargets>(
  target: Target,
  schema: T,
) {
  return zValidator(target, schema, (result) => {
    if (result.success) {
      // One native pass (JSON writes U+0000 as \u0000, and a typed "\u0000" so too) before any
      // walk: a board's pull holds 10,000 ids.
      const at = JSON.stringify(result.data)?.includes('\\u0000') ? nulAt(result.data, []) : undefined;
      if (at !== undefined) throw nulRefused(at.join('.') || '(body)');
      return;
    }
    const details = result.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.') || '(body)',
      message: issue.message,
      ...(issue.code === 'unrecognized_keys' ? { keys: issue.keys } : {}),
    }));
    const forbidden = result.error.issues.flatMap((i) =>
      i.code === 'unrecognized_keys'
        ? i.keys.filter((k) => (FORBIDDEN_PULL_FIELDS as readonly string[]).includes(k))
        : [],
    );
    if (forbidden.length > 0) {
      throw new ProxyError(
        400,
        'forbidden_field',
        `${forbidden.join(', ')} may not be set by the browser: the proxy adds credentials and addresses itself`,
        details,
      );
    }
    const summary = details
      .map((d) =>
        'keys' in d && d.keys
          ? `unknown field(s) ${d.keys.map((k) => `"${k}"`).join(', ')}`
          : `${d.path}: ${d.message}`,
      )
      .join('; ');
    throw new ProxyError(400, 'invalid_request', summary, details);
  });
}

/** The path of the first text holding U+0000, which PostgreSQL cannot keep in a text. */
function nulAt(value: unknown, path: (string | number)[]): (string | number)[] | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const at = nulAt(value[i], [...path, i]);
      if (at) return at;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, field] of Object.entries(value)) {
      const at = nulAt(field, [...path, key]);
      if (at) return at;
    }
  }
  return undefined;
}

/** The 400 for a text holding the NUL character (U+0000), naming where. */
function nulRefused(path: string): ProxyError {
  const message = 'a text may not hold the NUL character (U+0000)';
  return new ProxyError(400, 'invalid_request', `${path}: ${message}`, [{ path, message }]);
}
