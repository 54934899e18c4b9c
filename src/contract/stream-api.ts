import * as z from 'zod/mini';
import './zod-locale';

/** `GET /api/stream`: the Server-Sent Events of changes, and the query that resumes them. */

/**
 * The data of a `change` event of `GET /api/stream`: the keys (`e:9001`, `n:LN-4`) of the loads that
 * changed, which the page then pulls with its cursor; or `all`, when too many changed to list.
 */
export const StreamChange = z.union([
  z.strictObject({ loads: z.array(z.string()) }),
  z.strictObject({ all: z.literal(true) }),
]);
export type StreamChange = z.infer<typeof StreamChange>;

/** `?lastEventId=` of `GET /api/stream` (the `Last-Event-ID` header says the same). */
export const StreamQuery = z.strictObject({ lastEventId: z.optional(z.string().check(z.maxLength(200))) });
