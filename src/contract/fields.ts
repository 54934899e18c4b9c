import { z } from 'zod';

/**
 * Field schemas shared by the received (lenient) wire shapes.
 * The real service sends `null` where strings are documented and integers where ids are strings,
 * so received fields accept both and normalize: `null` becomes absent, ids become strings.
 */

/** A documented string that may arrive as `null` or be missing: absent either way. */
export const text = z
  .string()
  .nullish()
  .transform((v) => v ?? undefined);

/**
 * A code or a type name (a status's code, a document's type): text as documented, but a number is
 * read as its text (`214`), since it names the same thing.
 */
export const codeText = z
  .union([z.string(), z.number().refine(Number.isFinite)])
  .nullish()
  .transform((v) => (v === null || v === undefined ? undefined : String(v)));

/** An id the service may send as string or integer; always a string afterwards. */
export const id = z.union([z.string(), z.number().int()]).transform((v) => String(v));
export const optionalId = id.nullish().transform((v) => v ?? undefined);

/**
 * A number that may arrive as `null`, missing, or as a numeric string. Other text is refused, so
 * that the field is dropped with a note rather than silently.
 */
export const optionalNumber = z
  .union([
    z.number(),
    z.string().refine((v) => v.trim() === '' || Number.isFinite(Number(v)), 'not a number'),
  ])
  .nullish()
  .transform((v) => {
    if (v === null || v === undefined || v === '') return undefined;
    const n = typeof v === 'number' ? v : Number(v);
    return Number.isFinite(n) ? n : undefined;
  });

/**
 * A coordinate as sent: documented as a string, sometimes a number. Kept as text here; the domain
 * turns it into a number and range-checks it, so one bad coordinate drops one point, not the load.
 */
export const coordinate = z.union([z.string(), z.number()]).transform((v) => String(v));
export const optionalCoordinate = coordinate.nullish().transform((v) => v ?? undefined);

export const Driver = z.looseObject({
  name: text,
  phoneNumber: text,
});
export type Driver = z.infer<typeof Driver>;

/** `driver` is optional wherever it appears; a malformed one is dropped with a note (`readBySchema`). */
export const optionalDriver = Driver.nullish().transform((v) => v ?? undefined);
