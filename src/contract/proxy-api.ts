import { z } from 'zod';

/**
 * The proxy's own interface (ARCHITECTURE.md, "The proxy's own interface"): what the browser sends
 * to `/api/*` and what it gets back. Shared by the server, which validates with it, and the SPA,
 * which builds requests and parses answers with it.
 */

/** One id as a browser may send it: trimmed, non-empty, at most 64 printable characters. */
export const LoadId = z
  .string({ error: 'each id must be a string' })
  .trim()
  .min(1, 'an id must not be empty')
  .max(64, 'an id must be at most 64 characters')
  .regex(/^[\x20-\x7e]+$/, 'an id may hold printable characters only');

export const IncludeFlags = z.strictObject({
  locations: z.boolean().optional(),
  events: z.boolean().optional(),
  documents: z.boolean().optional(),
  comments: z.boolean().optional(),
  /**
   * The proxy's own flag (the service has none): a reefer's readings list. The latest reading comes
   * anyway. Views of many loads leave the list out: 10,000 reefers' readings are tens of megabytes.
   */
  temperatures: z.boolean().optional(),
  /**
   * The proxy's own flag: a load's undocumented fields (stops, say) and the notes that say they were
   * kept. Views of many loads show neither, and leave them out: 10,000 loads' stops and notes are a
   * third of a board's answer.
   */
  extras: z.boolean().optional(),
});
export type IncludeFlags = z.infer<typeof IncludeFlags>;

/** Fields a browser must never set: the proxy owns credentials and the upstream's address. */
export const FORBIDDEN_PULL_FIELDS = [
  'partnerId',
  'accountId',
  'url',
  'baseUrl',
  'upstream',
  'sendNewData',
] as const;

/** `POST /api/pull/by-*` body. `maxIds` comes from config (`MAX_IDS`). Duplicates are folded. */
export function pullQuerySchema(maxIds: number) {
  return z.strictObject({
    ids: z
      .array(LoadId, { error: 'ids must be an array of strings' })
      .min(1, 'ids must hold at least one id')
      .max(maxIds, `ids may hold at most ${maxIds} ids`)
      .transform((ids) => [...new Set(ids)]),
    include: IncludeFlags.optional(),
    since: z.string().max(200).optional(),
  });
}
export type PullQuery = z.infer<ReturnType<typeof pullQuerySchema>>;

/** The pull answer: details in the upstream's 2.4 / 2.5 shape, read again by the browser. */
export const ProxyPullAnswer = z.looseObject({
  status: z.boolean(),
  timeStamp: z.string().optional(),
  cursor: z.string(),
  details: z.array(z.unknown()),
  missing: z.array(z.string()),
  /** Per id, what the proxy skipped or noted while reading the upstream's answers for that load. */
  issues: z
    .record(
      z.string(),
      z.array(z.object({ path: z.string(), kind: z.string(), message: z.string(), skipped: z.boolean() })),
    )
    .optional(),
});
export type ProxyPullAnswer = z.infer<typeof ProxyPullAnswer>;

/** Every error the proxy itself writes. */
export const ProxyErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type ProxyErrorBody = z.infer<typeof ProxyErrorBody>;

/** A rule that marks a status event as an app or system notice (see `domain/noise-rules.ts`). */
export const NoiseRule = z.object({
  /** Text looked for in the event's name; case and runs of blanks do not matter. */
  contains: z.string(),
  /** Only events without a code are noise by this rule. */
  onlyWithoutCode: z.boolean().optional(),
});
export type NoiseRule = z.infer<typeof NoiseRule>;

/** `GET /api/config`: what the SPA may know. */
export const ClientConfig = z.object({
  tileUrl: z.string().nullable(),
  tileAttribution: z.string(),
  refreshSeconds: z.number(),
  maxIds: z.number(),
  /** Minutes without a ping after which a load is stale, then silent. */
  staleAfterMinutes: z.number(),
  silentAfterMinutes: z.number(),
  /** Degrees a reefer's supply or return may stray from its set point before it is an excursion. */
  excursionTolerance: z.number(),
  /** Pings less sure than this many meters make their stretch of the breadcrumb dashed. */
  lowConfidenceMeters: z.number(),
  /** The rules that hide app and system notices in a load's timeline, in force on this proxy. */
  noiseRules: z.array(NoiseRule),
  /** Demo mode (the embedded simulator): the demo fleet and a webhook token the form may offer. */
  demo: z
    .object({
      externalIds: z.array(z.string()),
      loadNumbers: z.array(z.string()),
      webhookToken: z.string().nullable(),
    })
    .nullable(),
});
export type ClientConfig = z.infer<typeof ClientConfig>;

/** `GET|POST|DELETE /api/session`: whether a login is needed, and whether this browser has one. */
export const SessionState = z.object({
  required: z.boolean().optional(),
  active: z.boolean(),
});
export type SessionState = z.infer<typeof SessionState>;

export const Health = z.object({
  ok: z.boolean(),
  upstream: z.object({
    mode: z.enum(['simulator', 'remote']),
    lastReachableAt: z.string().nullable(),
  }),
});
export type Health = z.infer<typeof Health>;

/** One line of the drift report: where answers departed from the documented interface. */
export const DriftEntry = z.object({
  operation: z.string(),
  /** JSON path with indexes folded: `details[].locations[].lat`. */
  path: z.string(),
  kind: z.string(),
  count: z.number(),
  /** Whether data was dropped because of it, or merely noted. */
  skipped: z.boolean(),
  example: z.string(),
  firstSeen: z.string(),
  lastSeen: z.string(),
});
export type DriftEntry = z.infer<typeof DriftEntry>;

/** `GET /api/diagnostics`. */
export const Diagnostics = z.object({
  since: z.string(),
  answersRead: z.number(),
  entries: z.array(DriftEntry),
});
export type Diagnostics = z.infer<typeof Diagnostics>;
