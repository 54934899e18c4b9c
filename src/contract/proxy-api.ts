import * as z from 'zod/mini';
import './zod-locale';

/**
 * The proxy's own interface (docs/architecture.md, "The /api interface"): what the browser sends
 * to `/api/*` and what it gets back. Shared by the server, which validates with it, and the SPA,
 * which builds requests and parses answers with it. This file holds what the first page parses
 * before any view (config, session, errors, a load's id); each resource's shapes have a file of
 * their own (load-view.ts, stream-api.ts, review-api.ts, users-api.ts, boards-api.ts,
 * exceptions-api.ts, diagnostics-api.ts), which the pages that need them and the pull worker import.
 *
 * Written with `zod/mini`, whose functions tree-shake: the page's first screen carries only the
 * parts of zod these schemas use (classic zod's chained methods bring all of it, issue 33).
 */

/**
 * Which build of the SPA the server serves: every `/api` answer carries it in this header, and the
 * HTML pages in a `<meta name="haulview-build">`. A tab that sees another build than its own was
 * opened before a deploy, and offers a reload (its schemas may not read the new answers).
 */
export const BUILD_HEADER = 'Haulview-Build';
export const BUILD_META = 'haulview-build';

/** One id as a browser may send it: trimmed, non-empty, at most 64 printable characters. */
export const LoadId = z
  .string({ error: 'each id must be a string' })
  .check(
    z.trim(),
    z.minLength(1, 'an id must not be empty'),
    z.maxLength(64, 'an id must be at most 64 characters'),
    z.regex(/^[\x20-\x7e]+$/, 'an id may hold printable characters only'),
  );

export const IncludeFlags = z.strictObject({
  locations: z.optional(z.boolean()),
  events: z.optional(z.boolean()),
  documents: z.optional(z.boolean()),
  comments: z.optional(z.boolean()),
  /**
   * The proxy's own flag (the service has none): a reefer's readings list. The latest reading comes
   * anyway. Views of many loads leave the list out: 10,000 reefers' readings are tens of megabytes.
   */
  temperatures: z.optional(z.boolean()),
  /**
   * The proxy's own flag: a load's undocumented fields (stops, say) and the notes that say they were
   * kept. Views of many loads show neither, and leave them out: many loads' stops and notes are a
   * large part of a board's answer.
   */
  extras: z.optional(z.boolean()),
});
export type IncludeFlags = z.infer<typeof IncludeFlags>;

/** A load as a review names it: `e:9001` (external id) or `n:ABC` (load number), as in `?load=`. */
export const LoadRefText = z
  .string()
  .check(
    z.maxLength(66, 'a load reference is e: or n: and an id of at most 64 characters'),
    z.regex(
      /^[en]:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/,
      'a load reference is e:ID (external id) or n:ID (load number), e.g. e:9001',
    ),
  );

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
    ids: z.pipe(
      z
        .array(LoadId, { error: 'ids must be an array of strings' })
        .check(
          z.minLength(1, 'ids must hold at least one id'),
          z.maxLength(maxIds, `ids may hold at most ${maxIds} ids`),
        ),
      z.transform((ids: string[]) => [...new Set(ids)]),
    ),
    include: z.optional(IncludeFlags),
    since: z.optional(z.string().check(z.maxLength(200))),
  });
}
export type PullQuery = z.infer<ReturnType<typeof pullQuerySchema>>;

/** Every error the proxy itself writes. */
export const ProxyErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.optional(z.unknown()),
  }),
});
export type ProxyErrorBody = z.infer<typeof ProxyErrorBody>;

/** A rule that marks a status event as an app or system notice (see `domain/noise-rules.ts`). */
export const NoiseRule = z.object({
  /** Text looked for in the event's name; case and runs of blanks do not matter. */
  contains: z.string(),
  /** Only events without a code are noise by this rule. */
  onlyWithoutCode: z.optional(z.boolean()),
});
export type NoiseRule = z.infer<typeof NoiseRule>;

/** `GET /api/config`: what the SPA may know. */
export const ClientConfig = z.object({
  tileUrl: z.nullable(z.string()),
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
  demo: z.nullable(
    z.object({
      externalIds: z.array(z.string()),
      loadNumbers: z.array(z.string()),
      webhookToken: z.nullable(z.string()),
    }),
  ),
});
export type ClientConfig = z.infer<typeof ClientConfig>;

/** What a user may do: every role pulls and sees loads; brokers and admins review; admins manage. */
export const ROLES = ['dispatcher', 'broker', 'admin'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

export const SessionUser = z.object({ name: z.string(), role: Role });
export type SessionUser = z.infer<typeof SessionUser>;

/**
 * `GET /api/session`: who this browser is logged in as (null: nobody). In `open` mode (a loopback
 * demo with no user in the store) everyone acts as admin, or as the role they chose to view as.
 */
export const SessionState = z.object({
  mode: z.enum(['open', 'users']),
  user: z.nullable(SessionUser),
});
export type SessionState = z.infer<typeof SessionState>;

export const Health = z.object({
  ok: z.boolean(),
  upstream: z.object({
    mode: z.enum(['simulator', 'remote']),
    lastReachableAt: z.nullable(z.string()),
  }),
});
export type Health = z.infer<typeof Health>;
