import * as z from 'zod/mini';
import './zod-locale';

/**
 * The lenient field schemas of `fields.ts` that the page needs too (errors.ts, webhook.ts), written
 * with `zod/mini` so that the page's bundle carries no classic zod. Same behaviour as there.
 */

/** A value that may arrive as `null` or be missing: absent either way. */
export function orAbsent<T extends z.core.SomeType>(schema: T) {
  return z.pipe(
    z.nullish(schema),
    z.transform((v: z.output<T> | null | undefined) => v ?? undefined),
  );
}

/** A documented string that may arrive as `null` or be missing: absent either way. */
export const text = orAbsent(z.string());
