import * as z from 'zod/mini';
import './zod-locale';

/** `GET /api/diagnostics`: the drift report, and the service's state as the proxy knows it. */

/** One line of the drift report: where answers departed from the documented interface. */
export const DriftEntry = z.object({
  operation: z.string(),
  /** JSON path with indexes folded: `details[].locations[].lat`. */
  path: z.string(),
  kind: z.string(),
  count: z.number(),
  /** Whether data was dropped because of it, or merely noted. */
  skipped: z.boolean(),
  /** Only the field was dropped: its items were kept without it. */
  keptItem: z.optional(z.boolean()),
  example: z.string(),
  firstSeen: z.string(),
  lastSeen: z.string(),
});
export type DriftEntry = z.infer<typeof DriftEntry>;

/** `GET /api/diagnostics`. */
/**
 * The service's state as the proxy knows it from its own calls: the last answer that worked, the
 * last failure, a 429's wait, and whether calls are paused after repeated failures. Times are ISO.
 */
export const UpstreamState = z.object({
  /** The last 2xx answer. */
  lastSuccessAt: z.nullable(z.string()),
  /** The last call that failed (the proxy's code and message; never a credential). */
  lastError: z.nullable(z.object({ at: z.string(), code: z.string(), message: z.string() })),
  /** Set while a 429 keeps the proxy from calling: its `Retry-After` and the time calls resume. */
  rateLimited: z.nullable(z.object({ retryAfterSeconds: z.number(), until: z.string() })),
  consecutiveFailures: z.number(),
  /** Failures in a row after which calls are paused (they fail fast, then one probe goes through). */
  pauseAfterFailures: z.number(),
  /** Set while calls are paused: until when. */
  pausedUntil: z.nullable(z.string()),
});
export type UpstreamState = z.infer<typeof UpstreamState>;

export const Diagnostics = z.object({
  since: z.string(),
  answersRead: z.number(),
  entries: z.array(DriftEntry),
  /** The service's state (absent from a proxy older than this field). */
  upstream: z.optional(UpstreamState),
});
export type Diagnostics = z.infer<typeof Diagnostics>;
