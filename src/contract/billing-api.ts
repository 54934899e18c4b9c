import * as z from 'zod/mini';
import './zod-locale';

/**
 * Paperwork and billing on the proxy (`/api/billing/*`, issue 37): what the server answers and the
 * SPA parses. Beside proxy-api.ts, whose shapes they do not share.
 */

/** A POD or BOL against its stop: what is wrong with it, the ones that hold payment first. */
export const POD_FLAG_KINDS = [
  'far-from-stop',
  'wrong-stop-type',
  'before-arrival',
  'unknown-stop',
  'no-stop-named',
  'after-departure',
  'no-location',
  'no-time',
  'time-unsure',
  // Not a fault: a paper of an earlier trip under the same ids, whose stops the service no longer sends.
  'earlier-trip',
] as const;
export const PodFlagKind = z.enum(POD_FLAG_KINDS);
export type PodFlagKind = z.infer<typeof PodFlagKind>;

export const PodFlag = z.object({ kind: PodFlagKind, text: z.string() });
export type PodFlag = z.infer<typeof PodFlag>;

/** One POD or BOL checked against the stop it names (`domain/pod-checks.ts`). */
export const PodCheck = z.object({
  url: z.string(),
  kind: z.enum(['POD', 'BOL']),
  /** Epoch ms of the upload; null when its time could not be read. */
  instant: z.nullable(z.number()),
  stopOrder: z.optional(z.number()),
  /** Meters from the stop's point, when both are known. */
  meters: z.optional(z.number()),
  flags: z.array(PodFlag),
});
export type PodCheck = z.infer<typeof PodCheck>;

/**
 * A load's paperwork by its PODs and their reviews: `missing` (no POD), `to-review` (one not decided
 * yet), `rejected` (every POD rejected), `complete` (one approved).
 */
export const PAPERWORK_STATES = ['on-the-road', 'missing', 'to-review', 'rejected', 'complete'] as const;
export const PaperworkState = z.enum(PAPERWORK_STATES);
export type PaperworkState = z.infer<typeof PaperworkState>;

const loadIds = {
  /** `e:ID` or `n:ID`, as reviews name a load. */
  ref: z.string(),
  by: z.enum(['external-id', 'load-number']),
  id: z.string(),
  externalId: z.optional(z.string()),
  loadNumber: z.optional(z.string()),
};

/** The delivery stop a load was delivered at. */
export const DeliveryStop = z.object({
  order: z.number(),
  name: z.optional(z.string()),
  city: z.optional(z.string()),
  state: z.optional(z.string()),
});
export type DeliveryStop = z.infer<typeof DeliveryStop>;

export const PaperworkLoad = z.object({
  ...loadIds,
  state: PaperworkState,
  /** ISO 8601, when its latest status says delivered. */
  deliveredAt: z.optional(z.string()),
  checks: z.array(PodCheck),
});
export type PaperworkLoad = z.infer<typeof PaperworkLoad>;

/** What every billing answer says about where its loads come from: the loads the proxy holds. */
const held = {
  /** Loads the proxy holds now (those browsers have watched, at most `CACHE_MAX_LOADS`). */
  held: z.number(),
};

/** `GET /api/billing/paperwork`: the held loads' paperwork states counted, and their papers checked. */
export const PaperworkAnswer = z.object({
  ...held,
  /**
   * Every held load's current trip by state, and the earlier delivered trips of a load dispatched
   * again under the same ids: as many as the loads when no ids were reused.
   */
  counts: z.record(PaperworkState, z.number()),
  /**
   * The held loads with a POD or BOL (an earlier trip's flagged `earlier-trip`), the worst flags
   * first; with `flagged=1`, only the checks with a fault or of an undecided document, and the loads
   * with one.
   */
  loads: z.array(PaperworkLoad),
});
export type PaperworkAnswer = z.infer<typeof PaperworkAnswer>;

export const ReadyLoad = z.object({
  ...loadIds,
  deliveryStop: z.optional(DeliveryStop),
  /** ISO 8601 UTC. */
  deliveredAt: z.string(),
  /** `MM/DD/YYYY HH:mm` on the delivery stop's clock; absent when its offset is unknown. */
  deliveredAtStop: z.optional(z.string()),
  /** `GMT-6`; absent when unknown. */
  stopZone: z.optional(z.string()),
  podUrl: z.string(),
  /**
   * A trip before the load's current one (dispatched again under the same ids); its delivery stop is
   * given when that trip's stops were kept while it was current.
   */
  earlierTrip: z.optional(z.literal(true)),
  reviewedBy: z.string(),
  /** ISO 8601. */
  reviewedAt: z.string(),
});
export type ReadyLoad = z.infer<typeof ReadyLoad>;

/** `GET /api/billing/ready`: delivered loads with an approved POD, oldest delivery first. */
export const ReadyAnswer = z.object({ ...held, loads: z.array(ReadyLoad) });
export type ReadyAnswer = z.infer<typeof ReadyAnswer>;

export const OverdueLoad = z.object({
  ...loadIds,
  deliveryStop: z.optional(DeliveryStop),
  deliveredAt: z.string(),
  /**
   * A trip before the load's current one (dispatched again under the same ids); its delivery stop is
   * given when that trip's stops were kept while it was current.
   */
  earlierTrip: z.optional(z.literal(true)),
  /** Hours since delivery, on the track's clock. */
  hoursSince: z.number(),
});
export type OverdueLoad = z.infer<typeof OverdueLoad>;

/** `GET /api/billing/overdue`: delivered loads with no POD after `POD_DUE_HOURS`, longest waiting first. */
export const OverdueAnswer = z.object({ ...held, dueHours: z.number(), loads: z.array(OverdueLoad) });
export type OverdueAnswer = z.infer<typeof OverdueAnswer>;

/**
 * `GET /api/billing/paperwork` parameters: `flagged=1` lists only the papers still to work on, the
 * checks with a flag or of a document nobody approved or rejected yet, and the loads that have one
 * (the inbox's refreshes); the counts stay over every held load. `0` or absent: every load with
 * papers, every check (the Billing page).
 */
export const PaperworkQuery = z.strictObject({
  flagged: z.optional(
    z.enum(['0', '1'], 'flagged is 1 (only flagged or undecided papers) or 0 (every load)'),
  ),
});
export type PaperworkQuery = z.infer<typeof PaperworkQuery>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (field: string) =>
  z.string().check(
    z.refine((v) => {
      if (!DAY.test(v)) return false;
      const t = Date.parse(`${v}T00:00:00Z`);
      // 2026-02-30 is no day: Date rolls it into March.
      return !Number.isNaN(t) && new Date(t).toISOString().startsWith(v);
    }, `${field} is a day written YYYY-MM-DD, e.g. 2026-11-24`),
  );

/** `GET /api/billing/ready` parameters: days of delivery in UTC, both ends included. */
export const ReadyQuery = z
  .strictObject({
    from: z.optional(day('from')),
    to: z.optional(day('to')),
    format: z.optional(z.enum(['json', 'csv'])),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (v.from !== undefined && v.to !== undefined && v.to < v.from)
        ctx.addIssue({ code: 'custom', path: ['to'], message: 'to is before from', input: v });
    }),
  );
export type ReadyQuery = z.infer<typeof ReadyQuery>;
